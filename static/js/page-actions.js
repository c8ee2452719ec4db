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
