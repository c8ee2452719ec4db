// The ruling page between server answers: outline what the last ruling found wrong, keep the
// action rows' player names in step with the seat names, copy the hand as JSON.
(function () {
  "use strict";
  // Words from Django's JavaScript catalog (/jsi18n/<language>.js), English without it.
  var gettext = window.gettext || function (s) { return s; };

  function markInvalid(result) {
    var form = document.getElementById("ruling-form");
    if (!form || !result) return;
    var ids = (result.getAttribute("data-invalid") || "").split(/\s+/).filter(Boolean);
    form.querySelectorAll(".invalid").forEach(function (el) {
      if (!result.contains(el)) el.classList.remove("invalid");
    });
    ids.forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.classList.add("invalid");
    });
    // Rows after a refused action are not part of the ruling shown: dim them.
    var before = parseInt(result.getAttribute("data-partial-before"), 10);
    form.querySelectorAll(".act-row").forEach(function (row) {
      var index = parseInt(row.id.replace("action-", ""), 10);
      row.classList.toggle("after-error", !isNaN(before) && index > before);
    });
  }

  // The JSON panel stays open across updates once the floor has opened it.
  var jsonOpen = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var json = document.getElementById("json");
    jsonOpen = !!(json && json.open);
  });

  document.addEventListener("htmx:afterSwap", function () {
    markInvalid(document.getElementById("result"));
    var json = document.getElementById("json");
    if (json && jsonOpen) json.open = true;
  });

  document.addEventListener("input", function (evt) {
    var input = evt.target;
    if (!input.matches || !input.matches("input[name=seat_name]")) return;
    var seat = input.getAttribute("data-seat");
    var label = input.value.trim() || gettext("(no name)");
    document.querySelectorAll('select[name=act_player] option[value="' + seat + '"]').forEach(function (opt) {
      opt.textContent = label;
    });
  });

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-copy]");
    if (!button) return;
    var area = document.querySelector(button.getAttribute("data-copy"));
    if (!area) return;
    var done = function () { button.textContent = gettext("Copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(area.value).then(done, function () { area.select(); });
    } else {
      area.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* selected: copy by hand */ }
    }
  });
})();
