// The companion's pages: fill in the screen's JSON as text, keep it live over a WebSocket
// (reconnecting after a sleep or a lost network), and send the player's moves. What a screen
// shows is built here with the same elements as host/companion/pages.py writes into the page.
"use strict";
(function () {
  var body = document.body;
  var socket = null;
  var seen = { announcements: latest("announcements"), replies: latest("replies") };
  var epoch = null;  // the host's serving of the game: its numbered lines start again after a resume
  var timerEnd = null;
  var shown = { game: null, asks: null, scores: null };
  var MOST_DOTS = 12;  // as pages.MOST_DOTS

  function latest(id) {
    // the number of the last line the server wrote into the page: only newer ones are added
    var numbered = document.querySelectorAll("#" + id + " [data-n]");
    return numbered.length ? Number(numbered[numbered.length - 1].dataset.n) : 0;
  }

  function text(id, value) {
    var element = document.getElementById(id);
    if (element) element.textContent = value || "";
  }

  function el(tag, attributes, children) {
    // an element with attributes and children (strings become text, never HTML)
    var element = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) {
      if (child !== null) element.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return element;
  }

  function fill(id, children) {
    var element = document.getElementById(id);
    if (element) element.replaceChildren.apply(element, children);
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

  // --- the table's view (pages._game) ---

  function count(value, of) {
    if (of <= MOST_DOTS) {
      var dots = [];
      for (var index = 0; index < of; index++) dots.push(el("span", { "class": index < value ? "dot on" : "dot" }));
      return el("span", { "class": "dots", "aria-hidden": "true" }, dots);
    }
    return el("progress", { max: of, value: value, "aria-hidden": "true" });
  }

  function secondsLeft() {
    return timerEnd === null ? null : Math.max(0, Math.round((timerEnd - Date.now()) / 1000));
  }

  function timer(table) {
    var left = secondsLeft();
    if (left === null) return null;
    return el("div", { "class": "timer" }, [
      el("p", {}, [el("span", { "class": "seconds" }, [String(left)]), " seconds left"]),
      el("progress", { max: table.timer_of || left, value: left, "aria-hidden": "true" }),
    ]);
  }

  function meters(table) {
    if (!table.meters.length) return [];
    return [el("h3", {}, [table.meters_label]), el("ul", { "class": "meters" }, table.meters.map(function (meter) {
      return el("li", { "class": "meter" }, [
        el("span", { "class": "name" }, [meter.name]), " ",
        el("span", { "class": "count" }, [meter.count + " of " + meter.of + " " + meter.unit]), " ",
        count(meter.count, meter.of),
        meter.note ? " " : null, meter.note ? el("span", { "class": "note" }, [meter.note]) : null,
      ]);
    }))];
  }

  function grid(tiles) {
    if (!tiles) return null;
    var head = [el("td")], rows = [];
    for (var column = 0; column < tiles.columns; column++) {
      head.push(el("th", { scope: "col" }, [tiles.tiles[column].place.slice(0, 1)]));
    }
    for (var row = 0; row < tiles.rows; row++) {
      var cells = [el("th", { scope: "row" }, [String(row + 1)])];
      tiles.tiles.slice(row * tiles.columns, (row + 1) * tiles.columns).forEach(function (tile) {
        cells.push(tile.name === null ? el("td", { "class": "tile down" }, ["face down"]) : el("td", { "class": "tile up" }, [tile.name]));
      });
      rows.push(el("tr", {}, cells));
    }
    return el("table", { "class": "grid" }, [
      el("caption", {}, ["The tiles"]), el("thead", {}, [el("tr", {}, head)]), el("tbody", {}, rows),
    ]);
  }

  function cards(list) {
    if (!list.length) return [];
    return [el("h3", {}, ["The cards and their votes"]), el("ol", { "class": "cards" }, list.map(function (card) {
      var said = card.votes.length ? card.votes.length + " vote" + (card.votes.length === 1 ? "" : "s") + ": " + card.votes.join(", ") : "no vote";
      return el("li", { "class": "card" }, [
        el("span", { "class": "number" }, ["Card " + card.number]),
        card.owner ? el("span", { "class": "owner" }, [card.owner]) : null,
        el("span", { "class": "votes" }, [said]),
      ]);
    }))];
  }

  function game(table) {
    return [
      el("h2", { id: "game-heading" }, [table.heading]), el("p", { "class": "now" }, [table.now]),
      table.big ? el("div", { "class": "big" }, [el("h3", {}, [table.big_label]), el("p", { "class": "sentence" }, [table.big])]) : null,
      timer(table),
    ].concat(meters(table), [grid(table.grid)], cards(table.cards),
      table.lines.length ? [el("ul", { "class": "lines" }, table.lines.map(function (line) { return el("li", {}, [line]); }))] : []
    ).filter(function (node) { return node !== null; });
  }

  function scores(list) {
    var ranked = list.slice().sort(function (a, b) { return b[1] - a[1]; });
    return [
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, ["Player"]), el("th", { scope: "col" }, ["Points"])])]),
      el("tbody", {}, ranked.map(function (entry) {
        return el("tr", {}, [el("th", { scope: "row" }, [entry[0]]), el("td", {}, [String(entry[1])])]);
      })),
    ];
  }

  // --- a player's moves (pages._asks) ---

  function button(verb, choice) {
    if (!choice.pressable) return el("span", { "class": "cell" }, [choice.text]);
    var attributes = { type: "submit", "data-key": verb + " " + choice.value };
    if (choice.name) attributes["aria-label"] = choice.name;
    if (choice.chosen) attributes["class"] = "chosen";
    return el("form", { method: "post", action: body.dataset.send, "data-verb": verb }, [
      el("input", { type: "hidden", name: "verb", value: verb }),
      el("input", { type: "hidden", name: "text", value: choice.value }),
      el("button", attributes, [choice.text, choice.chosen ? el("span", { "class": "mark" }, [" ✓"]) : null]),
    ]);
  }

  function ask(move, index) {
    if (move.field) {
      return el("form", { "class": "ask", method: "post", action: body.dataset.send, "data-verb": move.verb }, [
        el("input", { type: "hidden", name: "verb", value: move.verb }),
        el("label", { "for": move.verb + "-text" }, [move.prompt]),
        el("input", { id: move.verb + "-text", name: "text", type: "text", maxlength: "200", autocomplete: "off", required: "" }),
        el("button", { type: "submit", "data-key": move.verb }, [move.buttons[0].text]),
      ]);
    }
    var layout = move.large ? " large" : move.columns ? " tiles cols-" + move.columns : "";
    return el("div", { "class": "ask", role: "group", "aria-labelledby": "ask-" + index }, [
      el("p", { id: "ask-" + index, "class": "prompt" }, [move.prompt]),
      el("div", { "class": "buttons" + layout }, move.buttons.map(function (choice) { return button(move.verb, choice); })),
    ]);
  }

  function renderAsks(turn) {
    // drawn anew only when the moves change; the focused button and any text typed are kept
    var json = JSON.stringify(turn.asks);
    if (json === shown.asks) return;
    shown.asks = json;
    var focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    var typed = {};
    document.querySelectorAll("#asks input[type=text]").forEach(function (input) { typed[input.id] = input.value; });
    fill("asks", turn.asks.map(ask));
    Object.keys(typed).forEach(function (id) {
      var input = document.getElementById(id);
      if (input) input.value = typed[id];
    });
    if (focused) {
      var again = document.querySelector("#asks [data-key=\"" + CSS.escape(focused) + "\"]");
      if (again) again.focus();
    }
  }

  function showTimer() {
    var left = secondsLeft();
    var seconds = document.querySelector("#game .timer .seconds");
    var bar = document.querySelector("#game .timer progress");
    if (left === null || !seconds) return;
    seconds.textContent = String(left);
    bar.value = left;
  }

  function render(screen) {
    if (epoch !== null && screen.epoch !== epoch) seen = { announcements: 0, replies: 0 };  // resumed: numbers start again
    epoch = screen.epoch;
    timerEnd = typeof screen.timer_left === "number" ? Date.now() + screen.timer_left * 1000 : null;
    if (!screen.table) return;  // the page was served before the game was shown a first time
    var gameJson = JSON.stringify(screen.table) + (timerEnd === null ? "" : " timed");
    if (gameJson !== shown.game) {
      shown.game = gameJson;
      fill("game", game(screen.table));
    }
    var scoresJson = JSON.stringify(screen.scores);
    if (scoresJson !== shown.scores) {
      shown.scores = scoresJson;
      fill("scores", scores(screen.scores));
    }
    if (screen.turn) {
      text("todo", screen.turn.now);
      renderAsks(screen.turn);
      var yours = screen.turn.yours.length ? screen.turn.yours : ["Nothing secret for you right now."];  // pages.NOTHING_YOURS
      fill("yours", yours.map(function (line) { return el("li", {}, [line]); }));
    }
    append("announcements", screen.announcements, "announcements");
    append("replies", screen.replies, "replies");
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

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset || !form.dataset.verb) return;
    event.preventDefault();
    var input = form.querySelector("input[name=text]");
    send(form.dataset.verb, input ? input.value : "");
    if (input && input.type !== "hidden") input.value = "";
  });
  var initial = JSON.parse(document.getElementById("initial").textContent);
  shown.asks = initial.turn ? JSON.stringify(initial.turn.asks) : null;  // the page holds them already
  render(initial);
  setInterval(showTimer, 1000);
  text("connection", "Connecting.");
  connect(500);
})();
