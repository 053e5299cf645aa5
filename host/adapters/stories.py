"""Stories! at the table: the deck of opening cards, the referee's ears during a story and its
clock, the phrases of its moves (never a secret term), a dictated term resolved to the player's
own, each player's turn on their phone and the table page (never a term before the story ends)."""
from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from typing import Any

from rapidfuzz import fuzz, process

from games.base import Action, GameState, SetupError, Settings, already_set, join_either, join_names, points, view_of
from games.language import N_, _, n_, p_
from games.stories import SPEC, TERMS_PER_PLAYER, Phase, StoriesView, listed_terms, side_said
from games.stories_scoring import QUESTION_COSTS
from host.adapters.base import BasicAdapter, GameAdapter, language_named, referee, waiting
from host.adapters.listening import Hearing, Listener
from host.adapters.narration import NarrationListener
from host.adapters.story_clock import StoryClock
from host.adapters.views import Ask, Button, Meter, PhoneTurn, TableView
from host.storage import decks
from nlp.referee import LANGUAGES
from host.voice.phrases import SLOT, Names, Phrase, each

#: the verbs whose dictated words name one of the player's own terms
TERM_VERBS = ("tick", "untick", "erase")


def without_term_rules(language: str) -> str | None:
    """Why Stories! cannot be played in `language` (no term rules for it: the refusal, in the
    table's words), or None when it can."""
    if language in LANGUAGES:
        return None
    return _("Stories! is played in {languages}: storyhost knows its rules for allowed words in no other language. "
             "Choose one with --language.").format(languages=join_either([language_named(code) for code in LANGUAGES]))


