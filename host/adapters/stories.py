"""Stories! at the table: the deck of opening cards, the referee's ears during a story and its
clock, the phrases of its moves (never a secret term), a dictated term resolved to the player's own."""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from rapidfuzz import fuzz, process

from games.base import Action, GameState, Settings, plural
from games.stories import SPEC, TERMS_PER_PLAYER
from host.adapters.base import BasicAdapter, GameAdapter, PhoneMove, referee
from host.adapters.narration import NarrationListener
from host.storage import decks
from host.voice.phrases import SLOT, HostPhrase, Names, Phrase, each

#: the verbs whose dictated words name one of the player's own terms
TERM_VERBS = ("tick", "untick", "erase")


class StoriesAdapter(BasicAdapter):
    commands = frozenset({"private", "say", "time"})
    host_phrases: tuple[HostPhrase, ...] = ((("time left", "how much time"), "time", False),)
    phone_moves: tuple[PhoneMove, ...] = (
        PhoneMove("term", "A term to write (only you see it)", "Write the term"),
        PhoneMove("erase", button="Erase", per_term=True),
        PhoneMove("question", button="Ask a question"),
    )

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        return {"cards": [asdict(card) for card in decks.load_opening_cards(options.deck)]}

    def clock_seconds(self, settings: Settings) -> int | None:
        return int(settings["timer_seconds"])

    def listener(self) -> NarrationListener:
        return NarrationListener(referee())

    def table_details(self, state: GameState) -> list[str]:
        """The story, the card, and each sheet's counts (its terms once the story is over)."""
        view = state.view(None)
        lines = [f"Story {view['story']} of {view['stories']}; storyteller {view['storyteller']}."]
        if view["sentence"]:
            lines.append(f"The card: {view['sentence']}")
        for writer, sheet in view["sheets"].items():
            line = f"{writer}: {sheet['written']} of {TERMS_PER_PLAYER} terms written, {sheet['ticked']} ticked"
            questions = f", {plural(sheet['questions'], 'question')}" if sheet["questions"] else ""
            terms = sheet.get("terms")  # revealed once the story is over
            shown = f". Terms: {', '.join(t['term'] + (' (ticked)' if t['ticked'] else '') for t in terms)}" if terms else ""
            lines.append(f"{line}{questions}{shown}.")
        return lines

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        name = names(action.player) if action.player else ""
        if action.verb == "side":
            side = action.args[0]
            yield from each((f"{side} side", f"the {side} side", f"{name} chooses the {side} side"), str(action))
        elif action.verb in ("term", "erase"):
            doing = "writes" if action.verb == "term" else "erases"
            yield from each(
                (f"{name} {doing} a term", f"{action.verb} {name}"), f"{action.verb} {action.player}",
                dictation=f"{action.verb} {action.player} {SLOT}",
            )
        elif action.verb in ("tick", "untick"):  # the label names a secret term: only the player is said
            doing = "ticks a term" if action.verb == "tick" else "removes a tick"
            yield from each(
                (f"{name} {doing}",), f"{action.verb} {action.player}",
                dictation=f"{action.verb} {action.player} {SLOT}",
            )
        elif action.verb == "start":
            yield from each(("start", "start the story"), "start")
        elif action.verb == "question":
            yield from each((f"question {name}", f"{name} asks a question"), str(action))
        elif action.verb == "timeup":
            yield from each(("time up", "time is up"), "timeup")
        elif action.verb == "confirm":
            yield from each(("confirm", "confirm the ticks", "score the story"), "confirm", confirm=True)

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated tick, untick or erase names the player's own written term nearest to the
        words heard (the host knows every sheet; nothing is said about the others)."""
        verb, player, *words = line.split()
        if verb not in TERM_VERBS:
            return line
        terms = [term["term"] for term in state.view(player)["sheets"][player]["terms"]]
        best = process.extractOne(" ".join(words), terms, scorer=fuzz.WRatio, score_cutoff=60)
        return line if best is None else f"{verb} {player} {best[0]}"


ADAPTER: GameAdapter = StoriesAdapter(SPEC)
