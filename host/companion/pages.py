"""The companion's HTML pages: semantic, labelled, self-contained (no external resource).

Every page is whole without JavaScript: the game as it is now is written into the HTML, and a
player's moves are plain forms posted to the server, which then shows the page again. Every name
and term is escaped here. static/companion.js keeps a page live: it builds the same elements from
the screen's JSON (embedded in the page too), its text set as text (never parsed as HTML), and
sends the forms over the WebSocket instead. The table page is made for a TV across the room
(companion.css lays it out large at 1920x1080); a player's page for their phone.

Every word is in the game's language (`lang` on the page): the sentences here are marked for the
catalog, and those the script writes itself are given to it translated (`SCRIPT_WORDS`, in the
page), so that it keeps no sentence of its own.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from games.language import N_, _

HEAD = """<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/companion.css">
</head>
"""
#: without JavaScript a page shows the game as it was when loaded (no timed refresh, which would
#: pull a screen reader back to the top): this link shows it anew
AGAIN = N_("Show the game as it is now")
#: "Yours alone" when the player knows nothing the others do not
NOTHING_YOURS = N_("Nothing secret for you right now.")
FACE_DOWN = N_("face down")
TILES = N_("The tiles")
PLAYER, POINTS = N_("Player"), N_("Points")
THE_GAME, SCORES, ANNOUNCEMENTS = N_("The game"), N_("Scores"), N_("Announcements")
EVERY_SEAT_TAKEN, JOINED, TABLE_PAGE = N_("Every seat is taken."), N_("Joined"), N_("The table page")
OPEN_JOIN = N_("Open the join page")
#: the timer's sentence, its number drawn apart (the script counts it down)
SECONDS_LEFT = N_("{seconds} seconds left")
#: the sentences companion.js writes itself, by the name it knows them by
SCRIPT_WORDS = {
    "face_down": FACE_DOWN, "tiles": TILES, "player": PLAYER, "points": POINTS, "nothing_yours": NOTHING_YOURS,
    "open_join": OPEN_JOIN,
    "not_connected": N_("Not connected to the host: wait a moment and try again."),
    "renewed": N_("This link no longer works: the laptop made a new link for this seat. To play on this phone,"
                  " open the join page and enter the room code the laptop says."),
    "no_seat": N_("This link opens no seat in this game. To play, open the join page and enter the room code the laptop says."),
    "lost": N_("Connection to the host lost; trying again."),
    "connected": N_("Connected to the host."),
    "connecting": N_("Connecting."),
}


def _head(title: str, language: str) -> str:
    return HEAD.format(title=title, language=escape(language))


def _again(link: str) -> str:
    return f'<p><a href="{escape(link)}">{_escaped(AGAIN)}</a></p>'


def _escaped(message: str) -> str:
    """A marked constant, translated, as HTML text."""
    return escape(_(message))


def _seconds_left() -> tuple[str, str]:
    """The timer's sentence before and after its number."""
    before, _field, after = _(SECONDS_LEFT).partition("{seconds}")
    return before, after


def _items(lines: Iterable[str]) -> str:
    return "".join(f"<li>{escape(line)}</li>" for line in lines)


def _numbered(lines: Iterable[Sequence[Any]]) -> str:
    """Announcements or replies, each with its number, so that the script adds only newer ones."""
    return "".join(f'<p data-n="{int(number)}">{escape(str(line))}</p>' for number, line in lines)


#: up to this many, a count is shown as dots (a ● for each counted, a ○ for each not); more as a bar
MOST_DOTS = 12


def _count(count: int, of: int) -> str:
    """A count out of a whole drawn as dots or a bar, beside its words (hidden from screen readers)."""
    if of <= MOST_DOTS:
        dots = "".join('<span class="dot on"></span>' if index < count else '<span class="dot"></span>' for index in range(of))
        return f'<span class="dots" aria-hidden="true">{dots}</span>'
    return f'<progress max="{int(of)}" value="{int(count)}" aria-hidden="true"></progress>'


