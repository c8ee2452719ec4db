// The alternates list: the time left on a held seat (the desk's list, the player's page),
// counted on between answers from the server's time; and the player's page polling its
// place every second (ETag: an unchanged place costs a 304), so a call shows within 2 s.
(function () {
  "use strict";
  var seen = new WeakMap(); // element -> the server's clock minus ours, when first seen

  function offsetOf(el) {
    if (!seen.has(el)) {
      var server = Date.parse(el.dataset.now || "");
      seen.set(el, isNaN(server) ? 0 : server - Date.now());
    }
    return seen.get(el);
  }

  function mmss(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    document.querySelectorAll(".countdown[data-due]").forEach(function (el) {
      var due = Date.parse(el.dataset.due);
      if (!isNaN(due)) el.textContent = mmss(due - (Date.now() + offsetOf(el)));
    });
    var ready = document.getElementById("seat-ready");
    if (ready && !ready.hidden) {
      var due = Date.parse(ready.dataset.due || "");
      var left = document.getElementById("seat-ready-left");
      if (!isNaN(due) && left) {
        var ms = due - (Date.now() + offsetOf(ready));
        left.textContent = mmss(ms);
        ready.classList.toggle("late", ms <= 0);
      }
    }
  }

  var page = document.getElementById("alt-me");
  var etag = null;

  function show(state) {
    if (state.seated) {
      window.location.reload(); // the link follows the entry now: the entry's page
      return;
    }
    var active = state.status === "waiting" || state.status === "called";
    document.getElementById("alt-waiting").hidden = !active;
    document.getElementById("alt-removed").hidden = state.status !== "removed";
    document.getElementById("alt-position").textContent = state.position || "—";
    document.getElementById("alt-estimate").textContent = state.wait_text;
    var ready = document.getElementById("seat-ready");
    var called = state.status === "called";
    if (called) {
      ready.dataset.due = state.due_at;
      ready.dataset.now = state.now;
      seen.delete(ready);
      if (ready.hidden && navigator.vibrate) navigator.vibrate([300, 100, 300]);
    }
    ready.hidden = !called;
    tick();
  }

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(page.dataset.poll, { headers: headers, cache: "no-store" })
      .then(function (r) {
        if (r.status === 200) {
          etag = r.headers.get("ETag");
          return r.json().then(show);
        }
      })
      .catch(function () {})
      .then(function () { window.setTimeout(poll, 1000); });
  }

  window.setInterval(tick, 1000);
  tick();
  if (page && page.dataset.poll) poll();
})();