class StoriesAdapter(BasicAdapter):
    commands = frozenset({"private", "say", "time"})
    phone_verbs = frozenset({"side", "term", "erase", "start", "tick", "untick", "question", "timeup", "confirm"})

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        """The deck in the game's language: the built-in one, or a file in that language; a
        language without term rules is refused first (no deck would make it playable)."""
        language = getattr(options, "language", None) or "en"
        refused = without_term_rules(language)
        if refused is not None:
            raise SetupError(refused)
        return {"cards": [asdict(card) for card in decks.load_opening_cards(options.deck, language)]}

    move_nouns: Mapping[str, tuple[str, str]] = {"timeup": (N_("time up"), N_("time up")),
                                                 "erase": (N_("erasure"), N_("erasure")),
                                                 "side": (N_("choice of side"), N_("choice of the {} side"))}
    written: Mapping[str, str] = {"timeup": "time up"}

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        """The referee's ears (a story heard, or typed with 'say'), judging in the game's language,
        and the sand timer, which runs on the wall clock only where someone plays live (a script
        says 'time up')."""
        narration = NarrationListener(referee(settings.get("language", "en")))
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
        yours = tuple((_("{term}: ticked") if term in ticked else _("{term}: not ticked")).format(term=term)
                      for term in terms)
        now, asks = _writing(state, view, player, terms, ticked)
        return PhoneTurn(now, asks, yours)

    def table(self, state: GameState) -> TableView:
        """The card's sentence, the timer, each sheet's terms written or ticked (the terms
        themselves once the story is over) and the last story's points."""
        view = view_of(state, None, StoriesView)
        teller, phase = view.storyteller, view.phase
        heading = _("Round {round} of {rounds}, story {story} of {stories}: {teller} tells").format(
            round=view.round, rounds=view.rounds, story=view.story, stories=view.stories, teller=teller)
        if phase == Phase.OVER:
            return TableView(n_("Stories!: {count} story told", "Stories!: {count} stories told", view.stories).format(
                count=view.stories), state.status())
        sheets = view.sheets
        if phase == Phase.TERMS:
            meters = tuple(Meter(sheet.writer, sheet.written, TERMS_PER_PLAYER, _("terms written")) for sheet in sheets)
        elif phase in (Phase.NARRATION, Phase.REVIEW):
            meters = tuple(
                Meter(sheet.writer, sheet.ticked, TERMS_PER_PLAYER, _("ticked"),
                      n_("{count} question", "{count} questions", sheet.questions).format(count=sheet.questions)
                      if sheet.questions else "")
                for sheet in sheets
            )
        else:
            meters = ()
        lines: tuple[str, ...] = ()
        if phase == Phase.REVIEW:  # the terms are revealed
            lines = tuple(_("{player}: {terms}.").format(player=sheet.writer, terms=listed_terms(sheet.terms or ()))
                          for sheet in sheets)
        elif phase == Phase.CHOOSE and view.last_story_points:
            gains = _(", ").join(_("{player} {score}").format(player=player, score=gained)
                                 for player, gained in view.last_story_points.items())
            lines = (_("Last story: {points}.").format(points=gains),)
        label = _("Terms written") if phase == Phase.TERMS else _("Ticks") if meters else ""
        return TableView(
            heading, _table_now(state, view), view.sentence or "", _("The card") if view.sentence else "",
            view.timer_seconds if phase == Phase.NARRATION else None, meters, label, lines=lines,
        )

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The ways of saying a move, in the table's language; the line it stands for stays the
        command's own (English ids, which typed commands take too)."""
        name = names(action.player) if action.player else ""
        word = p_("verb", action.verb)
        if action.verb == "side":
            side = side_said(action.args[0])
            ways = (N_("{side} side"), N_("the {side} side"), N_("{name} chooses the {side} side"))
            yield from each(tuple(_(way).format(side=side, name=name) for way in ways), str(action))
        elif action.verb in ("term", "erase"):
            doing = N_("{name} writes a term") if action.verb == "term" else N_("{name} erases a term")
            yield from each(
                (_(doing).format(name=name), f"{word} {name}"), f"{action.verb} {action.player}",
                dictation=f"{action.verb} {action.player} {SLOT}",
            )
        elif action.verb in ("tick", "untick"):  # the label names a secret term: only the player is said
            doing = N_("{name} ticks a term") if action.verb == "tick" else N_("{name} removes a tick")
            yield from each(
                (_(doing).format(name=name),), f"{action.verb} {action.player}",
                dictation=f"{action.verb} {action.player} {SLOT}",
            )
        elif action.verb == "start":
            yield from each((word, _("start the story")), "start")
        elif action.verb == "question":
            yield from each((f"{word} {name}", _("{name} asks a question").format(name=name)), str(action))
        elif action.verb == "timeup":
            yield from each((_("time up"), _("time is up")), "timeup")
        elif action.verb == "confirm":
            yield from each((word, _("confirm the ticks"), _("score the story")), "confirm", confirm=True)

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        """The line to type at each step of a story that the announcements leave unsaid: a term,
        start, the story and its ticks. Choosing a side needs none ("normal" alone is taken),
        nor do the corrections ("correct the ticks with tick or untick, then confirm")."""
        view = view_of(state, None, StoriesView)
        teller, phase = view.storyteller, view.phase
        if phase == Phase.TERMS:
            missing = [player for player in state.waiting_for() if player != teller]
            if missing:
                return ("term", _("Type {term}, your name and one term a line, such as {term} {player} {example}; "
                                  "typing is hidden.").format(term=p_("verb", "term"), player=missing[0],
                                                              example=_("polar bear")))
            return ("start", _("Type {start} to begin the story and the timer.").format(start=p_("verb", "start")))
        if phase == Phase.NARRATION:
            return ("say", _("Nothing listens here: as {teller} tells the story, type {say} and the words, to tick the "
                             "terms heard; or {tick}, your name and a term you heard, typed hidden.").format(
                teller=teller, say=p_("verb", "say"), tick=p_("verb", "tick")))
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
        buttons = (
            Button("normal", _("Normal: {sentence}").format(sentence=card.normal), Action("side", teller, ("normal",))),
            Button("quirky", _("Quirky: {sentence}").format(sentence=card.quirky), Action("side", teller, ("quirky",))),
        )
        return PhoneTurn(_("You tell this story: read both sides of the card and choose the one you will tell."),
                         (Ask("side", _("Which side will you tell?"), buttons),))
    sentence = view.sentence
    if phase == Phase.TERMS:
        missing = [player for player in state.waiting_for() if player != teller]
        if missing:
            return PhoneTurn(_("Waiting for terms from {names}. Then you start the story: '{sentence}'").format(
                names=join_names(missing), sentence=sentence))
        return PhoneTurn(_("Everyone has written. Read the sentence again, '{sentence}', then press Start and tell "
                           "your story.").format(sentence=sentence),
                         (_one("start", _("Start the story and the timer"), _("Start"), Action("start")),))
    if phase == Phase.NARRATION:
        return PhoneTurn(_("Tell your story: '{sentence}'. Answer each question properly. Press Time up when the time "
                           "runs out.").format(sentence=sentence),
                         (_one("timeup", _("When the time runs out"), _("Time up"), Action("timeup")),))
    return PhoneTurn(_("The story is over. When everyone's ticks are right, press Confirm to score the story."),
                     (_one("confirm", _("Score the story"), _("Confirm"), Action("confirm")),))


