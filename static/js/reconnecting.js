/* A public page that asks the server by itself (htmx: the seat lookup's search and its
 * refresh, the chip counts' board) says "reconnecting" while its requests fail, and stops
 * saying it at the next answer. htmx leaves the page as it was on a failed request (an
 * error answer such as the 503 of a database that is down, no network, or no answer
 * within TIMEOUT_MS), so the last answer stays on screen meanwhile.
 */
(function () {
  "use strict";
  const TIMEOUT_MS = 4000;
  const body = document.body;
  if (window.htmx && !window.htmx.config.timeout) window.htmx.config.timeout = TIMEOUT_MS;
  const lost = () => body.classList.add("is-stale");
  body.addEventListener("htmx:sendError", lost);
  body.addEventListener("htmx:timeout", lost);
  body.addEventListener("htmx:responseError", (e) => { if (e.detail.xhr.status >= 500) lost(); });
  body.addEventListener("htmx:afterRequest", (e) => { if (e.detail.successful) body.classList.remove("is-stale"); });
})();
