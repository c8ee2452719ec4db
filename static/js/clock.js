/* Venue clock screen.
 * Truth comes from the server (GET the clock JSON every second): the level's end time and
 * the server's time. The countdown is redrawn locally every 200 ms from those, corrected
 * for the difference between this screen's clock and the server's (estimated from the
 * request's round trip), so a screen whose clock is minutes off still shows the right time.
 */
(function () {
  "use strict";
  const root = document.body;
  const url = root.dataset.clockUrl;
  const POLL_MS = 1000, TIMEOUT_MS = 4000, STALE_MS = 6000;
  let data = null, offset = 0, lastGood = 0, soundOn = false, audio = null;
  let lastKey = null, warnedKey = null, wakeLock = null;

  const $ = (id) => document.getElementById(id);
  const fmt = (n) => (n === null || n === undefined) ? "–" : Number(n).toLocaleString("en-US");
  function hms(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(sec).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  }
  function setText(id, text) { const el = $(id); if (el && el.textContent !== text) el.textContent = text; }

  function remaining() {
    if (!data) return 0;
    if (data.status === "running" && data.level_ends_at) {
      return Date.parse(data.level_ends_at) - (Date.now() + offset);
    }
    return data.remaining_ms;
  }

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

  function render() {
    if (!data) return;
    const left = remaining();
    setText("time", hms(left));
    root.classList.toggle("paused", data.status === "paused" || data.status === "not-started");
    root.classList.toggle("finished", data.status === "finished");
    root.classList.toggle("on-break", !!data.on_break);
    root.classList.toggle("last-minute", data.status === "running" && left <= 60000);
    root.classList.toggle("is-stale", Date.now() - lastGood > STALE_MS);
    // One warning a minute before the end, once per level and clock version.
    const key = `${data.level_index}:${data.version}`;
    if (data.status === "running" && left <= 60000 && left > 55000 && warnedKey !== key) {
      warnedKey = key; beep(1);
    }
    if (data.ms_to_break !== null && data.ms_to_break !== undefined && !data.on_break) {
      const toBreak = data.ms_to_break - (data.remaining_ms - left);
      setText("to-break", hms(toBreak));
    } else {
      setText("to-break", data.on_break ? "now" : "–");
    }
  }

  function show(d) {
    const levelKey = `${d.level_index}`;
    if (lastKey !== null && lastKey !== levelKey) beep(3);  // the server's level changed
    lastKey = levelKey;
    data = d;
    root.classList.remove("running", "not-started");
    if (d.status === "running" || d.status === "not-started") root.classList.add(d.status);
    setText("status", d.status.replace("-", " "));
    setText("paused-label", d.status === "not-started" ? "Not started" : "Paused");
    $("status").className = "badge " + d.status;
    setText("level-label", d.on_break ? "Break" : `Level ${d.level}`);
    setText("sb", fmt(d.small_blind)); setText("bb", fmt(d.big_blind));
    setText("ante", d.ante ? fmt(d.ante) : "–");
    setText("ante-kind", d.ante_type === "each" ? "Ante" : d.ante_type === "button" ? "Button ante" : "BB ante");
    setText("min-raise", fmt(d.min_raise_to));
    const maxBox = $("max-raise-box");
    if (d.max_raise_to !== null && d.max_raise_to !== undefined) { maxBox.hidden = false; setText("max-raise", fmt(d.max_raise_to)); }
    else { maxBox.hidden = true; }
    setText("assumption", d.max_raise_to ? d.schedule_assumption : "");
    setText("players", `${fmt(d.players_left)} / ${fmt(d.entries)}`);
    setText("avg", fmt(d.average_stack));
    setText("avg-bb", d.average_stack && d.big_blind ? `${(d.average_stack / d.big_blind).toFixed(1)} BB` : "");
    setText("pool", fmt(Math.round(Number(d.prize_pool))));
    const n = d.next;
    setText("next", n ? `${fmt(n.small_blind)} / ${fmt(n.big_blind)}` : "–");
    setText("next-ante", n ? (n.ante ? `ante ${fmt(n.ante)}` : "no ante") : "last level");
    setText("break-note", d.break_note || "");
    setText("resume", n ? `Play resumes at level ${n.level}: ${fmt(n.small_blind)} / ${fmt(n.big_blind)}${n.ante ? " ante " + fmt(n.ante) : ""}` : "");
    const moves = d.moves || [];
    setText("moves", moves.map((m) => m.text).join("   •   "));
    root.classList.toggle("has-moves", moves.length > 0);
    render();
  }

  async function poll() {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
    const sent = Date.now();
    try {
      const r = await fetch(url, { signal: ctrl.signal, cache: "no-store", headers: { Accept: "application/json" } });
      if (!r.ok) throw new Error(r.status);
      const d = await r.json();
      const received = Date.now();
      // Server time was read about halfway through the round trip.
      offset = Date.parse(d.server_time) - (sent + received) / 2;
      lastGood = received;
      show(d);
    } catch (e) {
      /* network down or server busy: keep counting from the last good answer */
    } finally {
      clearTimeout(timer);
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

  document.addEventListener("visibilitychange", keepAwake);
  $("sound").addEventListener("click", () => {
    soundOn = !soundOn;
    $("sound").textContent = soundOn ? "Sound on" : "Tap for sound";
    $("sound").setAttribute("aria-pressed", soundOn ? "true" : "false");
    if (soundOn) beep(1);
  });
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {});
  });
  window.tdClock = { get data() { return data; }, get offset() { return offset; } };
  keepAwake();
  poll();
  setInterval(render, 200);
})();
