/* A player's own page. Where the room runs the push process (data-stream), one
 * Server-Sent Events stream sends the page its part ("me") and the clock's ("clock") when
 * they change, and "alive" while nothing does; the browser reconnects it with the last
 * message's id. A stream that never opens, is refused or fails three times in a row gives
 * way to polling, and is tried again a minute later. Polling: the JSON (/api/me/<token>) about
 * each second while visible, one request at a time, with the ETag of the last answer (304
 * while nothing changed); backs off while hidden or failing and asks again at once on
 * reconnection. The time left
 * counts down between answers (clock-time.js, as every clock screen). A move slip naming
 * the player covers the page, with a beep and a vibration, until "I'm there".
 */
(function () {
  "use strict";
  const root = document.getElementById("me");
  if (!root || !window.tdClockTime) return;
  const T = window.tdClockTime;
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((s, args) => s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? args[k] : m)));
  const tr = (text, args) => interpolate(text, args, true);
  const POLL_MS = 1000, TIMEOUT_MS = 4000, STALE_MS = 6000, HIDDEN_MS = 15000, MAX_BACKOFF_MS = 15000;
  // The stream's "alive" comes every 15 s: a silence twice that long is a dead connection.
  const STREAM_STALE_MS = 35000, STREAM_FAILURES = 3, STREAM_AGAIN_MS = 60000;
  const $ = (id) => document.getElementById(id);
  const polled = T.link(STALE_MS), streamed = T.link(STREAM_STALE_MS);
  let link = polled;
  const LOCALE = `${document.documentElement.lang || "en"}-u-nu-latn`;
  let dayFormat;
  try {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: root.dataset.timeZone });
  } catch (e) {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  let data = null, offset = 0, failures = 0, timer = null, inFlight = false;
  let detailsKey = null, shownMove = null, closedMove = null;

  function setText(id, text) { const el = $(id); if (el && el.textContent !== text) el.textContent = text; }

  // What the details part shows: when it changes, the part is asked for again (the words
  // in the page's language come from the server).
  function keyOf(d) {
    return JSON.stringify([d.status, d.table, d.seat, d.place, d.place_to, d.prize, d.prize_paid, d.chips,
      d.breaking_next, d.hand_for_hand, d.day2, d.reentry, d.clock.last_hands]);
  }

  async function refreshDetails() {
    try {
      const r = await fetch(root.dataset.details, { cache: "no-store", headers: { "HX-Request": "true" } });
      if (!r.ok) return;
      const html = await r.text();
      const box = $("me-details");
      if (box) box.outerHTML = html;
    } catch (e) { /* the next change asks again */ }
  }

  function renderClock() {
    if (!data) return;
    const c = data.clock;
    setText("me-time", T.hms(T.remaining(c, offset)));
  }

  function renderFigures() {
    const c = data.clock;
    setText("me-level", c.on_break ? gettext("Break") : c.level ? tr(gettext("Level %(n)s"), { n: c.level }) : "");
    let blinds = "";
    if (!c.on_break && c.big_blind) {
      blinds = `${T.fmt(c.small_blind)}/${T.fmt(c.big_blind)}`;
      if (c.ante) blinds += ` · ${tr(gettext("ante %(ante)s"), { ante: T.fmt(c.ante) })}`;
    }
    setText("me-blinds", blinds);
    setText("me-left", T.fmt(c.players_left));
    setText("me-average", T.fmt(c.average_stack));
    const list = $("me-payouts");
    if (list) {
      const text = c.payouts.map((p) => `${p.place}:${p.amount}`).join(",");
      if (list.dataset.shown !== text) {
        list.dataset.shown = text;
        list.replaceChildren(...c.payouts.map((p) => {
          const li = document.createElement("li");
          const place = document.createElement("span"), amount = document.createElement("b");
          place.textContent = p.place; amount.textContent = T.money(p.amount);
          li.append(place, amount);
          return li;
        }));
      }
    }
  }

  function beep() {
    try {
      const Audio = window.AudioContext || window.webkitAudioContext;
      if (!Audio) return;
      const ctx = beep.ctx || (beep.ctx = new Audio());
      if (ctx.state === "suspended") ctx.resume();
      [0, 0.35, 0.7].forEach((at) => {
        const osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.frequency.value = 880;
        gain.gain.value = 0.25;
        osc.connect(gain).connect(ctx.destination);
        osc.start(ctx.currentTime + at);
        osc.stop(ctx.currentTime + at + 0.2);
      });
    } catch (e) { /* no sound on this phone: the screen and the vibration tell */ }
  }

  // Browser notifications, where the page is served over HTTPS (PUBLIC_URL) and the
  // player allowed them: the move reaches a phone showing another app.
  const canNotify = window.isSecureContext && "Notification" in window;
  function notify(move) {
    if (!canNotify || Notification.permission !== "granted" || !document.hidden) return;
    try {
      new Notification(tr(gettext("Move to table %(table)s, seat %(seat)s"), { table: move.table, seat: move.seat }), { tag: `move-${move.id}`, requireInteraction: true });
    } catch (e) { /* a phone that shows notifications only from a service worker */ }
  }
  const asker = $("me-notify");
  if (asker && canNotify && Notification.permission === "default") {
    asker.hidden = false;
    asker.addEventListener("click", () => { Notification.requestPermission().finally(() => { asker.hidden = true; }); });
  }

  function renderMove() {
    const overlay = $("me-move");
    const move = data.move && data.move.id !== closedMove ? data.move : null;
    if (!move) { overlay.hidden = true; shownMove = null; return; }
    if (shownMove === move.id && !overlay.hidden) return;
    setText("me-move-title", tr(gettext("Move to table %(table)s, seat %(seat)s"), { table: move.table, seat: move.seat }));
    setText("me-move-table", String(move.table));
    setText("me-move-seat", String(move.seat));
    setText("me-move-when", `${dayFormat.format(new Date(move.at))} · ${move.reason_label}`);
    $("me-move-id").value = move.id;
    overlay.hidden = false;
    if (shownMove !== move.id) {
      shownMove = move.id;
      notify(move);
      beep();
      try { if (navigator.vibrate) navigator.vibrate([400, 200, 400, 200, 400]); } catch (e) { /* not allowed */ }
    }
  }

  function render() {
    const key = keyOf(data);
    if (detailsKey !== null && key !== detailsKey) refreshDetails();
    detailsKey = key;
    renderFigures();
    renderMove();
    renderClock();
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  // The push stream ------------------------------------------------------------------
  let source = null, streamFailures = 0, streamAgainAt = 0, mine = null, clockPart = null;

  function streamUrl() {
    const path = root.dataset.stream;
    if (!path || !window.EventSource) return null;
    const query = `?lang=${encodeURIComponent(document.documentElement.lang || "")}`;
    const port = root.dataset.streamPort;
    if (!port) return path + query;
    // Another port of this host: over HTTPS it would be mixed content, so the page polls.
    if (location.protocol !== "http:") return null;
    return `http://${location.hostname}:${port}${path}${query}`;
  }

  function heard(serverTime) {
    const at = Date.now();
    // Stamped as it was sent: no round trip to halve.
    if (serverTime) offset = Date.parse(serverTime) - at;
    streamFailures = 0;
    streamed.ok(at);
  }

  function showStreamed() {
    if (!mine || !clockPart) return;
    data = Object.assign({}, mine, { clock: clockPart });
    render();
  }

  function openStream(url) {
    clearTimeout(timer);
    link = streamed;
    streamed.ok(Date.now());
    source = new EventSource(url);
    let opened = false;
    source.addEventListener("open", () => { opened = true; });
    source.addEventListener("me", (e) => { mine = JSON.parse(e.data); heard(null); showStreamed(); });
    source.addEventListener("clock", (e) => {
      const m = JSON.parse(e.data);
      clockPart = m.clock;
      heard(m.server_time);
      showStreamed();
    });
    source.addEventListener("alive", (e) => { heard(JSON.parse(e.data).server_time); });
    source.addEventListener("error", () => {
      streamed.failed();
      streamFailures += 1;
      // Never opened: no push process there. Opened before: the browser tries again.
      if (!opened || source.readyState === EventSource.CLOSED || streamFailures >= STREAM_FAILURES) dropStream();
    });
  }

  // Polling from now on, the stream tried again in a minute.
  function dropStream() {
    if (source) source.close();
    source = null;
    streamAgainAt = Date.now() + STREAM_AGAIN_MS;
    link = polled;
    schedule(0);
  }

  // A stream the browser holds open but that has said nothing for too long (a phone that
  // slept, a Wi-Fi that changed) is opened again.
  function watchStream() {
    if (source && Date.now() - streamed.lastGood > STREAM_STALE_MS) {
      source.close();
      openStream(streamUrl());
    }
    document.body.classList.toggle("is-stale", link.stale);
  }

  // Polling ------------------------------------------------------------------------
  async function poll() {
    if (source) return;
    const url = streamUrl();
    if (url && Date.now() >= streamAgainAt) { openStream(url); return; }
    if (inFlight) return;
    inFlight = true;
    try {
      const got = await T.fetchClock(root.dataset.api, { Accept: "application/json" }, TIMEOUT_MS);
      data = got.data; offset = got.offset; failures = 0;
      link.ok(got.received);
      render();
    } catch (e) {
      failures += 1;
      link.failed();
    } finally {
      inFlight = false;
      document.body.classList.toggle("is-stale", link.stale);
      const wait = document.hidden ? HIDDEN_MS : failures ? Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** failures) : POLL_MS;
      schedule(wait);
    }
  }

  // "I'm there": posted with the page's CSRF token; the overlay closes at once.
  $("me-there").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const id = Number($("me-move-id").value);
    try {
      const r = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } });
      if (!r.ok && r.status !== 409) return;
      closedMove = id;
      $("me-move").hidden = true;
      shownMove = null;
    } catch (e) { /* offline: the overlay stays, tap again */ }
  });
  // A first touch unlocks the sound on phones that ask for one.
  document.addEventListener("pointerdown", () => { if (!beep.ctx) { try { const A = window.AudioContext || window.webkitAudioContext; if (A) beep.ctx = new A(); } catch (e) { /* none */ } } }, { once: true });
  document.addEventListener("visibilitychange", () => { if (!document.hidden && !source) schedule(0); });
  window.addEventListener("online", () => { failures = 0; if (!source) schedule(0); });
  setInterval(renderClock, 250);
  setInterval(watchStream, 1000);
  // The page came with a move slip already shown: it sounds once it can.
  const first = Number($("me-move-id").value);
  if (first) shownMove = first;
  poll();
})();
