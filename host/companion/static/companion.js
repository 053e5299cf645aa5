// The companion's pages: fill in the screen's JSON as text, keep it live over a WebSocket
// (reconnecting after a sleep or a lost network), and send the player's commands.
"use strict";
(function () {
  var body = document.body;
  var socket = null;
  var seen = { announcements: latest("announcements"), replies: latest("replies") };
  var epoch = null;  // the host's serving of the game: its numbered lines start again after a resume
  var timerEnd = null;

  function latest(id) {
    // the number of the last line the server wrote into the page: only newer ones are added
    var numbered = document.querySelectorAll("#" + id + " [data-n]");
    return numbered.length ? Number(numbered[numbered.length - 1].dataset.n) : 0;
  }

  function text(id, value) {
    var element = document.getElementById(id);
    if (element) element.textContent = value || "";
  }

  function list(id, items) {
    var element = document.getElementById(id);
    if (!element) return;
    element.replaceChildren.apply(element, (items || []).map(function (item) {
      var li = document.createElement("li");
      li.textContent = item;
      return li;
    }));
  }

  function append(id, items, key) {
    // items: [number, text] pairs; only those not shown yet are added (the live region reads them)
    var element = document.getElementById(id);
    if (!element) return;
    (items || []).forEach(function (item) {
      if (item[0] <= seen[key]) return;
      seen[key] = item[0];
      var line = document.createElement("p");
      line.textContent = item[1];
      element.appendChild(line);
    });
    while (element.children.length > 30) element.removeChild(element.firstChild);
  }

  function reply(message) {
    var element = document.getElementById("replies");
    if (!element) return;
    var line = document.createElement("p");
    line.textContent = message;
    element.appendChild(line);
  }

  function terms(items, can) {
    var element = document.getElementById("terms");
    if (!element) return;
    var verb = element.dataset.verb, label = element.dataset.button;
    var canErase = Boolean(verb) && can.indexOf(verb) >= 0;
    element.replaceChildren();
    (items || []).forEach(function (term) {
      var li = document.createElement("li");
      var span = document.createElement("span");
      span.textContent = term.term + (term.ticked ? " (ticked)" : " (not ticked)");
      li.appendChild(span);
      if (canErase) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = label + " " + term.term;
        button.addEventListener("click", function () { send(verb, term.term); });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(button);
      }
      element.appendChild(li);
    });
  }

  function showTimer() {
    if (timerEnd === null) { text("timer", ""); return; }
    var left = Math.max(0, Math.round((timerEnd - Date.now()) / 1000));
    text("timer", left + " seconds left in the story.");
  }

  function render(screen) {
    if (epoch !== null && screen.epoch !== epoch) seen = { announcements: 0, replies: 0 };
    epoch = screen.epoch;
    var can = screen.can || [];
    text("status", screen.status);
    text("todo", screen.todo);
    list("scores", screen.scores);
    list("details", screen.details);
    list("secrets", screen.secrets);
    terms(screen.terms, can);
    document.querySelectorAll("form[data-verb]").forEach(function (form) {
      form.hidden = can.indexOf(form.dataset.verb) < 0;
    });
    append("announcements", screen.announcements, "announcements");
    append("replies", screen.replies, "replies");
    timerEnd = typeof screen.timer_left === "number" ? Date.now() + screen.timer_left * 1000 : null;
    showTimer();
  }

  function send(verb, value) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      reply("Not connected to the host: wait a moment and try again.");
      return;
    }
    socket.send(JSON.stringify({ verb: verb, text: value }));
  }

  function gone(message) {
    var element = document.getElementById("connection");
    if (!element) return;
    var link = document.createElement("a");
    link.href = "/";
    link.textContent = "Open the join page";
    element.replaceChildren(document.createTextNode(message + " "), link);
  }

  function connect(delay) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + body.dataset.socket);
    socket.onopen = function () { delay = 500; text("connection", "Connected to the host."); };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (typeof message.reply === "string") reply(message.reply); else render(message);
    };
    socket.onclose = function (event) {
      if (event.code === 4001 || event.code === 4004) {  // a renewed link, or one that opens no seat: stop trying
        gone(event.code === 4001
          ? "This link no longer works: the laptop made a new link for this seat. To play on this phone, open the join page and enter the room code the laptop says."
          : "This link opens no seat in this game. To play, open the join page and enter the room code the laptop says.");
        return;
      }
      text("connection", "Connection to the host lost; trying again.");
      setTimeout(function () { connect(Math.min(delay * 2, 5000)); }, delay);
    };
  }

  document.querySelectorAll("form[data-verb]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var input = form.querySelector("input[name=text]");
      send(form.dataset.verb, input ? input.value : "");
      if (input && input.type !== "hidden") input.value = "";
    });
  });
  render(JSON.parse(document.getElementById("initial").textContent));
  setInterval(showTimer, 1000);
  text("connection", "Connecting.");
  connect(500);
})();
