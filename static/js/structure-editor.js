// The levels editor (templates/structures/editor.html). A refused save answers 400 with the
// form and its messages: htmx swaps no 4xx by itself, so let the editor's in. After a row
// is added, moved or removed, the keyboard goes where the server marked (autofocus): htmx
// would otherwise put it back on the button that was pressed, in its old place.
document.addEventListener("htmx:beforeSwap", function (e) {
  if (e.detail.target && e.detail.target.id === "editor" && e.detail.xhr.status === 400) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});
document.addEventListener("htmx:afterSettle", function () {
  var form = document.getElementById("editor");
  if (!form) return;
  var target = form.querySelector("[autofocus]") || form.querySelector("#editor-errors");
  if (target) {
    if (target.id === "editor-errors") target.setAttribute("tabindex", "-1");
    target.focus();
  }
});
