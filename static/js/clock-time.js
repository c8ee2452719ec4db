/* What every clock on a venue screen shares: the time left counted from the server's stored
 * timestamps, the numbers as the pages write them, and one poll of a clock JSON that
 * measures how far this screen's clock is from the server's. The single clock screen
 * (clock.js) and the room's clocks (clocks.js) both count with it, so they always agree.
 */
(function () {
  "use strict";
  // Numbers as the page's server-side `chips` filter writes them: the locale's separators
  // from the catalog (Django's formats), grouped in threes where the locale sets no
  // grouping, in Western digits in every language (an Arabic screen's blinds and clock
  // stay the digits players read on their chips). The first paint and every poll agree.
  const format = window.get_format || ((name) => ({ THOUSAND_SEPARATOR: ",", DECIMAL_SEPARATOR: "." })[name]);
  const THOUSANDS = format("THOUSAND_SEPARATOR"), DECIMAL = format("DECIMAL_SEPARATOR");
  const GROUP = Number(format("NUMBER_GROUPING")) || 3;
  function grouped(digits) {
    let out = "";
    for (let end = digits.length; end > 0; end -= GROUP) {
      const part = digits.slice(Math.max(0, end - GROUP), end);
      out = out ? part + THOUSANDS + out : part;
    }
    return out;
  }
  function fmt(n) {
    if (n === null || n === undefined || n === "" || Number.isNaN(Number(n))) return "–";
    const whole = Math.round(Number(n));
    return (whole < 0 ? "-" : "") + grouped(String(Math.abs(whole)));
  }
  // Money as the server's `money` filter writes it: "1,200" for a whole amount, "1,234.50"
  // with cents (an amount comes as a decimal string, "15000.00").
  function money(a) {
    if (a === null || a === undefined || a === "" || Number.isNaN(Number(a))) return "–";
    const [whole, cents] = Math.abs(Number(a)).toFixed(2).split(".");
    const sign = Number(a) < 0 ? "-" : "";
    return sign + grouped(whole) + (cents === "00" ? "" : DECIMAL + cents);
  }
  function fmt1(x) {
    const [whole, tenth] = Math.abs(x).toFixed(1).split(".");
    return (x < 0 ? "-" : "") + grouped(whole) + DECIMAL + tenth;
  }
  function hms(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(sec).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  }
  // The level's time left now: from its end while running (on the server's clock, `offset`
  // ms ahead of this screen's), else what the server stored.
  function remaining(data, offset) {
    if (!data) return 0;
    if (data.status === "running" && data.level_ends_at) {
      return Date.parse(data.level_ends_at) - (Date.now() + offset);
    }
    return data.remaining_ms;
  }
  // One GET of a clock JSON: {data, offset, received}; throws when it fails or times out.
  // It sends the ETag of the last answer from this URL: while nothing but the moment
  // changed the server answers 304 without a body, and that answer is reused with the
  // server's time from X-Server-Time (the times left count from level_ends_at, or stay).
  const last = {};
  async function fetchClock(url, headers, timeoutMs) {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), timeoutMs);
    const sent = Date.now();
    const held = last[url];
    const ask = held ? Object.assign({}, headers, { "If-None-Match": held.tag }) : headers;
    try {
      const r = await fetch(url, { signal: ctrl.signal, cache: "no-store", headers: ask });
      let data;
      if (r.status === 304) {
        const at = r.headers.get("X-Server-Time");
        if (!held || !at) { delete last[url]; throw new Error("304 without the server's time"); }
        data = Object.assign({}, held.data, { server_time: at });
      } else {
        if (!r.ok) throw new Error(r.status);
        data = await r.json();
        const tag = r.headers.get("ETag");
        if (tag) last[url] = { tag: tag, data: data }; else delete last[url];
      }
      const received = Date.now();
      // Server time was read about halfway through the round trip.
      return { data: data, offset: Date.parse(data.server_time) - (sent + received) / 2, received: received };
    } finally {
      clearTimeout(timer);
    }
  }
  // Whether a screen has lost the server, for its "reconnecting": two polls in a row failed
  // (an error answer, such as the 503 of a database that is down, or none within the
  // timeout), or no good answer for staleMs. One failed poll is a blip, not worth a word.
  function link(staleMs) {
    let failures = 0, lastGood = Date.now();
    return {
      ok(at) { failures = 0; lastGood = at; },
      failed() { failures += 1; },
      get stale() { return failures >= 2 || Date.now() - lastGood > staleMs; },
      get lastGood() { return lastGood; },
    };
  }
  window.tdClockTime = { grouped: grouped, fmt: fmt, money: money, fmt1: fmt1, hms: hms, remaining: remaining, fetchClock: fetchClock, link: link };
})();
