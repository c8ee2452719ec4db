/* The room's clocks: one panel per event, each counting down from its own clock JSON with
 * the single clock screen's arithmetic (clock-time.js). A screen opened without ?events=
 * follows the room: when an event starts, or one finishes, it reloads with the new set.
 */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((s, args) => s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? args[k] : m)));
  const tr = (text, args) => interpolate(text, args, true);
  const { fmt, money, hms, remaining, fetchClock } = window.tdClockTime;
  const STATUS = {
    "not-started": gettext("Not started"), running: gettext("Running"),
    paused: gettext("Paused"), finished: gettext("Finished"),
  };
  const BANNER = { "not-started": gettext("NOT STARTED"), paused: gettext("PAUSED"), finished: gettext("TOURNAMENT COMPLETE") };
  // A flight's clock stops for good when its event combines Day 2: the tournament goes on.
  const FLIGHT_OVER = gettext("FLIGHT OVER: ON TO DAY 2");
  const banner = (d) => (d.status === "finished" && d.whole_event ? FLIGHT_OVER : BANNER[d.status] || "");
  const POLL_MS = 1000, TIMEOUT_MS = 4000, STALE_MS = 6000;
  const ASK = { Accept: "application/json", "Accept-Language": document.documentElement.lang || "en" };
  const root = document.body;
  const LOCALE = `${document.documentElement.lang || "en"}-u-nu-latn`;

  function setText(el, text) { if (el && el.textContent !== text) el.textContent = text; }

  function panel(section) {
    const part = (k) => section.querySelector(`[data-k="${k}"]`);
    const p = { section: section, url: section.dataset.clockUrl, data: null, offset: 0, link: window.tdClockTime.link(STALE_MS) };
    p.show = function (d) {
      p.data = d;
      const stopped = d.status === "paused" || d.status === "not-started";
      section.classList.remove("running", "not-started", "paused", "finished");
      section.classList.add(d.status);
      section.classList.toggle("paused", stopped);
      section.classList.toggle("on-break", !!d.on_break);
      const status = part("status");
      setText(status, STATUS[d.status] || d.status);
      status.className = "badge " + d.status;
      setText(part("banner"), banner(d));
      setText(part("level"), d.on_break ? gettext("Break") : tr(gettext("Level %(n)s"), { n: d.level }));
      setText(part("blinds"), d.on_break ? "" : `${fmt(d.small_blind)} / ${fmt(d.big_blind)}`);
      setText(part("ante"), d.ante && !d.on_break ? `${gettext("Ante")} ${fmt(d.ante)}` : "");
      setText(part("next"), d.next ? `${fmt(d.next.small_blind)} / ${fmt(d.next.big_blind)}` : "–");
      setText(part("players"), `${fmt(d.players_left)} / ${fmt(d.entries)}`);
      // The last screen: the winner and the prize where the clock was.
      const winner = d.status === "finished" && d.final ? d.final.winner : null;
      section.classList.toggle("has-winner", !!winner);
      part("winner").hidden = !winner;
      setText(part("winner-name"), winner ? winner.player : "");
      setText(part("winner-prize"), winner && Number(winner.prize) ? money(winner.prize) : "");
      p.render();
    };
    p.render = function () {
      if (!p.data) return;
      const left = remaining(p.data, p.offset);
      setText(part("time"), hms(left));
      section.classList.toggle("last-minute", p.data.status === "running" && left <= 60000);
      section.classList.toggle("is-stale", p.link.stale);
    };
    p.poll = async function () {
      try {
        const got = await fetchClock(p.url, ASK, TIMEOUT_MS);
        p.offset = got.offset;
        p.link.ok(got.received);
        p.show(got.data);
      } catch (e) {
        /* network down, server busy or its database unreachable: keep counting */
        p.link.failed();
      } finally {
        setTimeout(p.poll, POLL_MS);
      }
    };
    return p;
  }

  const panels = [...document.querySelectorAll(".clock-panel")].map(panel);
  panels.forEach((p) => p.poll());
  setInterval(() => {
    panels.forEach((p) => p.render());
    root.classList.toggle("is-stale", panels.some((p) => p.link.stale));  // "reconnecting"
  }, 200);

  // The time of day on the venue's clock (its TIME_ZONE), from the first panel's server time.
  let dayFormat;
  try {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: root.dataset.timeZone });
  } catch (e) {
    dayFormat = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  const tick = () => setText(document.getElementById("time-of-day"), dayFormat.format(new Date(Date.now() + (panels[0] ? panels[0].offset : 0))));
  tick();
  setInterval(tick, 1000);

  // Following the room: the events running or paused now, against the panels shown.
  const followUrl = root.dataset.followUrl;
  if (followUrl) {
    const shown = panels.map((p) => Number(p.section.dataset.event));
    const every = Math.max(5, Number(root.dataset.followSeconds) || 30) * 1000;
    const check = async function () {
      try {
        const r = await fetch(followUrl, { cache: "no-store", headers: { Accept: "application/json" } });
        if (r.ok) {
          const playing = (await r.json()).filter((e) => !e.archived && (e.status === "running" || e.status === "paused"));
          // One shown has stopped, or one more has started while a panel was free.
          // A finished event keeps its panel (its winner) until the time the server gave it.
          const kept = panels.filter((p) => Number(p.section.dataset.until) > Date.now() + (p.offset || 0)).map((p) => Number(p.section.dataset.event));
          const ids = playing.map((e) => e.id).concat(kept);
          if (shown.some((id) => !ids.includes(id)) || shown.length < Math.min(6, ids.length)) return location.reload();
        }
      } catch (e) { /* network down: keep the panels and ask again later */ }
      setTimeout(check, every);
    };
    setTimeout(check, every);
  }

  document.getElementById("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {});
  });
  window.tdClocks = { get panels() { return panels.map((p) => ({ event: Number(p.section.dataset.event), data: p.data })); } };
})();