def _timer(table: dict[str, Any], left: Any) -> str:
    if left is None:
        return ""
    whole = table.get("timer_of") or int(left)
    bar = f'<progress max="{int(whole)}" value="{round(left)}" aria-hidden="true"></progress>'
    before, after = _seconds_left()
    return f'<div class="timer"><p>{escape(before)}<span class="seconds">{round(left)}</span>{escape(after)}</p>{bar}</div>'


def _meters(table: dict[str, Any]) -> str:
    if not table["meters"]:
        return ""
    items = "".join(
        f'<li class="meter"><span class="name">{escape(meter["name"])}</span> '
        f'<span class="count">{escape(meter["counted"])}</span> '
        f'{_count(meter["count"], meter["of"])}'
        + (f' <span class="note">{escape(meter["note"])}</span>' if meter["note"] else "") + "</li>"
        for meter in table["meters"]
    )
    return f'<h3>{escape(table["meters_label"])}</h3><ul class="meters">{items}</ul>'


def _grid(grid: dict[str, Any] | None) -> str:
    """The tiles as a table: columns A, B, ..., rows 1, 2, ...; a face-up tile by its name."""
    if grid is None:
        return ""
    tiles = grid["tiles"]
    columns = [tile["place"][:1] for tile in tiles[: grid["columns"]]]
    head = "".join(f'<th scope="col">{escape(column)}</th>' for column in columns)
    rows = ""
    for row in range(grid["rows"]):
        cells = tiles[row * grid["columns"]:(row + 1) * grid["columns"]]
        rows += f'<tr><th scope="row">{row + 1}</th>' + "".join(
            f'<td class="tile down">{_escaped(FACE_DOWN)}</td>' if tile["name"] is None else f'<td class="tile up">{escape(tile["name"])}</td>'
            for tile in cells
        ) + "</tr>"
    return (f'<table class="grid"><caption>{_escaped(TILES)}</caption><thead><tr><td></td>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def _told(face: dict[str, Any], pictures: str) -> str:
    """What a card told in words shows under its heading: its picture, whose alternative text is
    the description (then the description's paragraph is for the eyes only, so that a screen
    reader says it once), and the description."""
    if not face["picture"]:
        return f'<p class="text">{escape(face["text"])}</p>'
    source = escape(pictures + face["picture"])
    return (f'<img class="picture" src="{source}" alt="{escape(face["text"])}">'
            f'<p class="text" aria-hidden="true">{escape(face["text"])}</p>')


def _cards(table: dict[str, Any], pictures: str) -> str:
    """The cards laid out, each told in words when it is, with their votes (revealed) and whose
    they are once known (`screens` words their labels and votes)."""
    cards = table["cards"]
    if not cards:
        return ""
    items = ""
    for card in cards:
        face = card["face"]
        owner = f'<span class="owner">{escape(card["owner"])}</span>' if card["owner"] else ""
        votes_shown = f'<span class="votes">{escape(card["said"])}</span>' if card["said"] else ""
        if face is None:
            items += f'<li class="card"><span class="number">{escape(card["label"])}</span>{owner}{votes_shown}</li>'
        else:
            items += (f'<li class="card told"><h4 class="number">{escape(card["label"])}</h4>'
                      f'{_told(face, pictures)}{owner}{votes_shown}</li>')
    return f'<h3>{escape(table["cards_label"])}</h3><ol class="cards">{items}</ol>'


def _game(table: dict[str, Any] | None, left: Any, pictures: str) -> str:
    """The table's view: the inside of the element #game, as companion.js renders it too (only its
    heading before the session has shown the game a first time). `pictures`: the address the
    cards' pictures are served under, for this page."""
    if table is None:
        return f'<h2 id="game-heading">{_escaped(THE_GAME)}</h2>'
    big = (f'<div class="big"><h3>{escape(table["big_label"])}</h3><p class="sentence">{escape(table["big"])}</p></div>'
           if table["big"] else "")
    lines = f'<ul class="lines">{_items(table["lines"])}</ul>' if table["lines"] else ""
    return (f'<h2 id="game-heading">{escape(table["heading"])}</h2><p class="now">{escape(table["now"])}</p>'
            f'{big}{_timer(table, left)}{_meters(table)}{_grid(table["grid"])}{_cards(table, pictures)}{lines}')


def _scores(scores: list[list[Any]]) -> str:
    """The scoreboard: the most points first (seat order among equals)."""
    ranked = sorted(scores, key=lambda entry: -entry[1])
    rows = "".join(f'<tr><th scope="row">{escape(str(name))}</th><td>{int(points)}</td></tr>' for name, points in ranked)
    return (f'<thead><tr><th scope="col">{_escaped(PLAYER)}</th><th scope="col">{_escaped(POINTS)}</th></tr></thead>'
            f'<tbody>{rows}</tbody>')


def _shared(screen: dict[str, Any], pictures: str) -> str:
    """The game as the table sees it, the scores and the announcements, on every page."""
    return f"""<section id="game" class="game" aria-labelledby="game-heading">{_game(screen.get("table"), screen.get("timer_left"), pictures)}</section>
<section class="scoreboard" aria-labelledby="scores-heading">
<h2 id="scores-heading">{_escaped(SCORES)}</h2>
<table id="scores" class="scores">{_scores(screen.get("scores", []))}</table>
</section>
<section class="news" aria-labelledby="announcements-heading">
<h2 id="announcements-heading">{_escaped(ANNOUNCEMENTS)}</h2>
<div id="announcements" role="log" aria-live="polite">{_numbered(screen.get("announcements", []))}</div>
</section>
"""


def _json(value: Any) -> str:
    """JSON to put inside a script element: '<' escaped, so no text can close it."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _embedded(screen: dict[str, Any]) -> str:
    """The screen's JSON, and the script's own sentences in the page's language."""
    words: dict[str, Any] = {key: _(text) for key, text in SCRIPT_WORDS.items()}
    words["seconds_left"] = _seconds_left()
    return (f'<script id="initial" type="application/json">{_json(screen)}</script>\n'
            f'<script id="words" type="application/json">{_json(words)}</script>\n'
            '<script src="/static/companion.js"></script>\n')


def join_page(title: str, language: str, seats: dict[str, bool | None], phone: str, problem: str | None = None) -> str:
    """The room code, then one button per player who has not joined yet; `language`: the page's
    (the game's); `seats`: player -> joined (None: from this phone, which may take the seat again,
    its answer lost); `phone`: this phone's key, sent with the form so that the same phone gets
    the same seat again; `problem`: why the last try was refused."""
    buttons, joined = [], []
    for player, taken in seats.items():
        if taken:
            has_joined = _("{name} has joined.").format(name=player)
            joined.append(f"<li>{escape(has_joined)}</li>")
        else:
            said = _("I am {name} (again, on this phone)") if taken is None else _("I am {name}")
            buttons.append(f'<li><button type="submit" name="player" value="{escape(player)}">{escape(said.format(name=player))}</button></li>')
    alert = f'<p id="problem" role="alert">{escape(problem)}</p>\n' if problem else ""
    choose = f'<ul class="seats">{"".join(buttons)}</ul>' if buttons else f"<p>{_escaped(EVERY_SEAT_TAKEN)}</p>"
    taken_list = (f'<h2 id="joined-heading">{_escaped(JOINED)}</h2>\n<ul aria-labelledby="joined-heading">{"".join(joined)}</ul>\n'
                  if joined else "")
    table_link = _linked(_("{link}, for a screen everyone can see."), "link", f'<a href="/table">{_escaped(TABLE_PAGE)}</a>')
    words = {key: escape(text) for key, text in {
        "title": _("Join: {title}").format(title=title),
        "heading": _("Join {title}").format(title=title),
        "how": _("Enter the room code that the laptop says, then choose your name. You get a private page: keep it"
                 " open, it is your seat in this game."),
        "code": _("Room code (4 digits)"),
        "who": _("Who are you?"),
    }.items()}
    return _head(words["title"], language) + f"""<body>
<main>
<h1>{words["heading"]}</h1>
{alert}<p>{words["how"]}</p>
<form method="post" action="/join">
<input type="hidden" name="phone" value="{escape(phone)}">
<p><label for="code">{words["code"]}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="off" maxlength="12" required></p>
<fieldset>
<legend>{words["who"]}</legend>
{choose}
</fieldset>
</form>
{taken_list}<p>{table_link}</p>
</main>
</body>
</html>
"""


def _linked(sentence: str, field: str, link: str) -> str:
    """A translated sentence, escaped, with a link (already HTML) in place of its `field`."""
    before, _field, after = sentence.partition("{" + field + "}")
    return escape(before) + link + escape(after)


def link_gone_page(title: str, language: str, player: str | None) -> str:
    """What an old private link opens: `player`'s link was renewed at the laptop, or (None) the
    link opens no seat of this game (mistyped, from another game, or renewed before a resume)."""
    if player is not None:
        what = _("The laptop made a new private link for {name} (with 'link {name}'), so this old one opens"
                 " nothing any more, on this phone or any other. The seat is free again for {name}.").format(name=player)
        then = _("To play on this phone, open the join page, enter the room code that the laptop says,"
                 " and press \"I am {name}\".").format(name=player)
    else:
        what = _("This link opens no seat in this game: it may be mistyped, from another game, or renewed at the laptop"
                 " with 'link NAME'.")
        then = _("To play, open the join page, enter the room code that the laptop says, and press your name.")
    gone, heading = _("This link no longer works: {title}").format(title=title), _("This link no longer works")
    return _head(escape(gone), language) + f"""<body>
<main>
<h1>{escape(heading)}</h1>
<p>{escape(what)}</p>
<p>{escape(then)}</p>
<p><a href="/">{_escaped(OPEN_JOIN)}</a></p>
</main>
</body>
</html>
"""


def _button(action: str, verb: str, button: dict[str, Any]) -> str:
    """One choice, a form of its own (posted without JavaScript); one that cannot be pressed is
    shown as text (a face-up tile)."""
    if not button["pressable"]:
        return f'<span class="cell">{escape(button["text"])}</span>'
    name = f' aria-label="{escape(button["name"])}"' if button["name"] else ""
    chosen = ' class="chosen"' if button["chosen"] else ""
    mark = '<span class="mark"> ✓</span>' if button["chosen"] else ""
    return (f'<form method="post" action="{escape(action)}" data-verb="{escape(verb)}">'
            f'<input type="hidden" name="verb" value="{escape(verb)}">'
            f'<input type="hidden" name="text" value="{escape(button["value"])}">'
            f'<button type="submit" data-key="{escape(verb)} {escape(button["value"])}"{name}{chosen}>'
            f'{escape(button["text"])}{mark}</button></form>')


def _ask(action: str, ask: dict[str, Any], index: int) -> str:
    """A move the player may make now: a labelled group of buttons, or a text to type and send."""
    verb = escape(ask["verb"])
    if ask["field"]:
        return (f'<form class="ask" method="post" action="{escape(action)}" data-verb="{verb}">'
                f'<input type="hidden" name="verb" value="{verb}">'
                f'<label for="{verb}-text">{escape(ask["prompt"])}</label>'
                f'<input id="{verb}-text" name="text" type="text" maxlength="200" autocomplete="off" required>'
                f'<button type="submit" data-key="{verb}">{escape(ask["buttons"][0]["text"])}</button></form>')
    layout = " large" if ask["large"] else f" tiles cols-{int(ask['columns'])}" if ask["columns"] else ""
    buttons = "".join(_button(action, ask["verb"], button) for button in ask["buttons"])
    return (f'<div class="ask" role="group" aria-labelledby="ask-{index}"><p id="ask-{index}" class="prompt">'
            f'{escape(ask["prompt"])}</p><div class="buttons{layout}">{buttons}</div></div>')


#: where the table page's cards' pictures are served
TABLE_PICTURES = "/table/picture/"
#: a player's turn before the session has shown the game a first time
NO_TURN: dict[str, Any] = {"now": "", "asks": [], "yours": [], "hand": []}


def _asks(action: str, turn: dict[str, Any]) -> str:
    """The inside of the element #asks: the player's moves now but those on a card of their hand,
    as companion.js renders them too."""
    asks = [ask for ask in turn["asks"] if not ask["on_hand"]]
    return "".join(_ask(action, ask, index) for index, ask in enumerate(asks))


def _hand(action: str, turn: dict[str, Any], pictures: str) -> str:
    """The inside of the element #hand: each card of the player's hand told in words, a heading
    and its text, what they did with it this turn, and the buttons of their moves on it."""
    items = ""
    for card in turn["hand"]:
        face = card["face"]
        buttons = "".join(
            _button(action, ask["verb"], button)
            for ask in turn["asks"] if ask["on_hand"] for button in ask["buttons"] if button["value"] == card["value"]
        )
        note = f'<p class="note">{escape(card["note"])}</p>' if card["note"] else ""
        items += (f'<li class="card told" data-value="{escape(card["value"])}"><h3>{escape(face["title"])}</h3>'
                  f'{_told(face, pictures)}{note}<div class="buttons">{buttons}</div></li>')
    return items


def player_page(title: str, language: str, player: str, link: str, screen: dict[str, Any], notice: str | None = None) -> str:
    """`language`: the page's (the game's); `link`: the page's own address (its forms post to
    LINK/send); `notice`: a refusal of the form just sent, shown once."""
    turn = screen.get("turn", NO_TURN)
    pictures = f"{link}/picture/"
    replies = _numbered(screen.get("replies", [])) + (f'<p class="notice">{escape(notice)}</p>' if notice else "")
    hidden = "" if turn["hand"] else " hidden"
    words = {key: escape(text) for key, text in {
        "title": _("{name}: {title}").format(name=player, title=title),
        "heading": _("{name}'s private page").format(name=player),
        "only": _("{title}. Only {name} should look at this page.").format(name=player, title=title),
        "now": _("Now"),
        "hand": _("Your hand"),
        "mine": _("Yours alone"),
        "replies": _("Messages for you"),
    }.items()}
    return _head(words["title"], language) + f"""<body data-screen="player" data-socket="/ws{escape(link)}" data-send="{escape(link)}/send" data-pictures="{escape(pictures)}">
<header>
<h1>{words["heading"]}</h1>
<p>{words["only"]}</p>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">{words["now"]}</h2>
<p id="todo" class="todo">{escape(turn["now"])}</p>
<div id="asks">{_asks(link + "/send", turn)}</div>
{_again(link)}
</section>
<section id="hand-section" aria-labelledby="hand-heading"{hidden}>
<h2 id="hand-heading">{words["hand"]}</h2>
<ul id="hand" class="cards hand">{_hand(link + "/send", turn, pictures)}</ul>
</section>
<section aria-labelledby="mine-heading">
<h2 id="mine-heading">{words["mine"]}</h2>
<ul id="yours">{_items(turn["yours"] or [_(NOTHING_YOURS)])}</ul>
<h3 id="replies-heading">{words["replies"]}</h3>
<div id="replies" role="status" aria-live="polite" aria-labelledby="replies-heading">{replies}</div>
</section>
{_shared(screen, pictures)}<p id="connection" role="status"></p>
</main>
{_embedded(screen)}</body>
</html>
"""


def table_page(title: str, language: str, screen: dict[str, Any]) -> str:
    """The table, for a TV across the room: the game large, the scoreboard, the announcements."""
    head, heading = _("Table: {title}").format(title=title), _("{title}: the table").format(title=title)
    return _head(escape(head), language) + f"""<body data-screen="table" data-socket="/ws/table" data-pictures="{TABLE_PICTURES}">
<header>
<h1>{escape(heading)}</h1>
</header>
<main>
{_shared(screen, TABLE_PICTURES)}<footer>{_again("/table")}<p id="connection" role="status"></p></footer>
</main>
{_embedded(screen)}</body>
</html>
"""
