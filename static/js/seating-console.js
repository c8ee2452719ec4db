// Seating console: after a jump to a table, bring its card into view; after a change of
// page, bring the top of the grid into view; a refused jump shows its message. The grid's own refresh (every 20 s, and after
// every change) leaves the scroll where the floor left it.
(function () {
  "use strict";

  function showMarked() {
    var card = document.querySelector("#tables .tcard.marked");
    if (card) card.scrollIntoView({ block: "center" });
    return card;
  }

  document.addEventListener("DOMContentLoaded", showMarked);

  document.addEventListener("htmx:afterSettle", function (evt) {
    var config = evt.detail.requestConfig;
    var target = evt.detail.target;
    if (!config || !target || target.id !== "tables") return;
    if (config.elt && config.elt.id === "tables") return; // the grid refreshing itself
    var grid = document.getElementById("tables");
    var refused = grid && grid.querySelector(".flash.error");
    if (refused) return refused.scrollIntoView({ block: "nearest" }); // say why, in view
    if (showMarked()) return;
    if (grid && grid.getBoundingClientRect().top < 0) grid.scrollIntoView({ block: "start" });
  });
})();
