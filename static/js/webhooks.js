// The webhooks page: "Copy" puts the new secret on the clipboard (data-copy="#input").
// The clipboard API needs HTTPS, which the venue's LAN may not have: the selected text
// and execCommand("copy") do it there.
document.addEventListener("click", function (e) {
  var button = e.target.closest && e.target.closest("[data-copy]");
  if (!button) return;
  var input = document.querySelector(button.dataset.copy);
  if (!input) return;
  input.focus();
  input.select();
  var done = function () { button.textContent = button.dataset.copied || button.textContent; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, function () {});
  } else if (document.execCommand("copy")) {
    done();
  }
});
