// The shot clock's face on the table page (templates/shotclock/panel.html). The server
// says when the clock reaches zero (data-ends, ms since the epoch) and what its own time
// was (data-now): the face counts down from those, so a reload or another device shows
// the same time. It sounds at each warning point (data-warnings, seconds left) and at
// zero (WebAudio, once the page has been touched: browsers keep audio off until then),
// and at zero asks the server to record the expiry (#sc-expire), which answers with the
// outcome. Loaded with each panel swap: it binds once.
(function () {
  if (window.tdShotClock) return;
  var audio = null;
  var sounded = {}; // "<started>:<point>" -> true, so a refreshed face never beeps twice
  var reported = {}; // "<started>" -> true, one expiry post per clock

  function ctx() {
    var Ctor = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctor) audio = new Ctor();
    if (audio && audio.state === "suspended") audio.resume();
    return audio;
  }

  function beep(seconds, pitch) {
    var a = audio;
    if (!a || a.state !== "running") return;
    var osc = a.createOscillator();
    var gain = a.createGain();
    osc.frequency.value = pitch;
    osc.type = "square";
    gain.gain.setValueAtTime(0.25, a.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, a.currentTime + seconds);
    osc.connect(gain).connect(a.destination);
    osc.start();
    osc.stop(a.currentTime + seconds);
  }

  function shown(left) {
    var s = Math.max(0, Math.ceil(left));
    if (s < 60) return String(s);
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }

  function tick() {
    var face = document.querySelector("[data-shot-clock]");
    if (!face || !face.dataset.ends) return;
    if (!face.dataset.skew) face.dataset.skew = String(Number(face.dataset.now) - Date.now());
    var now = Date.now() + Number(face.dataset.skew);
    var left = (Number(face.dataset.ends) - now) / 1000;
    var started = face.dataset.started;
    var time = face.querySelector("[data-sc-time]");
    if (time) time.textContent = shown(left);
    if (face.dataset.recorded) return; // its expiry is on the server already
    var points = (face.dataset.warnings || "").split(",").filter(Boolean).map(Number);
    var warned = points.some(function (w) { return left <= w; });
    face.classList.toggle("warning", warned && left >= 0);
    points.forEach(function (w) {
      var key = started + ":" + w;
      if (left <= w && left > w - 1.5 && !sounded[key]) {
        sounded[key] = true;
        beep(0.18, 880);
      }
    });
    // Past zero (a tie, exactly at zero, is the player's): sound, then report it, even
    // when a refresh of the face saw zero first.
    if (left < -0.25 && !reported[started]) {
      reported[started] = true;
      if (!sounded[started + ":0"]) {
        sounded[started + ":0"] = true;
        beep(1.2, 440);
      }
      face.classList.add("expired");
      var form = document.getElementById("sc-expire");
      if (form) form.requestSubmit();
    }
  }

  document.addEventListener("pointerdown", ctx, { passive: true });
  document.addEventListener("keydown", ctx);
  document.addEventListener("click", function (e) {
    var full = e.target.closest && e.target.closest("[data-sc-fullscreen]");
    var flip = e.target.closest && e.target.closest("[data-sc-flip]");
    var face = document.querySelector("[data-shot-clock]");
    var stage = document.getElementById("sc-stage");
    if (!face) return;
    if (full) {
      if (document.fullscreenElement) document.exitFullscreen();
      else if (stage && stage.requestFullscreen) stage.requestFullscreen();
    } else if (flip) {
      window.tdShotClock.flipped = !window.tdShotClock.flipped;
      face.classList.toggle("flipped", window.tdShotClock.flipped);
    }
  });
  // A refreshed face keeps the way it was turned.
  document.addEventListener("htmx:afterSettle", function () {
    var face = document.querySelector("[data-shot-clock]");
    if (face) face.classList.toggle("flipped", !!window.tdShotClock.flipped);
    tick();
  });
  // While the face is full screen only the face refreshes (inside the full-screen stage):
  // the whole panel's swap would drop out of full screen.
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (document.fullscreenElement && e.detail.elt && e.detail.elt.id === "shot-clock") e.preventDefault();
  });
  window.tdShotClock = { flipped: false, tick: tick };
  setInterval(tick, 100);
  tick();
})();
