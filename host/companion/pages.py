"""The companion's HTML pages: semantic, labelled, self-contained (no external resource).

Every page is whole without JavaScript: the game as it is now is written into the HTML, and a
player's moves are plain forms posted to the server, which then shows the page again. Every name
and term is escaped here. static/companion.js keeps a page live: it fills in what changes as text
(never as HTML) from the screen's JSON, embedded in the page too, and sends the forms over the
WebSocket instead.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from host.adapters.base import PhoneMove

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


def _timer(screen: dict[str, Any]) -> str:
    left = screen.get("timer_left")
    return "" if left is None else f"{round(left)} seconds left in the story."


def _shared(screen: dict[str, Any]) -> str:
    """The scores and the announcements, on every page."""
    return f"""<section aria-labelledby="scores-heading">
<h2 id="scores-heading">Scores</h2>
<ul id="scores">{_items(screen.get("scores", []))}</ul>
</section>
<section aria-labelledby="announcements-heading">
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


def _form(action: str, verb: str, shown: bool, inside: str) -> str:
    """A move posted to the server (or, with JavaScript, sent over the WebSocket)."""
    return (f'<form method="post" action="{escape(action)}" data-verb="{verb}"{"" if shown else " hidden"}>'
            f'<input type="hidden" name="verb" value="{verb}">\n{inside}</form>\n')


def _field(action: str, verb: str, shown: bool, label: str, button: str, number: bool = False) -> str:
    kind = 'type="number" inputmode="numeric" min="1" max="1000"' if number else 'type="text" maxlength="200"'
    return _form(action, verb, shown, f"""<label for="{verb}-text">{label}</label>
<input id="{verb}-text" name="text" {kind} autocomplete="off" required>
<button type="submit">{button}</button>
""")


def _terms(action: str, terms: list[dict[str, Any]], move: PhoneMove, can: list[str]) -> str:
    """The player's terms with their ticks, each with the button of `move` (erase) while it is
    allowed."""
    items = []
    for term in terms:
        text = escape(term["term"])
        button = _form(action, move.verb, True, f'<input type="hidden" name="text" value="{text}">'
                                                f'<button type="submit">{escape(move.button)} {text}</button>')
        items.append(f"<li><span>{text} ({'ticked' if term['ticked'] else 'not ticked'})</span> "
                     f"{button if move.verb in can else ''}</li>")
    return "".join(items)


def _moves(moves: tuple[PhoneMove, ...], action: str, screen: dict[str, Any]) -> str:
    """The forms of the moves the game's phones may send (its adapter's `phone_moves`); a game
    with a move per term lists the player's terms first."""
    can = screen.get("can", [])
    html = ""
    for move in moves:
        if move.per_term:
            html += f"""<h3 id="terms-heading">Your terms</h3>
<ul id="terms" aria-labelledby="terms-heading" data-verb="{move.verb}" data-button="{escape(move.button)}">{
_terms(action, screen.get("terms", []), move, can)}</ul>
"""
    for move in moves:
        if move.per_term:
            continue
        if move.label:
            html += _field(action, move.verb, move.verb in can, move.label, move.button, move.number)
        else:
            html += _form(action, move.verb, move.verb in can, f'<button type="submit">{escape(move.button)}</button>')
    return html


def player_page(title: str, player: str, moves: tuple[PhoneMove, ...], link: str, screen: dict[str, Any],
                notice: str | None = None) -> str:
    """`link`: the page's own address (its forms post to LINK/send); `notice`: a refusal of the
    form just sent, shown once."""
    name = escape(player)
    replies = _numbered(screen.get("replies", [])) + (f'<p class="notice">{escape(notice)}</p>' if notice else "")
    return _head(f"{name}: {escape(title)}") + f"""<body data-screen="player" data-socket="/ws{escape(link)}">
<header>
<h1>{name}'s private page</h1>
<p>{escape(title)}. Only {name} should look at this page.</p>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<p id="todo">{escape(screen.get("todo", ""))}</p>
<p id="status">{escape(screen.get("status", ""))}</p>
<p id="timer">{_timer(screen)}</p>
{AGAIN.format(link=escape(link))}
</section>
<section aria-labelledby="mine-heading">
<h2 id="mine-heading">Yours alone</h2>
<ul id="secrets">{_items(screen.get("secrets", []))}</ul>
{_moves(moves, link + "/send", screen)}<h3 id="replies-heading">Messages for you</h3>
<div id="replies" role="status" aria-live="polite" aria-labelledby="replies-heading">{replies}</div>
</section>
{_shared(screen)}<p id="connection" role="status"></p>
</main>
{_embedded(screen)}</body>
</html>
"""


def table_page(title: str, screen: dict[str, Any]) -> str:
    return _head(f"Table: {escape(title)}") + f"""<body data-screen="table" data-socket="/ws/table">
<header>
<h1>{escape(title)}: the table</h1>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<p id="status">{escape(screen.get("status", ""))}</p>
<p id="timer">{_timer(screen)}</p>
{AGAIN.format(link="/table")}
</section>
<section aria-labelledby="game-heading">
<h2 id="game-heading">The game</h2>
<ul id="details">{_items(screen.get("details", []))}</ul>
</section>
{_shared(screen)}<p id="connection" role="status"></p>
</main>
{_embedded(screen)}</body>
</html>
"""
