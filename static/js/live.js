/* Night Shift's only script: tells people whether their screen hears the table, and polls while it doesn't. */
(function () {
  "use strict";
  var POLL_MS = 5000;
  var timer = null;

  function poll() {
    if (window.htmx) { window.htmx.trigger(document.body, "poll"); }
  }

  function setLive(on) {
    document.body.setAttribute("data-live", on ? "on" : "off");
    if (on && timer) { clearInterval(timer); timer = null; }
    if (!on && !timer) { timer = setInterval(poll, POLL_MS); }
  }

  document.addEventListener("htmx:sseOpen", function () { setLive(true); poll(); });
  document.addEventListener("htmx:sseError", function () { setLive(false); });
  document.addEventListener("htmx:sseClose", function () { setLive(false); });
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.querySelector("[sse-connect]")) { return; }
    if (!window.EventSource) { setLive(false); }  // no streaming at all: polling keeps the screen current
  });
})();
