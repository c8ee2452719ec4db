// The table draw screen: every player A to Z in columns that fill the screen, a new page
// every few seconds, fresh seats from the JSON API at the start of every round.
(function () {
  "use strict";
  var body = document.body;
  var board = document.getElementById("board");
  var pageLabel = document.getElementById("page");
  var countLabel = document.getElementById("count");
  var progress = document.getElementById("progress");
  var seconds = Math.max(3, parseInt(body.dataset.seconds, 10) || 10);
  var rows = JSON.parse(document.getElementById("seat-data").textContent);
  // The words come from Django's JavaScript catalog (/jsi18n/<language>.js, loaded first);
  // without it the screen still runs, in English.
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (s, args) {
    return s.replace(/%\((\w+)\)s/g, function (m, k) { return k in args ? args[k] : m; });
  };
  var page = 0;
  var layout = null;

  function measure() {
    // One probe row tells the row height at this screen size (it is set in vh).
    var style = getComputedStyle(board);
    var probe = document.createElement("div");
    probe.className = "p";
    probe.style.height = "var(--row-h, 4.2vh)";
    probe.textContent = "M";
    board.appendChild(probe);
    var rowHeight = probe.getBoundingClientRect().height || 40;
    board.removeChild(probe);
    var height = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    var width = board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    var perColumn = Math.max(2, Math.floor(height / rowHeight));
    // Columns wide enough for the field's long names at this screen's text size (most
    // names whole; a rare very long one may still be cut), and no more columns than the
    // field fills: 21 players get two wide columns, not five narrow ones.
    var fit = Math.max(1, Math.floor(width / Math.max(260, columnWidth())));
    var needed = Math.max(1, Math.ceil(rows.length / (perColumn - 1)));
    var columns = Math.min(fit, needed);
    return { perColumn: perColumn, columns: columns, perPage: columns * (perColumn - 1) };
  }

  function columnWidth() {
    // The 90th-percentile name, measured in a probe row like the real ones, plus the gaps.
    if (!rows.length) return 0;
    var widths = [];
    var probe = row({ player: "", table: 888, seat: 88 });
    probe.style.visibility = "hidden";
    probe.style.position = "absolute";
    probe.style.gridTemplateColumns = "max-content 3.3ch 2.3ch";
    board.appendChild(probe);
    var name = probe.firstChild;
    var sample = rows.length > 400 ? rows.filter(function (_, i) { return i % Math.ceil(rows.length / 400) === 0; }) : rows;
    for (var i = 0; i < sample.length; i++) {
      name.textContent = sample[i].player;
      widths.push(probe.getBoundingClientRect().width);
    }
    board.removeChild(probe);
    widths.sort(function (a, b) { return a - b; });
    var gap = parseFloat(getComputedStyle(board).columnGap) || 0;
    return widths[Math.min(widths.length - 1, Math.floor(widths.length * 0.9))] + gap;
  }

  function cell(tag, cls, text) {
    var el = document.createElement(tag);
    el.className = cls;
    el.textContent = text;
    return el;
  }

  function row(r) {
    var el = cell("div", "p", "");
    var name = cell("span", "name", r.player);
    if (r.note) {
      // A note tells two players of one name apart, as on the seat lookup; it goes under
      // the name, smaller, so a narrow TV column cuts neither.
      name = cell("span", "name noted", "");
      name.appendChild(cell("span", "pname", r.player));
      name.appendChild(cell("span", "pnote", "(" + r.note + ")"));
    }
    el.appendChild(name);
    el.appendChild(cell("span", "t", r.table == null ? "–" : String(r.table)));
    el.appendChild(cell("span", "s", r.seat == null ? "" : String(r.seat)));
    return el;
  }

  function header() {
    var el = cell("div", "p head", "");
    el.appendChild(cell("span", "name", gettext("Player")));
    el.appendChild(cell("span", "t", gettext("Table")));
    el.appendChild(cell("span", "s", gettext("Seat")));
    return el;
  }

  function pages() {
    return Math.max(1, Math.ceil(rows.length / layout.perPage));
  }

  function render() {
    layout = layout || measure();
    if (page >= pages()) page = 0;
    board.style.setProperty("--rows", layout.perColumn);
    board.style.gridTemplateColumns = "repeat(" + layout.columns + ", minmax(0, 1fr))";
    var start = page * layout.perPage;
    var slice = rows.slice(start, start + layout.perPage);
    var fragment = document.createDocumentFragment();
    if (!rows.length) {
      fragment.appendChild(cell("p", "muted", gettext("No seats drawn yet.")));
    }
    for (var i = 0; i < slice.length; i++) {
      if (i % (layout.perColumn - 1) === 0) fragment.appendChild(header());
      fragment.appendChild(row(slice[i]));
    }
    board.replaceChildren(fragment);
    pageLabel.textContent = interpolate(gettext("page %(page)s of %(pages)s"), { page: page + 1, pages: pages() }, true);
    countLabel.textContent = interpolate(ngettext("%(n)s player", "%(n)s players", rows.length), { n: rows.length }, true);
    progress.style.transition = "none";
    progress.style.width = "0";
    void progress.offsetWidth; // restart the bar's animation from empty
    progress.style.transition = "width " + seconds + "s linear";
    progress.style.width = "100%";
  }

  // While the seats cannot be read (no network, the server's database unreachable), the
  // screen keeps showing the last seats it had, says "reconnecting", and asks again every
  // few seconds rather than once a round.
  var RETRY_MS = 5000, TIMEOUT_MS = 4000;
  var retrying = null;

  function lost(on) {
    body.classList.toggle("seats-stale", on);
    clearTimeout(retrying);
    retrying = on ? setTimeout(refresh, RETRY_MS) : null;
  }

  function refresh() {
    var ctrl = new AbortController();
    var timer = setTimeout(function () { ctrl.abort(); }, TIMEOUT_MS);
    return fetch(body.dataset.seatsUrl, { signal: ctrl.signal, cache: "no-store", headers: { Accept: "application/json", "Accept-Language": document.documentElement.lang || "en" } })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (data) {
        lost(false);
        if (!Array.isArray(data)) return;
        rows = data.filter(function (r) { return r.table != null; });
        layout = null; // the field shrinks through the night: fewer, wider columns
      })
      .catch(function () { lost(true); /* keep showing the last seats we had */ })
      .finally(function () { clearTimeout(timer); });
  }

  function tick() {
    page += 1;
    if (page >= pages()) {
      page = 0;
      refresh().then(render);
    } else {
      render();
    }
  }

  rows = rows.filter(function (r) { return r.table != null; });
  window.addEventListener("resize", function () { layout = null; render(); });
  render();
  setInterval(tick, seconds * 1000);
})();
