/* This device's settings, kept in the browser (no account): text size, dark-table mode, reduced motion, and on a phone,
   the board and the host page the sound, its volume, the board's voice and a phone's vibration. Loaded before the page
   is drawn, so a saved look shows from the first frame; the "Settings" panel in the header changes them. The board and
   the host page keep their own (they often share one laptop with different needs); phones and every other page share
   one. */
(function () {
  "use strict";
  var root = document.documentElement;
  var screen = root.getAttribute("data-screen") || "page";
  var KEY = "nightshift.settings" + (screen === "board" || screen === "host" ? "." + screen : "");
  var OLD_PHONE_KEY = "nightshift.phone";  // the phone's buzz and chime switches, before Settings
  var DEFAULTS = {text: "standard", dark: "off", motion: false, sound: screen !== "host", volume: 80, voice: true,
                  vibrate: true, awake: true};
  var TEXT_SIZES = ["standard", "large", "larger", "largest"];
  var systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var systemCalm = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function read(key) {
    try { return JSON.parse(window.localStorage.getItem(key)) || {}; } catch (error) { return {}; }
  }

  var saved = read(KEY);
  if (KEY === "nightshift.settings" && !("sound" in saved)) {  // carry a phone's earlier buzz and chime choices over
    var old = read(OLD_PHONE_KEY);
    if (old.sound === false) { saved.sound = false; }
    if (old.buzz === false) { saved.vibrate = false; }
  }

  function get(name) {
    return Object.prototype.hasOwnProperty.call(saved, name) ? saved[name] : DEFAULTS[name];
  }

  // Motion is reduced when the device asks for it (always: the stylesheet honours it too) or this setting does.
  function reducedMotion() {
    return Boolean(systemCalm && systemCalm.matches) || Boolean(get("motion"));
  }

  function apply() {
    var text = get("text");
    if (TEXT_SIZES.indexOf(text) > 0) { root.setAttribute("data-text", text); } else { root.removeAttribute("data-text"); }
    var dark = get("dark") === "on" || (get("dark") === "system" && Boolean(systemDark && systemDark.matches));
    if (dark) { root.setAttribute("data-dark", ""); } else { root.removeAttribute("data-dark"); }
    if (reducedMotion()) { root.setAttribute("data-motion", "reduce"); } else { root.removeAttribute("data-motion"); }
    root.setAttribute("data-voice", get("voice") ? "on" : "off");
  }

  function set(name, value) {
    saved[name] = value;
    try { window.localStorage.setItem(KEY, JSON.stringify(saved)); } catch (error) { /* private mode: not kept */ }
    apply();
    document.dispatchEvent(new CustomEvent("nightshift:settings", {detail: {name: name, value: value}}));
  }

  apply();
  [systemDark, systemCalm].forEach(function (query) {
    if (query && query.addEventListener) { query.addEventListener("change", apply); }
  });

  window.nightShift = window.nightShift || {};
  window.nightShift.screen = screen;
  window.nightShift.settings = {get: get, set: set, reducedMotion: reducedMotion};

  // The panel: each control names its setting (data-setting); a box is on or off, a list or a slider its value.
  function show(control) {
    var value = get(control.getAttribute("data-setting"));
    if (control.type === "checkbox") {
      control.checked = Boolean(value);
    } else {
      control.value = String(value);
    }
  }

  function chosen(control) {
    if (control.type === "checkbox") { return control.checked; }
    return control.type === "range" ? Number(control.value) : control.value;
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-setting]"), function (control) {
      show(control);
      control.addEventListener(control.type === "range" ? "input" : "change", function () {
        set(control.getAttribute("data-setting"), chosen(control));
      });
    });
    // The device asks for reduced motion: the box says so and can't be unticked, since the stylesheet obeys the device.
    var calm = document.querySelector('[data-setting="motion"]');
    if (calm && systemCalm && systemCalm.matches) {
      calm.checked = true;
      calm.disabled = true;
      var note = document.querySelector("[data-motion-note]");
      if (note) { note.hidden = false; }
    }
  });
})();
