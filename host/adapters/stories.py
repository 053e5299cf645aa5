"""Stories! at the table: the deck of opening cards, the referee's ears during a story and its
clock, the phrases of its moves (never a secret term), a dictated term resolved to the player's
own, each player's turn on their phone and the table page (never a term before the story ends)."""
from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from typing import Any

from rapidfuzz import fuzz, process

from games.base import Action, GameState, Settings, already_set, join_names, plural, view_of
from games.stories import SIDES, SPEC, TERMS_PER_PLAYER, Phase, StoriesView
from games.stories_scoring import QUESTION_COSTS
from host.adapters.base import BasicAdapter, GameAdapter, referee, waiting
from host.adapters.listening import Hearing, Listener
from host.adapters.narration import NarrationListener
from host.adapters.story_clock import StoryClock
from host.adapters.views import Ask, Button, Meter, PhoneTurn, TableView
from host.storage import decks
from host.voice.phrases import SLOT, Names, Phrase, each

#: the verbs whose dictated words name one of the player's own terms
TERM_VERBS = ("tick", "untick", "erase")


class StoriesAdapter(BasicAdapter):
    commands = frozenset({"private", "say", "time"})
    phone_verbs = frozenset({"side", "term", "erase", "start", "tick", "untick", "question", "timeup", "confirm"})

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        return {"cards": [asdict(card) for card in decks.load_opening_cards(options.deck)]}

    move_nouns: Mapping[str, tuple[str, str]] = {"timeup": ("time up", "time up"), "erase": ("erasure", "erasure"),
                                                 "side": ("choice of side", "choice of the {} side")}
    written: Mapping[str, str] = {"timeup": "time up"}

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        """The referee's ears (a story heard, or typed with 'say') and the sand timer, which runs
        on the wall clock only where someone plays live (a script says 'time up')."""
        narration = NarrationListener(referee())
        seconds = int(settings["timer_seconds"]) if hearing.wall_clock else None
        return narration, StoryClock(narration.listening, Action("timeup"), seconds)

    def actor(self, state: GameState, action: Action) -> str | None:
        """A move without a player (start, time up, confirm) is the storyteller's."""
        return action.player or view_of(state, None, StoriesView).storyteller

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """The storyteller chooses the side, starts, calls time and confirms; every other player
        writes and erases their terms, ticks and unticks them and asks questions."""
        if state.is_over():
            return PhoneTurn(state.status())
        view = view_of(state, player, StoriesView)
        if player == view.storyteller:
            return _telling(state, view)
        terms = [term.text for term in view.terms(player)]
        ticked = {term.text for term in view.terms(player) if term.ticked}
        yours = tuple(f"{term}: {'ticked' if term in ticked else 'not ticked'}" for term in terms)
        now, asks = _writing(state, view, player, terms, ticked)
        return PhoneTurn(now, asks, yours)

    def table(self, state: GameState) -> TableView:
        """The card's sentence, the timer, each sheet's terms written or ticked (the terms
        themselves once the story is over) and the last story's points."""
        view = view_of(state, None, StoriesView)
        teller, phase = view.storyteller, view.phase
        heading = f"Round {view.round} of {view.rounds}, story {view.story} of {view.stories}: {teller} tells"
        if phase == Phase.OVER:
            return TableView(f"Stories!: {view.stories} stories told", state.status())
        sheets = view.sheets
        if phase == Phase.TERMS:
            meters = tuple(Meter(sheet.writer, sheet.written, TERMS_PER_PLAYER, "terms written") for sheet in sheets)
        elif phase in (Phase.NARRATION, Phase.REVIEW):
            meters = tuple(
                Meter(sheet.writer, sheet.ticked, TERMS_PER_PLAYER, "ticked",
                      plural(sheet.questions, "question") if sheet.questions else "")
                for sheet in sheets
            )
        else:
            meters = ()
        lines: tuple[str, ...] = ()
        if phase == Phase.REVIEW:  # the terms are revealed
            lines = tuple(
                f"{sheet.writer}: {', '.join(t.text + (' (ticked)' if t.ticked else '') for t in sheet.terms or ())}."
                for sheet in sheets
            )
        elif phase == Phase.CHOOSE and view.last_story_points:
            points = ", ".join(f"{player} {gained}" for player, gained in view.last_story_points.items())
            lines = (f"Last story: {points}.",)
        return TableView(
            heading, _table_now(state, view), view.sentence or "", "The card" if view.sentence else "",
            view.timer_seconds if phase == Phase.NARRATION else None,
            meters, "Terms written" if phase == Phase.TERMS else "Ticks" if meters else "", lines=lines,
        )

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

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        """The line to type at each step of a story that the announcements leave unsaid: a term,
        start, the story and its ticks. Choosing a side needs none ("normal" alone is taken),
        nor do the corrections ("correct the ticks with tick or untick, then confirm")."""
        view = view_of(state, None, StoriesView)
        teller, phase = view.storyteller, view.phase
        if phase == Phase.TERMS:
            missing = [player for player in state.waiting_for() if player != teller]
            if missing:
                return ("term", f"Type term, your name and one term a line, such as term {missing[0]} polar bear; "
                                "typing is hidden.")
            return ("start", "Type start to begin the story and the timer.")
        if phase == Phase.NARRATION:
            return ("say", f"Nothing listens here: as {teller} tells the story, type say and the words, to tick the "
                           "terms heard; or tick, your name and a term you heard, typed hidden.")
        return None

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated tick, untick or erase names the player's own written term nearest to the
        words heard (the host knows every sheet; nothing is said about the others)."""
        verb, player, *words = line.split()
        if verb not in TERM_VERBS:
            return line
        terms = [term.text for term in view_of(state, player, StoriesView).terms(player)]
        best = process.extractOne(" ".join(words), terms, scorer=fuzz.WRatio, score_cutoff=60)
        return line if best is None else f"{verb} {player} {best[0]}"


def _telling(state: GameState, view: StoriesView) -> PhoneTurn:
    """The storyteller's turn: both sides of the card to choose from, then start, time up, confirm."""
    teller, phase = view.storyteller, view.phase
    if phase == Phase.CHOOSE:
        card = already_set(view.card, "the card")
        sides = {"normal": card.normal, "quirky": card.quirky}
        buttons = tuple(
            Button(side, f"{side.capitalize()}: {sides[side]}", Action("side", teller, (side,))) for side in SIDES
        )
        return PhoneTurn("You tell this story: read both sides of the card and choose the one you will tell.",
                         (Ask("side", "Which side will you tell?", buttons),))
    if phase == Phase.TERMS:
        missing = [player for player in state.waiting_for() if player != teller]
        if missing:
            return PhoneTurn(f"Waiting for terms from {join_names(missing)}. Then you start the story: "
                             f"'{view.sentence}'")
        return PhoneTurn(f"Everyone has written. Read the sentence again, '{view.sentence}', then press Start "
                         "and tell your story.", (_one("start", "Start the story and the timer", "Start", Action("start")),))
    if phase == Phase.NARRATION:
        return PhoneTurn(f"Tell your story: '{view.sentence}'. Answer each question properly. Press Time up "
                         "when the time runs out.", (_one("timeup", "When the time runs out", "Time up", Action("timeup")),))
    return PhoneTurn("The story is over. When everyone's ticks are right, press Confirm to score the story.",
                     (_one("confirm", "Score the story", "Confirm", Action("confirm")),))


