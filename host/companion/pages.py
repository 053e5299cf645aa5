"""The companion's HTML pages: semantic, labelled, self-contained (no external resource).

Every name and term is escaped here; what changes while the game runs is filled in by
static/companion.js as text (never as HTML) from the screen's JSON, embedded in the page so that
a reload shows the game as it is at once.
"""
from __future__ import annotations

import json
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

ANNOUNCEMENTS = """<section aria-labelledby="announcements-heading">
<h2 id="announcements-heading">Announcements</h2>
<div id="announcements" role="log" aria-live="polite"></div>
</section>
"""

SCORES = """<section aria-labelledby="scores-heading">
<h2 id="scores-heading">Scores</h2>
<ul id="scores"></ul>
</section>
"""


def _embedded(screen: dict[str, Any]) -> str:
    """The screen's JSON inside a script element: '<' escaped, so no text can close it."""
    text = json.dumps(screen, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script id="initial" type="application/json">{text}</script>\n<script src="/static/companion.js"></script>\n'


def join_page(title: str, seats: dict[str, bool]) -> str:
    """One button per player who has not joined yet; `seats`: player -> joined."""
    items = []
    for player, joined in seats.items():
        name = escape(player)
        if joined:
            items.append(f"<li>{name} has joined.</li>")
        else:
            items.append(
                f'<li><form method="post" action="/join"><input type="hidden" name="player" value="{name}">'
                f"<button type=\"submit\">I am {name}</button></form></li>"
            )
    return HEAD.format(title=f"Join: {escape(title)}") + f"""<body>
<main>
<h1>Join {escape(title)}</h1>
<p>Choose your name. You get a private page: keep it open, it is your seat in this game.</p>
<ul class="seats">
{''.join(items)}
</ul>
<p><a href="/table">The table page</a>, for a screen everyone can see.</p>
</main>
</body>
</html>
"""


def refused_page(message: str, status_title: str) -> str:
    return HEAD.format(title=escape(status_title)) + f"""<body>
<main>
<h1>{escape(status_title)}</h1>
<p>{escape(message)}</p>
<p><a href="/">Back to joining</a></p>
</main>
</body>
</html>
"""


def _field(verb: str, label: str, button: str, number: bool = False) -> str:
    kind = 'type="number" inputmode="numeric" min="1" max="1000"' if number else 'type="text" maxlength="200"'
    return f"""<form data-verb="{verb}" hidden>
<label for="{verb}-text">{label}</label>
<input id="{verb}-text" name="text" {kind} autocomplete="off" required>
<button type="submit">{button}</button>
</form>
"""


def _moves(game: str) -> str:
    if game == "stories":
        return f"""<h3 id="terms-heading">Your terms</h3>
<ul id="terms" aria-labelledby="terms-heading"></ul>
{_field("term", "A term to write (only you see it)", "Write the term")}
<form data-verb="question" hidden><button type="submit">Ask a question</button></form>
"""
    if game == "dixit":
        return (_field("vote", "The number of the card you vote for", "Vote", number=True)
                + _field("card", "The number of your card, storyteller", "Enter my card", number=True))
    return ""


def player_page(title: str, player: str, game: str, socket: str, screen: dict[str, Any]) -> str:
    name = escape(player)
    return HEAD.format(title=f"{name}: {escape(title)}") + f"""<body data-screen="player" data-socket="{escape(socket)}">
<header>
<h1>{name}'s private page</h1>
<p>{escape(title)}. Only {name} should look at this page.</p>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<p id="todo"></p>
<p id="status"></p>
<p id="timer"></p>
</section>
<section aria-labelledby="mine-heading">
<h2 id="mine-heading">Yours alone</h2>
<ul id="secrets"></ul>
{_moves(game)}
<h3 id="replies-heading">Messages for you</h3>
<div id="replies" role="status" aria-live="polite" aria-labelledby="replies-heading"></div>
</section>
{SCORES}{ANNOUNCEMENTS}<p id="connection" role="status">Connecting.</p>
</main>
{_embedded(screen)}</body>
</html>
"""


def table_page(title: str, screen: dict[str, Any]) -> str:
    return HEAD.format(title=f"Table: {escape(title)}") + f"""<body data-screen="table" data-socket="/ws/table">
<header>
<h1>{escape(title)}: the table</h1>
</header>
<main>
<section aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<p id="status"></p>
<p id="timer"></p>
</section>
<section aria-labelledby="game-heading">
<h2 id="game-heading">The game</h2>
<ul id="details"></ul>
</section>
{SCORES}{ANNOUNCEMENTS}<p id="connection" role="status">Connecting.</p>
</main>
{_embedded(screen)}</body>
</html>
"""
