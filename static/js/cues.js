/* Scare cues. After each new picture of the table, the log lines that are new here carry their cue (data-cue, from the
   rules' own words: app/games/cues.py): the TV board and the host page sound the table's, a phone its own (its seat in
   data-cue-seat, its turn from phone.js, its win or loss), and it buzzes where it can. The board reads the GM's lines
   out (data-say) after the screen shows them. Every sound is made here with Web Audio: nothing is fetched, and each
   one has its sentence on screen (the log line, and on a phone a caption). */
(function () {
  "use strict";
  var root = document.documentElement;
  var nightShift = window.nightShift = window.nightShift || {};
  var settings = nightShift.settings;
  var screen = nightShift.screen || "page";
  var SOUNDING = {phone: true, board: true, host: true};
  // Strongest first: when one picture brings several moments, the strongest one sounds.
  var RANK = ["dawn", "win", "loss", "golden-freddy", "foxy", "jason-attack", "jason", "attack", "turn", "roll"];
  var BUZZ = {dawn: [200, 100, 200, 100, 400], win: [100, 50, 100, 50, 300], loss: [700], "golden-freddy": [600],
              foxy: [80, 40, 80, 40, 80, 40, 300], "jason-attack": [400, 100, 400], jason: [100, 60, 100, 60, 100],
              attack: [300, 100, 300], turn: [120, 80, 120], roll: [40]};
  var audio = null;
  var pending = [];
  var seen = null;  // the newest log line this page has already cued
  var ended = false;  // whether the rules had said who won
  var lastSaid = "";
  nightShift.played = [];  // every sound this page made, for a test (or a curious person) to read

  if (!settings || !SOUNDING[screen]) { return; }

  function context() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      audio = new Context();
      if (audio.addEventListener) { audio.addEventListener("statechange", showState); }
    }
    return audio;
  }

  function audible() { return Boolean(settings.get("sound")) && Number(settings.get("volume")) > 0; }

  // A muted device says so in its header: sound off, or sound on but the browser waits for a first tap.
  function showState() {
    root.setAttribute("data-audio", !audible() ? "off" : audio && audio.state === "running" ? "on" : "locked");
  }

  // Browsers let a page make sound only after a person touched it: the first tap (joining, "Start the board", any
  // other) unlocks sound, and the board's voice with it.
  function unlock() {
    root.setAttribute("data-started", "");
    var sound = audible() ? context() : null;
    if (sound && sound.state === "suspended") { sound.resume().then(showState, showState); }
    showState();
  }

  // ---- the sounds ----------------------------------------------------------------------------------------------
  function tone(out, at, frequency, length, shape, level, glideTo) {
    var ctx = out.context;
    var wave = ctx.createOscillator();
    var gain = ctx.createGain();
    wave.type = shape || "sine";
    wave.frequency.setValueAtTime(frequency, at);
    if (glideTo) { wave.frequency.exponentialRampToValueAtTime(glideTo, at + length); }
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level || 0.3, at + Math.min(0.03, length / 4));
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    wave.connect(gain).connect(out);
    wave.start(at);
    wave.stop(at + length + 0.02);
  }

  function hiss(out, at, length, level, filter, frequency) {
    var ctx = out.context;
    var samples = Math.max(1, Math.floor(ctx.sampleRate * length));
    var buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
    var data = buffer.getChannelData(0);
    for (var i = 0; i < samples; i += 1) { data[i] = Math.random() * 2 - 1; }
    var source = ctx.createBufferSource();
    var shape = ctx.createBiquadFilter();
    var gain = ctx.createGain();
    source.buffer = buffer;
    shape.type = filter;
    shape.frequency.value = frequency;
    gain.gain.setValueAtTime(level, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    source.connect(shape).connect(gain).connect(out);
    source.start(at);
  }

  function bell(out, at, frequency) {
    [1, 2.01, 3.02].forEach(function (partial, index) {
      tone(out, at, frequency * partial, 1.4 - index * 0.3, "sine", 0.25 / (index + 1));
    });
  }

  var SOUNDS = {
    turn: function (out, t) { tone(out, t, 660, 0.16); tone(out, t + 0.18, 880, 0.16); },
    roll: function (out, t) {
      [0, 0.06, 0.13, 0.19, 0.28].forEach(function (at) { hiss(out, t + at, 0.03, 0.5, "bandpass", 2500); });
    },
    attack: function (out, t) { tone(out, t, 110, 0.4, "sawtooth", 0.35, 50); hiss(out, t, 0.25, 0.6, "lowpass", 900); },
    foxy: function (out, t) {
      for (var step = 0; step < 8; step += 1) { hiss(out, t + step * 0.09, 0.06, 0.8, "lowpass", 320); }
      tone(out, t + 0.2, 300, 0.6, "square", 0.12, 900);
    },
    "golden-freddy": function (out, t) {
      [98, 103.8, 146.8].forEach(function (frequency) { tone(out, t, frequency, 1.6, "sine", 0.22, frequency * 0.94); });
      hiss(out, t + 0.2, 1.2, 0.08, "bandpass", 400);
    },
    jason: function (out, t) {
      [0, 0.13, 0.26].forEach(function (at) { hiss(out, t + at, 0.08, 0.5, "highpass", 3000); });
      [0.45, 0.62, 0.79].forEach(function (at) { hiss(out, t + at, 0.12, 0.4, "bandpass", 900); });
    },
    "jason-attack": function (out, t) {
      SOUNDS.jason(out, t);
      tone(out, t + 0.9, 80, 0.5, "sawtooth", 0.4, 40);
      hiss(out, t + 0.9, 0.3, 0.7, "lowpass", 700);
    },
    dawn: function (out, t) {
      [0, 0.5, 1].forEach(function (at) { bell(out, t + at, 523.25); });
      [523.25, 659.25, 783.99, 1046.5].forEach(function (frequency, index) {
        tone(out, t + 1.6 + index * 0.12, frequency, 0.5, "triangle", 0.2);
      });
    },
    loss: function (out, t) {
      [392, 311.13, 261.63, 196].forEach(function (frequency, index) {
        tone(out, t + index * 0.25, frequency, 0.3, "sawtooth", 0.15);
      });
    },
    win: function (out, t) {
      [523.25, 659.25, 783.99, 1046.5].forEach(function (frequency, index) {
        tone(out, t + index * 0.15, frequency, index === 3 ? 0.7 : 0.2, "triangle", 0.25);
      });
    }
  };

  function sound(name) {
    var ctx = context();
    if (!ctx) { return; }
    if (ctx.state === "suspended") { ctx.resume().then(showState, showState); }
    var out = ctx.createGain();
    out.gain.value = Math.min(1, Number(settings.get("volume")) / 100);
    out.connect(ctx.destination);
    SOUNDS[name](out, ctx.currentTime + 0.02);
    nightShift.played.push(name);
  }

  // A cue's sentence, shown while it sounds: the log line a phone keeps far down the page.
  function caption(text) {
    var line = document.querySelector(".cue-line");
    if (!line) {
      line = document.createElement("p");
      line.className = "cue-line";
      line.setAttribute("role", "status");
      document.body.appendChild(line);
    }
    line.textContent = text;
    line.hidden = false;
    clearTimeout(line.timer);
    line.timer = setTimeout(function () { line.hidden = true; }, 8000);
  }

  function give(cue) {
    if (audible()) { sound(cue.sound); }
    if (screen === "phone" && settings.get("vibrate") && navigator.vibrate) {
      navigator.vibrate(settings.reducedMotion() ? 150 : BUZZ[cue.sound]);
    }
    if (cue.text && screen !== "board") { caption(cue.text); }
  }

  function flush() {
    var strongest = pending.sort(function (a, b) { return RANK.indexOf(a.sound) - RANK.indexOf(b.sound); })[0];
    pending = [];
    if (strongest) { give(strongest); }
  }

  // A moment for this screen: one picture's moments are gathered (phone.js adds the turn), then the strongest sounds.
  function cue(name, text) {
    if (RANK.indexOf(name) < 0) { return; }
    if (!pending.length) { setTimeout(flush, 0); }
    pending.push({sound: name, text: text || ""});
  }
  nightShift.cue = cue;

  // ---- the board's voice ---------------------------------------------------------------------------------------
  function say(text) {
    if (!text || !settings.get("voice") || !window.speechSynthesis || !window.SpeechSynthesisUtterance) { return; }
    lastSaid = text;
    var words = new window.SpeechSynthesisUtterance(text);
    words.lang = root.lang || "en";
    words.volume = Math.min(1, Number(settings.get("volume")) / 100);
    window.speechSynthesis.speak(words);
  }

  // ---- what a new picture brings ----------------------------------------------------------------------------------
  function lines(live) {
    return Array.prototype.slice.call(live.querySelectorAll(".log-entry[value]"));
  }

  function newest(live) {
    return lines(live).reduce(function (most, line) { return Math.max(most, line.value); }, 0);
  }

  function looked(live) {
    seen = newest(live);
    var state = live.querySelector(".live-state");
    ended = Boolean(state && state.hasAttribute("data-winners"));
    var spoken = live.querySelector(".log-entry[data-say]");
    lastSaid = spoken ? spoken.getAttribute("data-say") : "";
  }

  function heard(live) {
    var fresh = lines(live).filter(function (line) { return line.value > seen && !line.classList.contains("undone"); })
      .sort(function (a, b) { return a.value - b.value; });
    seen = Math.max(seen, newest(live));
    var state = live.querySelector(".live-state");
    var mine = state && state.getAttribute("data-seat");
    fresh.forEach(function (line) {
      var name = line.getAttribute("data-cue");
      var concerned = line.getAttribute("data-cue-seat");
      var text = line.querySelector(".log-text");
      if (name && (screen !== "phone" || (mine && concerned === mine))) { cue(name, text ? text.textContent : ""); }
    });
    var over = Boolean(state && state.hasAttribute("data-winners"));
    if (over && !ended) {
      var winners = state.getAttribute("data-winners").split(" ").filter(Boolean);
      if (screen !== "phone") { cue(winners.length ? "win" : "loss"); }
      if (screen === "phone" && mine) { cue(winners.indexOf(mine) >= 0 ? "win" : "loss"); }
    }
    ended = over;
    if (screen === "board") {  // read out after the picture (and its roll) is on screen
      fresh.filter(function (line) { return line.hasAttribute("data-say"); }).forEach(function (line) {
        var words = line.getAttribute("data-say");  // now: a later picture may morph this line into another
        setTimeout(function () { say(words); }, settings.reducedMotion() ? 300 : 800);
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var live = document.getElementById("live");
    if (live) { looked(live); }
    if (audible()) { context(); }  // running at once if this person tapped on the page before (joining)
    showState();
    Array.prototype.forEach.call(document.querySelectorAll("[data-start-board]"), function (button) {
      button.addEventListener("click", unlock);
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-say-again]"), function (button) {
      button.addEventListener("click", function () {
        if (window.speechSynthesis) { window.speechSynthesis.cancel(); }
        say(lastSaid);
      });
    });
  });
  document.addEventListener("pointerdown", unlock, {once: true});
  document.addEventListener("keydown", unlock, {once: true});
  document.addEventListener("nightshift:settings", function (event) {
    if (event.detail.name === "sound" || event.detail.name === "volume") { unlock(); }  // a tap, and a new state
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var live = event.detail.target;
    if (live && live.id === "live" && seen !== null) { heard(live); }
  });
})();