def _writing(state: GameState, view: StoriesView, player: str, terms: list[str],
             ticked: set[str]) -> tuple[str, tuple[Ask, ...]]:
    """A writer's turn: write and erase terms before the story, tick and untick them and ask
    questions while it is told, correct the ticks after it."""
    teller, phase = view.storyteller, view.phase
    if phase == Phase.CHOOSE:
        return f"{teller} is choosing the side of the card; then you write your {TERMS_PER_PLAYER} terms.", ()
    if phase == Phase.TERMS:
        erase = (Ask("erase", "Erase a term", tuple(
            Button(term, f"Erase {term}", Action("erase", player, (term,))) for term in terms
        )),) if terms else ()
        if len(terms) < TERMS_PER_PLAYER:
            write = Ask("term", "A term to write (only you see it)",
                        (Button("", "Write the term", Action("term", player, ("",))),), field=True)
            so_far = f" {len(terms)} of {TERMS_PER_PLAYER} written." if terms else ""
            return f"Write {TERMS_PER_PLAYER} terms you expect in {teller}'s story, secretly.{so_far}", (write, *erase)
        if [other for other in state.waiting_for() if other != teller]:
            return f"Your {TERMS_PER_PLAYER} terms are written. {waiting(state, player)}", erase
        return f"Everyone has written. Waiting for {teller} to start the story.", erase
    asks = []
    if set(terms) - ticked:
        asks.append(Ask("tick", "Tick a term you heard", tuple(
            Button(term, term, Action("tick", player, (term,)), name=f"Tick {term}") for term in terms if term not in ticked
        )))
    if ticked:
        asks.append(Ask("untick", "Take back a tick", tuple(
            Button(term, term, Action("untick", player, (term,)), name=f"Untick {term}") for term in terms if term in ticked
        )))
    if phase == Phase.REVIEW:
        return f"The story is over. Check your ticks; then {teller} confirms the score.", tuple(asks)
    asked = view.sheet(player).questions
    if asked < len(QUESTION_COSTS):
        cost = plural(QUESTION_COSTS[asked], "point") + (" more" if asked else "")
        which = "a second question" if asked else "a question"
        asks.append(_one("question", f"Interrupt the story with {which}: it costs {cost}", "Ask a question",
                         Action("question", player)))
    return f"Listen to {teller}'s story and tick each of your terms you hear.", tuple(asks)


def _one(verb: str, prompt: str, text: str, action: Action) -> Ask:
    """An ask of one button."""
    return Ask(verb, prompt, (Button("", text, action),))


def _table_now(state: GameState, view: StoriesView) -> str:
    teller, phase = view.storyteller, view.phase
    if phase == Phase.CHOOSE:
        return f"{teller} is choosing the normal or the quirky side of the card."
    if phase == Phase.TERMS:
        missing = [player for player in state.waiting_for() if player != teller]
        return f"Writing terms: waiting for {join_names(missing)}." if missing else f"Everyone has written: {teller} starts the story."
    if phase == Phase.NARRATION:
        return f"{teller} is telling the story."
    return f"The story is over: the ticks are checked, then {teller} confirms."


ADAPTER: GameAdapter = StoriesAdapter(SPEC)
