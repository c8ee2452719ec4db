/* A venue screen opened through a stable address (/clock/, /seats/draw/) follows the room.
 * The stable address sent it to this week's event with ?follow=1. Every data-seconds it asks
 * which event is current (one small cached JSON read); when that is another event (next
 * week's copy has started) or none, it goes back to the stable address, which leads on.
 * Opened at an event's own address (no follow=1) it stays on that event.
 */
(function () {
  "use strict";
  const me = document.querySelector("script[data-current-event-url]");
  const query = new URLSearchParams(location.search);
  if (!me || query.get("follow") !== "1") return;
  const shown = Number(me.dataset.event);
  const every = Math.max(1, Number(me.dataset.seconds) || 60) * 1000;

  function moveOn() {
    query.delete("follow");  // the stable address adds it again
    const rest = query.toString();
    location.assign(me.dataset.home + (rest ? "?" + rest : ""));
  }

  async function check() {
    try {
      const r = await fetch(me.dataset.currentEventUrl, { cache: "no-store", headers: { Accept: "application/json" } });
      if (r.status === 404) return moveOn();  // no event any more: the stable page says so
      if (r.ok && (await r.json()).id !== shown) return moveOn();
    } catch (e) { /* network down: stay on this event and ask again later */ }
    setTimeout(check, every);
  }
  setTimeout(check, every);
})();
