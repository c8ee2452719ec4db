// The clock screen's "Last 5 hands of the day" (WSOP R125): the server's words in the
// clock JSON (`last_hands`, in the screen's language), read from the answer clock.js keeps.
(function () {
  "use strict";
  var box = document.getElementById("last-hands");
  if (!box) return;
  function show() {
    var clock = window.tdClock && window.tdClock.data;
    if (!clock) return;
    var text = clock.last_hands ? clock.last_hands.text : "";
    if (box.textContent !== text) box.textContent = text;
    box.hidden = !text;
  }
  setInterval(show, 1000);
})();
