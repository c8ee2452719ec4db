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
