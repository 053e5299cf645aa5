"""The companion's HTML pages: semantic, labelled, self-contained (no external resource).

Every page is whole without JavaScript: the game as it is now is written into the HTML, and a
player's moves are plain forms posted to the server, which then shows the page again. Every name
and term is escaped here. static/companion.js keeps a page live: it builds the same elements from
the screen's JSON (embedded in the page too), its text set as text (never parsed as HTML), and
sends the forms over the WebSocket instead. The table page is made for a TV across the room
(companion.css lays it out large at 1920x1080); a player's page for their phone.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any


HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/companion.css">
</head>
"""
#: without JavaScript a page shows the game as it was when loaded (no timed refresh, which would
#: pull a screen reader back to the top): this link shows it anew
AGAIN = '<p><a href="{link}">Show the game as it is now</a></p>'


def _head(title: str) -> str:
    return HEAD.format(title=title)


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
    return f'<div class="timer"><p><span class="seconds">{round(left)}</span> seconds left</p>{bar}</div>'


def _meters(table: dict[str, Any]) -> str:
    if not table["meters"]:
        return ""
    items = "".join(
        f'<li class="meter"><span class="name">{escape(meter["name"])}</span> '
        f'<span class="count">{int(meter["count"])} of {int(meter["of"])} {escape(meter["unit"])}</span> '
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
            f'<td class="tile down">face down</td>' if tile["name"] is None else f'<td class="tile up">{escape(tile["name"])}</td>'
            for tile in cells
        ) + "</tr>"
    return (f'<table class="grid"><caption>The tiles</caption><thead><tr><td></td>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def _cards(cards: list[dict[str, Any]]) -> str:
    """The cards laid out, with their votes (revealed) and whose they are once known."""
    if not cards:
        return ""
    items = ""
    for card in cards:
        votes = card["votes"]
        said = f'{len(votes)} vote{"" if len(votes) == 1 else "s"}: {", ".join(votes)}' if votes else "no vote"
        owner = f'<span class="owner">{escape(card["owner"])}</span>' if card["owner"] else ""
        items += (f'<li class="card"><span class="number">Card {int(card["number"])}</span>{owner}'
                  f'<span class="votes">{escape(said)}</span></li>')
    return f'<h3>The cards and their votes</h3><ol class="cards">{items}</ol>'


def _game(table: dict[str, Any] | None, left: Any) -> str:
    """The table's view: the inside of the element #game, as companion.js renders it too (only its
    heading before the session has shown the game a first time)."""
    if table is None:
        return '<h2 id="game-heading">The game</h2>'
    big = (f'<div class="big"><h3>{escape(table["big_label"])}</h3><p class="sentence">{escape(table["big"])}</p></div>'
           if table["big"] else "")
    lines = f'<ul class="lines">{_items(table["lines"])}</ul>' if table["lines"] else ""
    return (f'<h2 id="game-heading">{escape(table["heading"])}</h2><p class="now">{escape(table["now"])}</p>'
            f'{big}{_timer(table, left)}{_meters(table)}{_grid(table["grid"])}{_cards(table["cards"])}{lines}')


def _scores(scores: list[list[Any]]) -> str:
    """The scoreboard: the most points first (seat order among equals)."""
    ranked = sorted(scores, key=lambda entry: -entry[1])
    rows = "".join(f'<tr><th scope="row">{escape(str(name))}</th><td>{int(points)}</td></tr>' for name, points in ranked)
    return f'<thead><tr><th scope="col">Player</th><th scope="col">Points</th></tr></thead><tbody>{rows}</tbody>'


def _shared(screen: dict[str, Any]) -> str:
    """The game as the table sees it, the scores and the announcements, on every page."""
    return f"""<section id="game" class="game" aria-labelledby="game-heading">{_game(screen.get("table"), screen.get("timer_left"))}</section>
<section class="scoreboard" aria-labelledby="scores-heading">
<h2 id="scores-heading">Scores</h2>
<table id="scores" class="scores">{_scores(screen.get("scores", []))}</table>
</section>
<section class="news" aria-labelledby="announcements-heading">
<h2 id="announcements-heading">Announcements</h2>
<div id="announcements" role="log" aria-live="polite">{_numbered(screen.get("announcements", []))}</div>
</section>
"""


def _embedded(screen: dict[str, Any]) -> str:
    """The screen's JSON inside a script element: '<' escaped, so no text can close it."""
    text = json.dumps(screen, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script id="initial" type="application/json">{text}</script>\n<script src="/static/companion.js"></script>\n'


def join_page(title: str, seats: dict[str, bool | None], phone: str, problem: str | None = None) -> str:
    """The room code, then one button per player who has not joined yet; `seats`: player ->
    joined (None: from this phone, which may take the seat again, its answer lost); `phone`: this
    phone's key, sent with the form so that the same phone gets the same seat again; `problem`:
    why the last try was refused."""
    buttons, joined = [], []
    for player, taken in seats.items():
        name = escape(player)
        if taken:
            joined.append(f"<li>{name} has joined.</li>")
        else:
            again = " (again, on this phone)" if taken is None else ""
            buttons.append(f'<li><button type="submit" name="player" value="{name}">I am {name}{again}</button></li>')
    alert = f'<p id="problem" role="alert">{escape(problem)}</p>\n' if problem else ""
    choose = f'<ul class="seats">{"".join(buttons)}</ul>' if buttons else "<p>Every seat is taken.</p>"
    taken_list = f'<h2 id="joined-heading">Joined</h2>\n<ul aria-labelledby="joined-heading">{"".join(joined)}</ul>\n' if joined else ""
    return _head(f"Join: {escape(title)}") + f"""<body>
<main>
<h1>Join {escape(title)}</h1>
{alert}<p>Enter the room code that the laptop says, then choose your name. You get a private page: keep it
open, it is your seat in this game.</p>
<form method="post" action="/join">
<input type="hidden" name="phone" value="{escape(phone)}">
<p><label for="code">Room code (4 digits)</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="off" maxlength="12" required></p>
<fieldset>
<legend>Who are you?</legend>
{choose}
</fieldset>
</form>
{taken_list}<p><a href="/table">The table page</a>, for a screen everyone can see.</p>
</main>
</body>
</html>
"""


def link_gone_page(title: str, player: str | None) -> str:
    """What an old private link opens: `player`'s link was renewed at the laptop, or (None) the
    link opens no seat of this game (mistyped, from another game, or renewed before a resume)."""
    if player is not None:
        name = escape(player)
        what = (f"The laptop made a new private link for {name} (with 'link {name}'), so this old one opens"
                f" nothing any more, on this phone or any other. The seat is free again for {name}.")
        then = f"To play on this phone, open the join page, enter the room code that the laptop says, and press \"I am {name}\"."
    else:
        what = ("This link opens no seat in this game: it may be mistyped, from another game, or renewed at the laptop"
                " with 'link NAME'.")
        then = "To play, open the join page, enter the room code that the laptop says, and press your name."
    return _head(f"This link no longer works: {escape(title)}") + f"""<body>
<main>
<h1>This link no longer works</h1>
<p>{what}</p>
<p>{then}</p>
<p><a href="/">Open the join page</a></p>
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


#: "Yours alone" when the player knows nothing the others do not
NOTHING_YOURS = "Nothing secret for you right now."
#: a player's turn before the session has shown the game a first time
NO_TURN: dict[str, Any] = {"now": "", "asks": [], "yours": []}


def _asks(action: str, turn: dict[str, Any]) -> str:
    """The inside of the element #asks: the player's moves now, as companion.js renders them too."""
    return "".join(_ask(action, ask, index) for index, ask in enumerate(turn["asks"]))


def player_page(title: str, player: str, link: str, screen: dict[str, Any], notice: str | None = None) -> str:
    """`link`: the page's own address (its forms post to LINK/send); `notice`: a refusal of the
    form just sent, shown once."""
    name = escape(player)
    turn = screen.get("turn", NO_TURN)
    replies = _numbered(screen.get("replies", [])) + (f'<p class="notice">{escape(notice)}</p>' if notice else "")
    return _head(f"{name}: {escape(title)}") + f"""<body data-screen="player" data-socket="/ws{escape(link)}" data-send="{escape(link)}/send">
<header>
<h1>{name}'s private page</h1>
<p>{escape(title)}. Only {name} should look at this page.</p>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<p id="todo" class="todo">{escape(turn["now"])}</p>
<div id="asks">{_asks(link + "/send", turn)}</div>
{AGAIN.format(link=escape(link))}
</section>
<section aria-labelledby="mine-heading">
<h2 id="mine-heading">Yours alone</h2>
<ul id="yours">{_items(turn["yours"] or [NOTHING_YOURS])}</ul>
<h3 id="replies-heading">Messages for you</h3>
<div id="replies" role="status" aria-live="polite" aria-labelledby="replies-heading">{replies}</div>
</section>
{_shared(screen)}<p id="connection" role="status"></p>
</main>
{_embedded(screen)}</body>
</html>
"""


def table_page(title: str, screen: dict[str, Any]) -> str:
    """The table, for a TV across the room: the game large, the scoreboard, the announcements."""
    return _head(f"Table: {escape(title)}") + f"""<body data-screen="table" data-socket="/ws/table">
<header>
<h1>{escape(title)}: the table</h1>
</header>
<main>
{_shared(screen)}<footer>{AGAIN.format(link="/table")}<p id="connection" role="status"></p></footer>
</main>
{_embedded(screen)}</body>
</html>
"""
