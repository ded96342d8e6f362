/* Night Shift's only script: says whether this screen hears the table (polling while it doesn't), notices a stream
   that went silent, and keeps what a player is in the middle of (a half-typed value, an open panel) when someone
   else's move refreshes the screen. The server pushes each screen's live region down its event stream. */
(function () {
  "use strict";
  var POLL_MS = 5000;
  var timer = null;
  var typedInto = new WeakSet();  // fields this person changed and hasn't sent yet
  var STALE_MESSAGE_MS = 5000;
  var shownAt = 0;  // when the message line last showed a refusal
  var source = null;  // the page's event stream
  var heardAt = 0;  // when it last said anything (a region or a heartbeat)

  function poll() {
    if (window.htmx) { window.htmx.trigger(document.body, "poll"); }
  }

  function setLive(on) {
    document.body.setAttribute("data-live", on ? "on" : "off");
    if (on && timer) { clearInterval(timer); timer = null; }
    if (!on && !timer) { timer = setInterval(poll, POLL_MS); }
  }

  // What this screen shows, read from the region itself (see shown() below).
  function showing() {
    return shown(document.getElementById("live"));
  }

  // Every (re)connection asks for the picture this screen shows now, so the server sends a newer one at once, or
  // nothing. htmx's SSE extension calls this to open the stream, and again to reopen it.
  function heard() { heardAt = Date.now(); }
  if (window.htmx) {
    window.htmx.createEventSource = function (url) {
      var state = showing();
      if (state) {
        url = url.replace(/([?&])v=[^&]*/, "$1v=" + encodeURIComponent(state.version))
                 .replace(/([?&])p=[^&]*/, "$1p=" + encodeURIComponent(state.presence));
      }
      var stream = new EventSource(url, {withCredentials: true});
      source = stream;
      heard();
      ["open", "beat", "live"].forEach(function (name) { stream.addEventListener(name, heard); });
      // The table is gone, or the host freed this seat: the page itself says what happened.
      stream.addEventListener("gone", function (event) {
        stream.close();
        if (event.data && event.data.charAt(0) === "/") { window.location.assign(event.data); } else { window.location.reload(); }
      });
      return stream;
    };
  }

  // A stream that says nothing for two heartbeats is down even if the connection looks open (a Wi-Fi that dropped
  // often leaves it so): say "Reconnecting", close it and open a new one, which catches up at once.
  function watchBeats(beatMs) {
    setInterval(function () {
      var stream = source;
      if (!stream || stream.readyState !== 1 || Date.now() - heardAt <= 2 * beatMs) { return; }
      source = null;
      setLive(false);
      stream.close();
      if (stream.onerror) { stream.onerror(new Event("error")); }  // the extension reopens a closed stream
    }, Math.max(250, beatMs / 4));
  }

  document.addEventListener("htmx:sseOpen", function () { heard(); setLive(true); });
  document.addEventListener("htmx:sseError", function () { setLive(false); });
  document.addEventListener("htmx:sseClose", function () { setLive(false); });
  document.addEventListener("DOMContentLoaded", function () {
    var wrap = document.querySelector("[sse-connect]");
    if (!wrap) { return; }
    if (!window.EventSource) { setLive(false); }  // no streaming at all: polling keeps the screen current
    var beat = parseFloat(wrap.getAttribute("data-beat"));
    if (beat > 0) { watchBeats(beat * 1000); }
    if (window.Idiomorph) {
      // A refresh must not close what the person opened or wipe what they are typing.
      window.Idiomorph.defaults.ignoreActiveValue = true;
      window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, element, change) {
        if (name === "open" && element.tagName === "DETAILS") { return false; }
        if (name === "value" && typedInto.has(element)) { return false; }
        return true;
      };
      // A refusal beside a control, or a tap's "Not sent yet" mark, is the page's own note, not the server's:
      // a refresh must not wipe it.
      window.Idiomorph.defaults.callbacks.beforeNodeRemoved = function (node) {
        return !(node.classList && (node.classList.contains("refusal") || node.classList.contains("tap-status")));
      };
    }
  });

  document.addEventListener("input", function (event) { typedInto.add(event.target); });

  // The form a request came from: htmx's element is the form itself, or a button with its own hx-post inside a group's
  // form (one form for a counter's steps: each button posts its own value).
  function formOf(elt) {
    if (!elt) { return null; }
    return elt.tagName === "FORM" ? elt : (elt.form || null);
  }

  // A pushed region is drawn once for many screens, so its forms carry an empty CSRF field; the page's own token
  // (also sent as a header with every htmx request) fills it as the form leaves, before htmx or the browser read it.
  document.addEventListener("submit", function (event) {
    var field = event.target && event.target.querySelector && event.target.querySelector("input[name=csrf_token]");
    if (!field || field.value) { return; }
    try {
      field.value = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) { /* no token on this page: the server says the form went stale */ }
  }, true);

  // A form that was just sent successfully starts empty again, and an old refusal goes away.
  // (Cleared here rather than by an out-of-band swap: that would make htmx replace the region instead of morphing
  // it, dropping taps queued on its buttons.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = formOf(event.detail.requestConfig && event.detail.requestConfig.elt);
    if (!form || !event.detail.xhr || event.detail.xhr.status >= 300) { return; }
    Array.prototype.forEach.call(form.elements, function (field) { typedInto.delete(field); });
    if (form.contains(document.activeElement)) { document.activeElement.blur(); }
    var flash = document.getElementById("flash");
    if (flash) { flash.textContent = ""; shownAt = 0; }
  });

  // A refresh says which picture this screen shows, read when it leaves (not kept in #live's attributes: htmx would
  // re-initialise #live on every change and forget the refresh queued behind the one in flight).
  function shown(live) {
    var state = live && live.querySelector(".live-state");
    return state ? {version: state.getAttribute("data-version"), presence: state.getAttribute("data-presence")} : null;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var live = event.detail.elt;
    var state = live && live.id === "live" && event.detail.verb === "get" ? shown(live) : null;
    if (!state) { return; }
    event.detail.parameters.v = state.version;
    event.detail.parameters.p = state.presence;
  });

  // Answers can cross on a slow network: an older picture of the table never replaces a newer one. (Every move raises
  // the version, undo included; a refresh for seats coming and going keeps it, so an equal version still swaps.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = document.getElementById("live");
    var state = event.detail.target === live && event.detail.shouldSwap ? shown(live) : null;
    if (!state) { return; }
    var incoming = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (incoming && Number(incoming[1]) < Number(state.version)) {
      event.detail.shouldSwap = false;
    }
  });

  // Play again: when the table on screen continues at a new one while this page is open, go along (the next page hands
  // this phone its seat there). A finished table opened later stays readable: only a newly appeared link is followed.
  var nextAtLoad = null;
  document.addEventListener("DOMContentLoaded", function () {
    var state = document.querySelector("#live .live-state");
    nextAtLoad = state ? state.getAttribute("data-next") : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var state = document.querySelector("#live .live-state");
    var next = state && state.getAttribute("data-next");
    if (next && !nextAtLoad) { nextAtLoad = next; window.location.assign(next); }
  });

  // A refused tap answers where the finger is: the rules' sentence goes right after the form that was sent (and is
  // read out), not into the message line at the top of the page. The table is unchanged, so nothing else moves.
  function clearRefusals() {
    Array.prototype.forEach.call(document.querySelectorAll("#live .refusal"), function (note) { note.remove(); });
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var form = formOf(config && config.elt);
    var xhr = event.detail.xhr;
    if (!form || !form.isConnected || !form.closest("#live") || !xhr) { return; }
    if (xhr.status < 400 || xhr.status >= 500) { return; }
    var text = new DOMParser().parseFromString(xhr.responseText || "", "text/html").body.textContent.trim();
    if (!text) { return; }
    event.detail.shouldSwap = false;
    clearRefusals();
    var note = document.createElement("p");
    note.className = "refusal";
    note.setAttribute("role", "alert");
    note.textContent = text;
    form.insertAdjacentElement("afterend", note);
    note.scrollIntoView({block: "nearest"});
    shownAt = Date.now();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "post") { clearRefusals(); }
  });

  // The same guard for pictures pushed down the stream; a picture equal to the one shown is not swapped at all.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var state = event.target && event.target.id === "live" ? showing() : null;
    if (!state) { return; }
    var incoming = /data-version="(\d+)" data-presence="([^"]*)"/.exec(event.detail.data || "");
    if (!incoming) { return; }
    var older = Number(incoming[1]) < Number(state.version);
    var same = incoming[1] === state.version && incoming[2] === state.presence;
    if (older || same) { event.preventDefault(); }
  });

  document.addEventListener("htmx:sseMessage", function (event) {
    var flash = document.getElementById("flash");
    if (event.target && event.target.id === "live" && flash && shownAt && Date.now() - shownAt > STALE_MESSAGE_MS) {
      flash.textContent = "";
      shownAt = 0;
    }
    // A pushed picture is a swap like a fetched one for every other script (phone.js buzzes on a turn that starts).
    if (event.target && event.target.id === "live" && window.htmx) {
      window.htmx.trigger(event.target, "htmx:afterSwap", {target: event.target, elt: event.target});
    }
    // A pushed picture may carry the next table's link too (play again): go along, as after a fetched one.
    var state = document.querySelector("#live .live-state");
    var next = state && state.getAttribute("data-next");
    if (next && !nextAtLoad) { nextAtLoad = next; window.location.assign(next); }
  });

  // A refusal stays on screen until the person acts again, or until the table has moved on for a few seconds.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    var flash = document.getElementById("flash");
    if (!target || !flash) { return; }
    if (target.id === "flash") { shownAt = Date.now(); return; }
    var refresh = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
    if (target.id === "live" && refresh && shownAt && Date.now() - shownAt > STALE_MESSAGE_MS) {
      flash.textContent = "";
      clearRefusals();
      shownAt = 0;
    }
  });

  // ---- Every tap counts exactly once -----------------------------------------------------------------------------
  // Each tap leaves with a fresh key (idempotency_key); the server answers a repeat of a key with what the first one
  // did. A tap that can't get through (a Wi-Fi blip, a server restart) waits in the outbox and is sent again with the
  // same key, backing off, and says so next to the control: "Not sent yet, retrying…" then "Sent". Taps made while
  // one waits queue behind it, so they still arrive in the order they were made. A tap that can't get through for a
  // minute says so and keeps a "Send again" button: it is never dropped without a word.
  var KEY_FIELD = "idempotency_key";
  var RETRY_FOR_MS = window.nightshiftRetryForMs || 60000;  // a restart takes seconds; past a minute the person decides
  var BACKOFF_MS = [250, 500, 1000, 2000, 3000];
  var RETRY_STATUSES = [0, 502, 503, 504];  // no answer, or a proxy/database saying "not now": nothing was applied
  var outbox = [];  // taps not through yet, oldest first
  var sending = false;
  var retryTimer = null;
  var lastStatus = null;

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // works on a LAN address over plain http, unlike crypto.randomUUID
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function isTap(config) {
    var form = formOf(config && config.elt);
    return !!form && config.verb === "post" && !!form.closest("#live");
  }

  function courier() {
    // The element retries are sent from: outside #live (never morphed away), inside .live-wrap (its extensions).
    var wrap = document.querySelector(".live-wrap");
    var box = wrap && wrap.querySelector(".outbox");
    if (wrap && !box) {
      box = document.createElement("div");
      box.className = "outbox";
      box.hidden = true;
      wrap.appendChild(box);
    }
    return box;
  }

  function say(tap, text, offerRetry) {
    // Next to the tapped control while it is on the page; on the message line once a refresh has replaced it.
    var spot = tap.form.isConnected ? tap.form : null;
    if (!tap.status || !tap.status.isConnected) {
      tap.status = document.createElement("span");
      tap.status.className = "tap-status";
      tap.status.setAttribute("role", "status");
      if (spot) {
        // A finished tap's "Sent" beside the same control makes way for this one: one word per control, never two.
        var earlier = spot.nextElementSibling;
        while (earlier && earlier.classList.contains("tap-status")) {
          var after = earlier.nextElementSibling;
          if (earlier.classList.contains("tap-done")) { earlier.remove(); }
          earlier = after;
        }
        spot.insertAdjacentElement("afterend", tap.status);
      } else {
        var flash = document.getElementById("flash");
        if (flash) { flash.appendChild(tap.status); }
      }
    }
    tap.status.textContent = text;
    tap.status.classList.toggle("tap-stuck", !!offerRetry);
    if (offerRetry) {
      var again = document.createElement("button");
      again.type = "button";
      again.className = "small";
      again.textContent = "Send again";
      again.addEventListener("click", function () { retry(tap); });
      tap.status.appendChild(document.createTextNode(" "));
      tap.status.appendChild(again);
    }
  }

  function retry(tap) {
    tap.started = Date.now();
    tap.tries = 0;
    tap.stuck = false;
    say(tap, "Not sent yet, retrying…");
    send();
  }

  function done(tap, text) {
    if (!tap.status) { return; }
    if (!text) { tap.status.remove(); return; }
    tap.status.textContent = text;
    tap.status.classList.remove("tap-stuck");
    tap.status.classList.add("tap-done");
    var status = tap.status;
    setTimeout(function () { status.remove(); }, 3000);
  }

  function hold(config, failed) {
    var values = {};
    config.formData.forEach(function (value, name) {
      if (Object.prototype.hasOwnProperty.call(values, name)) {
        values[name] = [].concat(values[name], value);
      } else {
        values[name] = value;
      }
    });
    var tap = {form: formOf(config.elt), path: config.path, values: values, failed: failed, tries: 0, started: Date.now()};
    outbox.push(tap);
    say(tap, failed ? "Not sent yet, retrying…" : "Waiting to send…");
  }

  function later() {
    var tap = outbox[0];
    if (sending || retryTimer || tap.stuck) { return; }  // already scheduled
    if (Date.now() - tap.started > RETRY_FOR_MS) {
      tap.stuck = true;
      say(tap, "Not sent: Night Shift can't be reached. Check the Wi-Fi, then", true);
      return;
    }
    say(tap, "Not sent yet, retrying…");
    retryTimer = setTimeout(function () { retryTimer = null; send(); }, BACKOFF_MS[Math.min(tap.tries, BACKOFF_MS.length - 1)]);
    tap.tries += 1;
  }

  function send() {
    if (sending || !outbox.length || !window.htmx) { return; }
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    var tap = outbox[0];
    sending = true;
    lastStatus = null;
    var settle = function () {
      sending = false;
      if (lastStatus !== null && RETRY_STATUSES.indexOf(lastStatus) < 0) {
        outbox.shift();
        done(tap, lastStatus < 400 && (tap.failed || tap.tries) ? "Sent" : "");  // a refusal shows on the message line
        send();
      } else {
        tap.failed = true;
        later();
      }
    };
    window.htmx.ajax("POST", tap.path, {source: courier(), target: "#live", swap: "morph", values: tap.values})
      .then(settle, settle);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (isTap(event.detail) && event.detail.triggeringEvent) {
      event.detail.parameters[KEY_FIELD] = newKey();  // a person's tap; a retry keeps the key it first left with
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (outbox.length && isTap(config) && config.triggeringEvent) {
      event.preventDefault();  // an earlier tap is still waiting: this one goes after it, in order
      hold(config, false);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    if (config && config.elt && config.elt.classList.contains("outbox")) {
      lastStatus = event.detail.xhr ? event.detail.xhr.status : 0;
    } else if (isTap(config) && config.triggeringEvent && event.detail.xhr &&
               RETRY_STATUSES.indexOf(event.detail.xhr.status) >= 0) {
      hold(config, true);  // the network failed or the server was restarting: nothing was applied twice, try again
      later();
    }
  });

  // The stream is back: the server is up again, so a waiting tap goes now instead of at its next backoff.
  document.addEventListener("htmx:sseOpen", function () {
    if (outbox.length && !sending) { retry(outbox[0]); }
  });
})();
