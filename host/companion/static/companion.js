// The companion's pages: fill in the screen's JSON as text, keep it live over a WebSocket
// (reconnecting after a sleep or a lost network), and send the player's moves. What a screen
// shows is built here with the same elements as host/companion/pages.py writes into the page.
// Every sentence it writes is the page's, in the game's language: the screen's JSON words the
// counts, and the page gives its own sentences (the element #words, pages.SCRIPT_WORDS).
"use strict";
(function () {
  var body = document.body;
  var words = JSON.parse(document.getElementById("words").textContent);
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
      el("p", {}, [words.seconds_left[0], el("span", { "class": "seconds" }, [String(left)]), words.seconds_left[1]]),
      el("progress", { max: table.timer_of || left, value: left, "aria-hidden": "true" }),
    ]);
  }

  function meters(table) {
    if (!table.meters.length) return [];
    return [el("h3", {}, [table.meters_label]), el("ul", { "class": "meters" }, table.meters.map(function (meter) {
      return el("li", { "class": "meter" }, [
        el("span", { "class": "name" }, [meter.name]), " ",
        el("span", { "class": "count" }, [meter.counted]), " ",
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
        cells.push(tile.name === null ? el("td", { "class": "tile down" }, [words.face_down]) : el("td", { "class": "tile up" }, [tile.name]));
      });
      rows.push(el("tr", {}, cells));
    }
    return el("table", { "class": "grid" }, [
      el("caption", {}, [words.tiles]), el("thead", {}, [el("tr", {}, head)]), el("tbody", {}, rows),
    ]);
  }

  function told(face) {
    // a card told in words: its picture with the description as its text (the paragraph then
    // for the eyes only), and the description (pages._told)
    if (!face.picture) return [el("p", { "class": "text" }, [face.text])];
    return [
      el("img", { "class": "picture", src: body.dataset.pictures + face.picture, alt: face.text }),
      el("p", { "class": "text", "aria-hidden": "true" }, [face.text]),
    ];
  }

  function cards(table) {
    if (!table.cards.length) return [];
    return [el("h3", {}, [table.cards_label]), el("ol", { "class": "cards" }, table.cards.map(function (card) {
      var owner = card.owner ? el("span", { "class": "owner" }, [card.owner]) : null;
      var counted = card.said ? el("span", { "class": "votes" }, [card.said]) : null;
      if (card.face === null) return el("li", { "class": "card" }, [el("span", { "class": "number" }, [card.label]), owner, counted]);
      return el("li", { "class": "card told" }, [el("h4", { "class": "number" }, [card.label])]
        .concat(told(card.face), [owner, counted]));
    }))];
  }

  function game(table) {
    return [
      el("h2", { id: "game-heading" }, [table.heading]), el("p", { "class": "now" }, [table.now]),
      table.big ? el("div", { "class": "big" }, [el("h3", {}, [table.big_label]), el("p", { "class": "sentence" }, [table.big])]) : null,
      timer(table),
    ].concat(meters(table), [grid(table.grid)], cards(table),
      table.lines.length ? [el("ul", { "class": "lines" }, table.lines.map(function (line) { return el("li", {}, [line]); }))] : []
    ).filter(function (node) { return node !== null; });
  }

  function scores(list) {
    var ranked = list.slice().sort(function (a, b) { return b[1] - a[1]; });
    return [
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, [words.player]), el("th", { scope: "col" }, [words.points])])]),
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

  function hand(turn) {
    // each card of the hand, its moves under it (pages._hand)
    return turn.hand.map(function (card) {
      var buttons = [];
      turn.asks.forEach(function (move) {
        if (!move.on_hand) return;
        move.buttons.forEach(function (choice) { if (choice.value === card.value) buttons.push(button(move.verb, choice)); });
      });
      return el("li", { "class": "card told", "data-value": card.value }, [el("h3", {}, [card.face.title])].concat(told(card.face), [
        card.note ? el("p", { "class": "note" }, [card.note]) : null, el("div", { "class": "buttons" }, buttons),
      ]));
    });
  }

  function renderAsks(turn) {
    // drawn anew only when the moves or the hand change; the focused button and any text typed are kept
    var json = JSON.stringify([turn.asks, turn.hand]);
    if (json === shown.asks) return;
    shown.asks = json;
    var focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    var typed = {};
    document.querySelectorAll("#asks input[type=text]").forEach(function (input) { typed[input.id] = input.value; });
    fill("asks", turn.asks.filter(function (move) { return !move.on_hand; }).map(ask));
    fill("hand", hand(turn));
    var section = document.getElementById("hand-section");
    if (section) section.hidden = !turn.hand.length;
    Object.keys(typed).forEach(function (id) {
      var input = document.getElementById(id);
      if (input) input.value = typed[id];
    });
    if (focused) {
      var again = document.querySelector("#asks [data-key=\"" + CSS.escape(focused) + "\"], #hand [data-key=\"" + CSS.escape(focused) + "\"]");
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
      var yours = screen.turn.yours.length ? screen.turn.yours : [words.nothing_yours];
      fill("yours", yours.map(function (line) { return el("li", {}, [line]); }));
    }
    append("announcements", screen.announcements, "announcements");
    append("replies", screen.replies, "replies");
    showTimer();
  }

  function send(verb, value) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      reply(words.not_connected);
      return;
    }
    socket.send(JSON.stringify({ verb: verb, text: value }));
  }

  function gone(message) {
    var element = document.getElementById("connection");
    if (!element) return;
    var link = document.createElement("a");
    link.href = "/";
    link.textContent = words.open_join;
    element.replaceChildren(document.createTextNode(message + " "), link);
  }

  function connect(delay) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + body.dataset.socket);
    socket.onopen = function () { delay = 500; text("connection", words.connected); };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (typeof message.reply === "string") reply(message.reply); else render(message);
    };
    socket.onclose = function (event) {
      if (event.code === 4001 || event.code === 4004) {  // a renewed link, or one that opens no seat: stop trying
        gone(event.code === 4001 ? words.renewed : words.no_seat);
        return;
      }
      text("connection", words.lost);
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
  shown.asks = initial.turn ? JSON.stringify([initial.turn.asks, initial.turn.hand]) : null;  // the page holds them already
  render(initial);
  setInterval(showTimer, 1000);
  text("connection", words.connecting);
  connect(500);
})();
