/* A player's phone at the table: when it becomes this seat's turn (or the table asks this seat), scroll to what to do,
   buzz and chime (each switchable, remembered on this phone); keep the screen awake while the game runs. */
(function () {
  "use strict";
  var KEY = "nightshift.phone";
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var wasMine = null;
  var audio = null;
  var lock = null;

  function settings() {
    try { return JSON.parse(window.localStorage.getItem(KEY)) || {}; } catch (error) { return {}; }
  }

  function remember(name, on) {
    var saved = settings();
    saved[name] = on;
    try { window.localStorage.setItem(KEY, JSON.stringify(saved)); } catch (error) { /* private mode: not kept */ }
  }

  function prompt() {
    return document.querySelector("#live [data-prompt]") || document.querySelector("#live .whose-turn.yours");
  }

  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    [0, 0.18].forEach(function (start, index) {
      var tone = audio.createOscillator();
      var level = audio.createGain();
      tone.frequency.value = index ? 880 : 660;
      level.gain.setValueAtTime(0.0001, audio.currentTime + start);
      level.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + start + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + 0.16);
      tone.connect(level).connect(audio.destination);
      tone.start(audio.currentTime + start);
      tone.stop(audio.currentTime + start + 0.17);
    });
  }

  function inView(element) {  // already on screen: leave the page where the player's thumb expects it
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }

  function yourTurn() {
    var saved = settings();
    var target = prompt();
    if (target && !inView(target)) { target.scrollIntoView({behavior: reduced ? "auto" : "smooth", block: "start"}); }
    if (saved.buzz !== false && navigator.vibrate) { navigator.vibrate(reduced ? 150 : [120, 80, 120]); }
    if (saved.sound !== false) { chime(); }
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

  function keepAwake() {
    if (!("wakeLock" in navigator) || lock || document.visibilityState !== "visible" || !running()) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, not a secure page): the screen may sleep */ });
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
    var saved = settings();
    Array.prototype.forEach.call(document.querySelectorAll("[data-phone-setting]"), function (box) {
      var name = box.getAttribute("data-phone-setting");
      box.checked = saved[name] !== false;
      box.addEventListener("change", function () { remember(name, box.checked); });
    });
    keepAwake();
  });
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", function () {  // browsers allow sound only after the person touched the page
    var Context = window.AudioContext || window.webkitAudioContext;
    if (Context && !audio) { audio = new Context(); }
  }, {once: true});
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!document.querySelector(".seat-bar")) { return; }
    if (event.detail.target && event.detail.target.id === "live") { check(); keepAwake(); }
  });
})();