def _writing(state: GameState, view: StoriesView, player: str, terms: list[str],
             ticked: set[str]) -> tuple[str, tuple[Ask, ...]]:
    """A writer's turn: write and erase terms before the story, tick and untick them and ask
    questions while it is told, correct the ticks after it."""
    teller, phase = view.storyteller, view.phase
    count = TERMS_PER_PLAYER
    if phase == Phase.CHOOSE:
        return _("{teller} is choosing the side of the card; then you write your {count} terms.").format(
            teller=teller, count=count), ()
    if phase == Phase.TERMS:
        erase = (Ask("erase", _("Erase a term"), tuple(
            Button(term, _("Erase {term}").format(term=term), Action("erase", player, (term,))) for term in terms
        )),) if terms else ()
        if len(terms) < TERMS_PER_PLAYER:
            write = Ask("term", _("A term to write (only you see it)"),
                        (Button("", _("Write the term"), Action("term", player, ("",))),), field=True)
            if terms:
                now = _("Write {count} terms you expect in {teller}'s story, secretly. {written} of {count} written.")
            else:
                now = _("Write {count} terms you expect in {teller}'s story, secretly.")
            return now.format(count=count, teller=teller, written=len(terms)), (write, *erase)
        if [other for other in state.waiting_for() if other != teller]:
            return _("Your {count} terms are written. {waiting}").format(count=count, waiting=waiting(state, player)), erase
        return _("Everyone has written. Waiting for {teller} to start the story.").format(teller=teller), erase
    asks = []
    if set(terms) - ticked:
        asks.append(Ask("tick", _("Tick a term you heard"), tuple(
            Button(term, term, Action("tick", player, (term,)), name=_("Tick {term}").format(term=term))
            for term in terms if term not in ticked
        )))
    if ticked:
        asks.append(Ask("untick", _("Take back a tick"), tuple(
            Button(term, term, Action("untick", player, (term,)), name=_("Untick {term}").format(term=term))
            for term in terms if term in ticked
        )))
    if phase == Phase.REVIEW:
        return _("The story is over. Check your ticks; then {teller} confirms the score.").format(teller=teller), tuple(asks)
    asked = view.sheet(player).questions
    if asked < len(QUESTION_COSTS):
        cost = QUESTION_COSTS[asked]
        if asked:
            prompt = n_("Interrupt the story with a second question: it costs {count} point more",
                        "Interrupt the story with a second question: it costs {count} points more", cost).format(count=cost)
        else:
            prompt = _("Interrupt the story with a question: it costs {points}").format(points=points(cost))
        asks.append(_one("question", prompt, _("Ask a question"), Action("question", player)))
    return _("Listen to {teller}'s story and tick each of your terms you hear.").format(teller=teller), tuple(asks)


def _one(verb: str, prompt: str, text: str, action: Action) -> Ask:
    """An ask of one button."""
    return Ask(verb, prompt, (Button("", text, action),))


def _table_now(state: GameState, view: StoriesView) -> str:
    teller, phase = view.storyteller, view.phase
    if phase == Phase.CHOOSE:
        return _("{teller} is choosing the normal or the quirky side of the card.").format(teller=teller)
    if phase == Phase.TERMS:
        missing = [player for player in state.waiting_for() if player != teller]
        if missing:
            return _("Writing terms: waiting for {names}.").format(names=join_names(missing))
        return _("Everyone has written: {teller} starts the story.").format(teller=teller)
    if phase == Phase.NARRATION:
        return _("{teller} is telling the story.").format(teller=teller)
    return _("The story is over: the ticks are checked, then {teller} confirms.").format(teller=teller)


ADAPTER: GameAdapter = StoriesAdapter(SPEC)
