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
// to the top of the page: htmx swaps no 4xx by itself, so let this one in.
document.addEventListener("htmx:beforeSwap", function (e) {
  var xhr = e.detail.xhr;
  if (xhr.status === 409 && xhr.getResponseHeader("X-Busy")) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});

// A part of the page that refreshes itself (hx-get on a timer or an event) waits while a
// panel inside it is open for input (<details data-hold open>, e.g. the table page's
// "who eliminated them?"), so what the floor has ticked is not wiped; the next refresh
// after it closes catches up.
document.addEventListener("htmx:beforeRequest", function (e) {
  var elt = e.detail.elt;
  if (e.detail.requestConfig.verb !== "get" || !elt.querySelector) return;
  if (elt.querySelector("details[data-hold][open]")) e.preventDefault();
});

// A select that acts at once (the language switcher): its form is sent on change.
document.addEventListener("change", function (e) {
  var el = e.target;
  if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.requestSubmit();
});
