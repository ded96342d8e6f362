/* A player's phone at the table: when it becomes this seat's turn (or the table asks this seat), scroll to what to do
   and give the turn's cue (cues.js: a chime and a buzz, as this phone's Settings allow); keep the screen awake while
   the game runs (its own block at the end). */
(function () {
  "use strict";
  var wasMine = null;

  function prompt() {
    return document.querySelector("#live [data-prompt]") || document.querySelector("#live .whose-turn.yours");
  }

  function inView(element) {  // already on screen: leave the page where the player's thumb expects it
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }

  function yourTurn() {
    var shift = window.nightShift || {};
    var reduced = shift.settings && shift.settings.reducedMotion();
    var target = prompt();
    if (target && !inView(target)) { target.scrollIntoView({behavior: reduced ? "auto" : "smooth", block: "start"}); }
    if (shift.cue) { shift.cue("turn"); }
    document.body.setAttribute("data-alerted", String(Date.now()));  // what a test (or a curious person) can see
  }

  function check() {
    var mine = Boolean(prompt());
    if (mine && wasMine === false) { yourTurn(); }
    wasMine = mine;
  }

  function running() {
    var state = document.querySelector("#live .live-state");
    return state && !state.hasAttribute("data-over");
  }

  // Log times arrive in UTC; show them in this device's own time zone.
  function localTimes(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("time.log-time[datetime]"), function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (!isNaN(moment)) { time.textContent = moment.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localTimes(); });
  document.addEventListener("htmx:afterSwap", function (event) { localTimes(event.detail.target); });

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.querySelector(".seat-bar")) { return; }
    wasMine = Boolean(prompt());
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!document.querySelector(".seat-bar")) { return; }
    if (event.detail.target && event.detail.target.id === "live") { check(); }
  });

  // ---- Keep screen on (issue 43) ---------------------------------------------------------------------------------
  // The Screen Wake Lock where the browser has it (a secure page: https, or this machine itself). Elsewhere, as on a
  // phone that opened the LAN address over plain http, NoSleep.js (static/vendor/) plays its tiny muted looping video,
  // from the files on this server: the Content-Security-Policy refuses the data: videos inside the library. Browsers
  // play it only after a touch, so the first tap starts it. The "Keep screen on" switch is remembered on this phone;
  // the screen may sleep again once the game is over. body[data-awake] says how it is kept on, for a test to see.
  var lock = null;
  var sleepless = null;

  function awakeWanted() {
    var shift = window.nightShift || {};
    var wanted = !shift.settings || shift.settings.get("awake") !== false;  // Settings, kept on this phone
    return wanted && running() && document.visibilityState === "visible";
  }

  function shown(how) { document.body.setAttribute("data-awake", how); }

  function letSleep() {
    if (lock) { lock.release(); lock = null; }
    if (sleepless && sleepless.isEnabled) { sleepless.disable(); }
    shown("");
  }

  function sleeplessVideo(box) {
    var files = {webm: box.getAttribute("data-webm"), mp4: box.getAttribute("data-mp4")};
    window.NoSleep.prototype._addSourceToVideo = function (video, type) {
      var source = document.createElement("source");
      source.src = files[type];
      source.type = "video/" + type;
      video.appendChild(source);
    };
    var made = new window.NoSleep();
    if (made.noSleepVideo) { made.noSleepVideo.muted = true; made.noSleepVideo.setAttribute("muted", ""); }
    return made;
  }

  function keepAwake(tapped) {
    var box = document.querySelector("[data-setting=awake]");
    if (!box) { return; }
    if (!awakeWanted()) { letSleep(); return; }
    if ("wakeLock" in navigator) {
      if (lock) { return; }
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        shown("wake-lock");
        sentinel.addEventListener("release", function () { lock = null; shown(""); });
      }).catch(function () { /* refused (battery saver): the screen may sleep */ });
      return;
    }
    if (!window.NoSleep || (!tapped && !sleepless) || (sleepless && sleepless.isEnabled)) { return; }
    sleepless = sleepless || sleeplessVideo(box);
    sleepless.enable().then(function () { shown("video"); }, function () { shown(""); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-setting=awake]");
    if (box) { box.addEventListener("change", function () { keepAwake(true); }); }
    keepAwake(false);
  });
  document.addEventListener("visibilitychange", function () { keepAwake(false); });
  document.addEventListener("click", function () { keepAwake(true); }, true);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "live") { keepAwake(false); }
  });
})();
