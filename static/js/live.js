/* Night Shift's only script: says whether this screen hears the table (polling while it doesn't), and keeps what a
   player is in the middle of (a half-typed value, an open panel) when someone else's move refreshes the screen. */
(function () {
  "use strict";
  var POLL_MS = 5000;
  var timer = null;
  var typedInto = new WeakSet();  // fields this person changed and hasn't sent yet

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
    if (window.Idiomorph) {
      // A refresh must not close what the person opened or wipe what they are typing.
      window.Idiomorph.defaults.ignoreActiveValue = true;
      window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, element, change) {
        if (name === "open" && element.tagName === "DETAILS") { return false; }
        if (name === "value" && typedInto.has(element)) { return false; }
        return true;
      };
    }
  });

  document.addEventListener("input", function (event) { typedInto.add(event.target); });

  // A form that was just sent successfully starts empty again.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!form || form.tagName !== "FORM" || !event.detail.xhr || event.detail.xhr.status >= 300) { return; }
    Array.prototype.forEach.call(form.elements, function (field) { typedInto.delete(field); });
    if (form.contains(document.activeElement)) { document.activeElement.blur(); }
  });
})();
