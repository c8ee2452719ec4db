// The page's Print buttons (data-print) and the buttons that ask before they submit
// (data-confirm="question"): here, because the Content-Security-Policy runs no inline
// onclick="..." handler.
document.addEventListener("click", function (e) {
  var el = e.target.closest && e.target.closest("[data-print], [data-confirm]");
  if (!el) return;
  if (el.hasAttribute("data-print")) {
    window.print();
  } else if (!window.confirm(el.dataset.confirm)) {
    e.preventDefault();
  }
});

// "Busy, try again" (core.middleware.BusyMiddleware) answers 409 with a flash retargeted
// to the top of the page, and so do a form sent twice at once or with other values
// (core.writes, X-Flash): htmx swaps no 4xx by itself, so let these in.
document.addEventListener("htmx:beforeSwap", function (e) {
  var xhr = e.detail.xhr;
  if ((xhr.status === 409 && xhr.getResponseHeader("X-Busy")) || xhr.getResponseHeader("X-Flash")) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});

// A part of the page that refreshes itself (hx-get on a timer or an event) waits while a
// panel inside it is open for input (<details data-hold open>, e.g. the table page's
// "who eliminated them?") or a box in it is ticked (<input data-hold>, the bust-out
// console's players), so what the floor has ticked is not wiped; the next refresh after
// it closes catches up.
document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail.elt;
  if (e.detail.requestConfig.verb !== "get" || !elt.querySelector) return;
  if (elt.querySelector("details[data-hold][open], input[data-hold]:checked")) e.preventDefault();
});

// A form whose write went through (an answer with its client events, HX-Trigger) lets go of
// the rows it was about (data-release="li"), before those events make the page's parts
// reload: the row of each ticked player (name=entry) leaves, the other rows' boxes and
// typed values are cleared; a form inside its row hides the row (it stays in the page until
// its answer is in). So nothing it held holds the reload back, and a second tap finds
// nothing to send twice.
document.addEventListener("htmx:beforeOnLoad", function (e) {
  var form = e.detail.elt, xhr = e.detail.xhr;
  if (!form.matches || !form.matches("form[data-release]")) return;
  if (xhr.status < 200 || xhr.status >= 300 || !xhr.getResponseHeader("HX-Trigger")) return;
  var rows = form.dataset.release;
  var ticked = form.querySelectorAll("input[type=checkbox][name=entry]:checked");
  ticked.forEach(function (box) {
    var row = box.closest(rows);
    if (row) row.remove();
  });
  form.querySelectorAll(rows).forEach(function (row) {
    row.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = false; });
    row.querySelectorAll("input:not([type])").forEach(function (input) { input.value = ""; });
  });
  var own = form.closest(rows);
  if (!ticked.length && own) {
    own.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    own.style.display = "none";
  }
  form.dispatchEvent(new Event("released", { bubbles: true }));
});

// A select that acts at once (the language switcher): its form is sent on change.
document.addEventListener("change", function (e) {
  var el = e.target;
  if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.requestSubmit();
});

// A form's hidden key ({% idempotency_key %}, core.idempotency): the same key sent twice is
// answered once, so a double tap or a sending repeated after a dropped connection changes
// things once. Once the form has its answer and stays on the page, its next sending is a
// new one: a fresh key. After no answer or an error it keeps its key: sent again, it gets
// the first one's answer if that one went through.
document.addEventListener("htmx:afterRequest", function (e) {
  var xhr = e.detail.xhr, form = e.detail.elt.closest && e.detail.elt.closest("form");
  if (!form || !xhr || xhr.status < 200 || xhr.status >= 400) return;
  form.querySelectorAll("input[data-idempotency-key]").forEach(function (input) {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // crypto.randomUUID needs HTTPS; the venue's may be HTTP
    input.value = Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  });
});
