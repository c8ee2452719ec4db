/* Venue clock screen.
 * Truth comes from the server (GET the clock JSON every second): the level's end time and
 * the server's time. The countdown is redrawn locally every 200 ms from those, corrected
 * for the difference between this screen's clock and the server's (estimated from the
 * request's round trip), so a screen whose clock is minutes off still shows the right time.
 */
(function () {
  "use strict";
  // Every word a person reads comes from Django's JavaScript catalog (/jsi18n/<language>.js,
  // loaded first); without it the clock still counts, in English.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((s, args) => s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? args[k] : m)));
  const tr = (text, args) => interpolate(text, args, true);
  const STATUS = {
    "not-started": gettext("Not started"), running: gettext("Running"),
    paused: gettext("Paused"), finished: gettext("Finished"),
  };
  const BANNER = { "not-started": gettext("NOT STARTED"), paused: gettext("PAUSED"), finished: gettext("TOURNAMENT COMPLETE") };
  // A flight's clock stops for good when its event combines Day 2: the tournament goes on.
  const FLIGHT_OVER = gettext("FLIGHT OVER: ON TO DAY 2");
  const banner = (d) => (d.status === "finished" && d.whole_event ? FLIGHT_OVER : BANNER[d.status] || "");

  const root = document.body;
  const url = root.dataset.clockUrl;
  const POLL_MS = 1000, TIMEOUT_MS = 4000, STALE_MS = 6000;
  const ROTATE_MS = 9000, MOVES_PAGE_MS = 6000, PAYOUT_PAGE_MS = 9000;
  // Beside a payout table or the draw the side column is short: fewer places per page.
  const ROTATOR_PLACES = root.classList.contains("layout-clock") ? 5 : 3, TABLE_PLACES = 10;
  let data = null, offset = 0, soundOn = false, audio = null;
  const link = window.tdClockTime.link(STALE_MS);
  let lastKey = null, warnedKey = null, wakeLock = null;

  const $ = (id) => document.getElementById(id);
  // The numbers and the time left as every clock counts them (clock-time.js, loaded first).
  const { fmt, fmt1, hms, money } = window.tdClockTime;
  // The time of day in the page's language, Western digits.
  const LOCALE = `${document.documentElement.lang || "en"}-u-nu-latn`;
  function setText(id, text) { const el = $(id); if (el && el.textContent !== text) el.textContent = text; }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The venue's time of day (its TIME_ZONE), from the server's clock, not the screen's.
  let dayFormat;
  try {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: root.dataset.timeZone });
  } catch (e) {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }

  function remaining() { return window.tdClockTime.remaining(data, offset); }
  // A figure counted from the same moment as remaining_ms: it falls as the level runs.
  function since(ms, left) { return ms - (data.remaining_ms - left); }

  function beep(times) {
    if (!soundOn) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      for (let i = 0; i < times; i++) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = 880; o.connect(g); g.connect(audio.destination);
        const t = audio.currentTime + i * 0.45;
        g.gain.setValueAtTime(0.0001, t); g.gain.exponentialRampToValueAtTime(0.6, t + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
        o.start(t); o.stop(t + 0.4);
      }
    } catch (e) { /* no audio device: stay silent */ }
  }

  function lateRegText(left) {
    if (!data.late_registration_level) return null;  // the event has no late registration
    if (!data.late_registration_open) return [gettext("Late registration closed"), ""];
    const sub = tr(gettext("at the end of level %(n)s"), { n: data.late_registration_level });
    const ms = data.ms_to_late_registration_end;
    if (ms === null || ms === undefined) return [gettext("Open"), sub];
    return [tr(gettext("Closes in %(time)s"), { time: hms(since(ms, left)) }), sub];
  }

  /* Entry notices (late registration, rebuys, add-on, re-entries): the server's words;
   * "closes in" counts down from its `ms`, as the level's time does. */
  let noticesKey = "";
  function noticeText(n, left) {
    if (n.code === "late-registration" && n.params && n.params.ms !== null && n.params.ms !== undefined) {
      return tr(gettext("Late registration closes in %(time)s"), { time: hms(since(n.params.ms, left)) });
    }
    return n.text;
  }
  function showNotices(left) {
    const list = $("entry-notices");
    if (!list) return;
    const notices = data.entry_notices || [];
    // The late-registration text holds the time left: its level, not its text, is its key.
    const key = notices.map((n) => `${n.code}:${n.code === "late-registration" ? n.params.level : n.text}`).join("\n");
    if (key !== noticesKey) {
      noticesKey = key;
      list.replaceChildren(...notices.map((n) => {
        const li = el("li", "", noticeText(n, left));
        li.dataset.code = n.code;
        if (n.params && n.params.now) li.dataset.now = "";
        return li;
      }));
      return;
    }
    notices.forEach((n, i) => { const li = list.children[i]; if (li) { const t = noticeText(n, left); if (li.textContent !== t) li.textContent = t; } });
  }

  function render() {
    if (!data) return;
    const left = remaining();
    showNotices(left);
    setText("time", hms(left));
    setText("time-of-day", dayFormat.format(new Date(Date.now() + offset)));
    const stopped = data.status === "paused" || data.status === "not-started";
    root.classList.toggle("paused", stopped);
    root.classList.toggle("finished", data.status === "finished");
    root.classList.toggle("on-break", !!data.on_break);
    root.classList.toggle("last-minute", data.status === "running" && left <= 60000);
    root.classList.toggle("is-stale", link.stale);
    // One warning a minute before the end, once per level and clock version.
    const key = `${data.level_index}:${data.version}`;
    if (data.status === "running" && left <= 60000 && left > 55000 && warnedKey !== key) {
      warnedKey = key; beep(1);
    }
    const toBreak = data.ms_to_next_break;
    setText("to-break", toBreak === null || toBreak === undefined ? "–" : hms(since(toBreak, left)));
    const late = lateRegText(left);
    setText("rot-late-reg", late ? late[0] : "");
    setText("rot-late-reg-sub", late ? late[1] : "");
  }

  /* The side panel: one item at a time, every few seconds, skipping the empty ones. */
  const rotator = { items: [...document.querySelectorAll("#rotator .item")], at: -1, payoutPage: 0 };
  function itemFull(item) {
    if (!data) return false;
    switch (item.dataset.item) {
      // The payouts layout has the whole table beside the clock already.
      case "payouts": return (data.payouts || []).length > 0 && !root.classList.contains("layout-payouts");
      // Once the tournament is over no break comes and nobody registers.
      case "colour-up": return !!(data.next_break && data.next_break.note) && data.status !== "finished";
      case "late-reg": return !!data.late_registration_level && !!data.late_registration_open && data.status !== "finished";
      case "chip-leader": return !!data.chip_leader;
    }
    return false;
  }
  function payoutRotatorPage() {
    const all = data.payouts || [];
    const pages = Math.max(1, Math.ceil(Math.min(all.length, ROTATOR_PLACES * 2) / ROTATOR_PLACES));
    const page = rotator.payoutPage % pages;
    const from = page * ROTATOR_PLACES;
    const shown = all.slice(from, from + ROTATOR_PLACES);
    const list = $("rot-payouts");
    list.replaceChildren(...shown.map((p) => {
      const li = el("li");
      li.append(el("span", "place", `${p.place}.`), el("span", "amount", money(p.amount)));
      return li;
    }));
    setText("rot-payouts-label", all.length > ROTATOR_PLACES
      ? tr(gettext("Payouts %(from)s–%(to)s of %(paid)s"), { from: from + 1, to: from + shown.length, paid: all.length }) : gettext("Payouts"));
  }
  function rotate() {
    const full = rotator.items.filter(itemFull);
    if (!full.length) { rotator.items.forEach((i) => i.classList.remove("on")); rotator.at = -1; return; }
    const current = rotator.items[rotator.at];
    let next = full[(full.indexOf(current) + 1) % full.length] || full[0];
    if (next.dataset.item === "payouts") {
      if (current === next) rotator.payoutPage += 1; else if (current !== undefined) rotator.payoutPage = 0;
      payoutRotatorPage();
    }
    rotator.items.forEach((i) => i.classList.toggle("on", i === next));
    rotator.at = rotator.items.indexOf(next);
  }
  function refreshRotator() {
    const current = rotator.items[rotator.at];
    if (!current || !itemFull(current)) rotate();
    else if (current.dataset.item === "payouts") payoutRotatorPage();
    const leader = data.chip_leader;
    setText("rot-colour-up", data.next_break && data.next_break.note ? data.next_break.note : "");
    setText("rot-leader-name", leader ? leader.player : "");
    setText("rot-leader-chips", leader ? (leader.table ? tr(gettext("Table %(table)s · %(chips)s"), { table: leader.table, chips: fmt(leader.chips) }) : tr(gettext("%(chips)s chips"), { chips: fmt(leader.chips) })) : "");
  }

  /* The moves ticker: every slip, a page of as many as fit on the line at a time. The
   * clock JSON carries the first part of the slips (20) and how many there are; the
   * ticker asks the slips endpoint for each further part when it has shown the one before,
   * then comes back to the clock's own. */
  const SLIPS_URL = root.dataset.slipsUrl;
  const ticker = { texts: "", pages: [], page: 0, part: 1, first: 0, count: 0, size: 0, asking: false };
  function slipsToPages(texts) {
    const box = $("moves");
    const width = box.clientWidth;
    box.classList.add("measuring");
    const spans = texts.map((t) => el("span", "tick", t));
    box.replaceChildren(...spans);
    const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    const pages = [];
    let page = [], used = 0;
    spans.forEach((s, i) => {
      const w = s.getBoundingClientRect().width;
      if (page.length && used + gap + w > width) { pages.push(page); page = []; used = 0; }
      used += (page.length ? gap : 0) + w;
      page.push(texts[i]);
    });
    if (page.length) pages.push(page);
    box.classList.remove("measuring");
    return pages;
  }
  function showMovesPage() {
    const page = ticker.pages[ticker.page] || [];
    // A slip wider than the line (a phone) wraps onto a second line rather than being cut.
    $("moves").replaceChildren(...page.map((t) => el("span", page.length === 1 ? "tick wide" : "tick", t)));
    let label = ticker.pages.length > 1 ? `${ticker.page + 1}/${ticker.pages.length}` : "";
    if (ticker.count > ticker.size && page.length) {
      // Slips in several parts: which of them all this page shows, "21–23 / 289".
      const before = ticker.pages.slice(0, ticker.page).reduce((n, p) => n + p.length, 0);
      const from = ticker.first + before + 1;
      const to = from + page.length - 1;
      label = `${from === to ? from : `${from}–${to}`} / ${ticker.count}`;
    }
    setText("moves-page", label);
  }
  function setMoves(moves, first) {
    const texts = moves.map((m) => m.text);
    const key = `${first}\n${texts.join("\n")}`;
    root.classList.toggle("has-moves", texts.length > 0);
    if (key === ticker.texts) return;
    ticker.texts = key;
    ticker.first = first;
    ticker.pages = slipsToPages(texts);
    if (ticker.page >= ticker.pages.length) ticker.page = 0;
    showMovesPage();
  }
  function updateMoves(d) {
    const moves = d.moves || [];
    ticker.count = d.moves_count === undefined ? moves.length : d.moves_count;
    ticker.size = moves.length;
    if (ticker.part === 1) setMoves(moves, 0);  // a further part stays until it is shown
  }
  function firstPart() {
    ticker.part = 1;
    ticker.page = 0;
    ticker.texts = "";
    if (data) setMoves(data.moves || [], 0);
  }
  async function nextPart() {
    const part = ticker.part + 1;
    ticker.asking = true;
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
    try {
      const r = await fetch(`${SLIPS_URL}?page=${part}`, { signal: ctrl.signal, cache: "no-store", headers: ASK });
      if (!r.ok) throw new Error(r.status);
      const got = await r.json();
      if (!got.moves.length) { firstPart(); return; }
      ticker.part = part;
      ticker.page = 0;
      ticker.count = got.count;
      setMoves(got.moves, (part - 1) * got.page_size);
    } catch (e) {
      firstPart();  // the next round tries again
    } finally {
      clearTimeout(timer);
      ticker.asking = false;
    }
  }
  function nextMovesPage() {
    if (ticker.asking) return;
    if (ticker.page + 1 < ticker.pages.length) {
      ticker.page += 1;
      showMovesPage();
    } else if (SLIPS_URL && ticker.count > ticker.first + ticker.pages.reduce((n, p) => n + p.length, 0)) {
      nextPart();  // more slips than this part holds
    } else if (ticker.part !== 1) {
      firstPart();
    } else if (ticker.pages.length > 1) {
      ticker.page = 0;
      showMovesPage();
    }
  }

  /* The payouts layout: the whole table beside the clock, a page at a time. */
  const payoutTable = { page: 0, key: "" };
  function showPayoutTable() {
    const body = $("payout-rows");
    if (!body || !data) return;
    const all = data.payouts || [];
    const pages = Math.max(1, Math.ceil(all.length / TABLE_PLACES));
    if (payoutTable.page >= pages) payoutTable.page = 0;
    const shown = all.slice(payoutTable.page * TABLE_PLACES, (payoutTable.page + 1) * TABLE_PLACES);
    const key = `${payoutTable.page}:${shown.map((p) => p.amount).join(",")}`;
    if (key !== payoutTable.key) {
      payoutTable.key = key;
      body.replaceChildren(...shown.map((p) => {
        const tr_ = el("tr");
        tr_.append(el("td", "place", String(p.place)), el("td", "amount", money(p.amount)));
        return tr_;
      }));
    }
    $("payout-empty").hidden = all.length > 0;
    setText("payout-page", pages > 1 ? tr(gettext("page %(page)s of %(pages)s"), { page: payoutTable.page + 1, pages: pages }) : "");
  }

  /* The last screen: the winner and the final table's places with what each won. */
  let finalKey = "";
  function showFinal(f) {
    const box = $("final");
    if (!box) return;
    const key = f ? JSON.stringify(f) : "";
    if (key === finalKey) return;
    finalKey = key;
    box.hidden = !f;
    if (!f) return;
    const winner = f.winner;
    $("final-winner-box").hidden = !winner;
    setText("final-winner", winner ? winner.player : "");
    setText("final-prize", winner ? money(winner.prize) : "");
    $("final-places").replaceChildren(...f.places.filter((p) => !winner || p.entry !== winner.entry).map((p) => {
      const li = el("li");
      const who = el("bdi", "who", p.player);
      // A place that won nothing shows no amount: "0" reads as a figure to pay.
      li.append(el("span", "place", p.label), who, el("span", "amount", Number(p.prize) ? money(p.prize) : ""));
      return li;
    }));
  }

  function show(d) {
    const levelKey = `${d.level_index}`;
    if (lastKey !== null && lastKey !== levelKey) beep(3);  // the server's level changed
    lastKey = levelKey;
    data = d;
    root.classList.remove("running", "not-started");
    if (d.status === "running" || d.status === "not-started") root.classList.add(d.status);
    setText("status", STATUS[d.status] || d.status);
    setText("banner", banner(d));
    $("status").className = "badge " + d.status;
    // The bubble has burst: the room sees it (gone again at the end, or after an undo).
    $("in-the-money").hidden = !(d.in_the_money && d.status !== "finished");
    setText("level-label", d.on_break ? gettext("Break") : tr(gettext("Level %(n)s"), { n: d.level }));
    setText("sb", fmt(d.small_blind)); setText("bb", fmt(d.big_blind));
    setText("ante", d.ante ? fmt(d.ante) : "–");
    setText("ante-kind", d.ante_type === "each" ? gettext("Ante") : d.ante_type === "button" ? gettext("Button ante") : gettext("BB ante"));
    setText("min-raise", fmt(d.min_raise_to));
    const maxBox = $("max-raise-box");
    if (d.max_raise_to !== null && d.max_raise_to !== undefined) { maxBox.hidden = false; setText("max-raise", fmt(d.max_raise_to)); }
    else { maxBox.hidden = true; }
    setText("assumption", d.max_raise_to ? d.schedule_assumption : "");
    setText("players", `${fmt(d.players_left)} / ${fmt(d.entries)}`);
    const whole = d.whole_event;  // a flight's clock: the event it is a flight of
    setText("whole-event", whole ? tr(gettext("%(flight)s · whole event %(entries)s"), { flight: whole.flight, entries: fmt(whole.entries) }) : "");
    setText("avg", fmt(d.average_stack));
    setText("avg-bb", d.average_stack && d.big_blind ? tr(gettext("%(bb)s BB"), { bb: fmt1(d.average_stack / d.big_blind) }) : "");
    setText("pool", money(d.prize_pool));
    const n = d.next;
    setText("next-label", n ? tr(gettext("Next level %(n)s"), { n: n.level }) : gettext("Next level"));
    setText("next", n ? `${fmt(n.small_blind)} / ${fmt(n.big_blind)}` : "–");
    setText("next-ante", n ? (n.ante ? tr(gettext("ante %(ante)s"), { ante: fmt(n.ante) }) : gettext("no ante")) : gettext("last level"));
    setText("break-note", d.break_note || "");
    // The blinds read "100 / 200" in every language: one left-to-right isolate (U+2066 to
    // U+2069), so a right-to-left sentence does not turn them round.
    const blinds = n ? `\u2066${fmt(n.small_blind)} / ${fmt(n.big_blind)}\u2069` : "";
    const args = n ? { n: n.level, blinds: blinds, ante: `\u2066${fmt(n.ante)}\u2069` } : null;
    setText("resume", n ? tr(n.ante ? gettext("Next level %(n)s: %(blinds)s, ante %(ante)s") : gettext("Next level %(n)s: %(blinds)s"), args) : gettext("No more levels in the schedule"));
    showFinal(d.status === "finished" ? d.final : null);
    updateMoves(d);
    refreshRotator();
    showPayoutTable();
    render();
  }

  // The server's words in the JSON (entry notices, move slips) in the page's language: the
  // page may be in its event's screen language, which the JSON's own address does not say.
  // A reader's choice (the cookie, a staff user's) still comes first, as it did for the page.
  const ASK = { Accept: "application/json", "Accept-Language": document.documentElement.lang || "en" };

  async function poll() {
    try {
      const got = await window.tdClockTime.fetchClock(url, ASK, TIMEOUT_MS);
      offset = got.offset;
      link.ok(got.received);
      show(got.data);
    } catch (e) {
      // Network down, server busy or its database unreachable (a 503): keep counting
      // from the last good answer, and say "reconnecting" (render() does it every 200 ms).
      link.failed();
      root.classList.toggle("is-stale", link.stale);
    } finally {
      setTimeout(poll, POLL_MS);
    }
  }

  async function keepAwake() {
    try {
      if ("wakeLock" in navigator && document.visibilityState === "visible") {
        wakeLock = await navigator.wakeLock.request("screen");
      }
    } catch (e) { /* not allowed here (needs HTTPS or localhost) */ }
  }

  function setSound(on) {
    soundOn = on;
    $("sound").textContent = soundOn ? gettext("Sound on") : gettext("Tap for sound");
    $("sound").setAttribute("aria-pressed", soundOn ? "true" : "false");
  }

  document.addEventListener("visibilitychange", keepAwake);
  $("sound").addEventListener("click", () => {
    setSound(!soundOn);
    if (soundOn) beep(1);
  });
  // ?sound=on: a kiosk without a mouse beeps from the start. Browsers still hold sound back
  // until a tap unless Chromium runs with --autoplay-policy=no-user-gesture-required.
  if (new URLSearchParams(location.search).get("sound") === "on") setSound(true);
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {});
  });
  window.addEventListener("resize", firstPart);
  window.tdClock = { get data() { return data; }, get offset() { return offset; }, get stale() { return link.stale; }, get movePages() { return ticker.pages; }, get slipsAsked() { return ticker.asking; }, get soundOn() { return soundOn; }, get audioState() { return audio ? audio.state : null; } };
  keepAwake();
  poll();
  setInterval(render, 200);
  setInterval(rotate, ROTATE_MS);
  setInterval(nextMovesPage, MOVES_PAGE_MS);
  setInterval(() => { payoutTable.page += 1; showPayoutTable(); }, PAYOUT_PAGE_MS);
})();
