"""Stories!: the storyteller continues a card's opening sentence for a minute; the other players
score for the terms they secretly wrote down and heard in the story.

Rules: as `storyhost rules stories` gives them, with its RULINGS where the rulebook is open. Whether a
term may be written and whether two terms are the same is language work, left to a `TermRules`.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from games.base import (
    Action,
    BadArgument,
    Choice,
    DeckTooSmall,
    Event,
    GameSpec,
    GameState,
    GameView,
    GuessRefused,
    IllegalMove,
    NotYourTurn,
    Option,
    Outcome,
    SecretRefused,
    Services,
    SetupError,
    Settings,
    TermRules,
    Verb,
    already_set,
    check_player_names,
    join_names,
    most_points_wins,
    plural,
    quoted,
)
from games.decks import OpeningCard
from games.stories_scoring import (
    QUESTION_COSTS, WrittenTerm, explain_points, revealed, scored_terms, story_points,
)

TERMS_PER_PLAYER = 5
SIDES = ("normal", "quirky")
MIN_PLAYERS, MAX_PLAYERS = 3, 10
#: why a term was refused, in a few words (by the refusal's code), for a host that speaks briefly
BRIEF_REASONS = {
    "adverb": "an adverb",
    "pronoun": "a pronoun",
    "have_be": "a form of have or be",
    "not_content_word": "not a noun, verb or adjective",
    "on_card": "on the card",
    "free_phrase": "a free phrase",
    "several_terms": "a list",
    "duplicate": "already written",
    "empty": "no word",
}


class Phase(str, Enum):
    CHOOSE = "choose"
    TERMS = "terms"
    NARRATION = "narration"
    REVIEW = "review"
    OVER = "over"


def _briefly(code: str) -> str | None:
    """A term refused, in a few words: 'Refused: an adverb.' (None for a reason without a short form)."""
    reason = BRIEF_REASONS.get(code)
    return None if reason is None else f"Refused: {reason}."


@dataclass(frozen=True)
class TermView:
    """A written term as a view shows it."""

    text: str
    ticked: bool


@dataclass(frozen=True)
class SheetView:
    """A writer's sheet: how many terms are written and ticked, the questions asked, and the
    terms themselves only in their writer's own view, and in everyone's once the story is over."""

    writer: str
    written: int
    ticked: int
    questions: int
    terms: tuple[TermView, ...] | None


@dataclass(frozen=True)
class StoriesView(GameView):
    """Where the game stands: the story (numbered from 1) and its storyteller, the sentence chosen,
    the scores, each writer's sheet; `card`, both sides, only in the storyteller's own view."""

    phase: Phase
    round: int
    rounds: int
    story: int
    stories: int
    storyteller: str
    card: OpeningCard | None
    side: str | None
    sentence: str | None
    timer_seconds: int
    scores: Mapping[str, int]
    last_story_points: Mapping[str, int] | None
    sheets: tuple[SheetView, ...]

    def sheet(self, writer: str) -> SheetView:
        """`writer`'s sheet (KeyError: the storyteller, or no player, has none)."""
        found = next((sheet for sheet in self.sheets if sheet.writer == writer), None)
        if found is None:
            raise KeyError(writer)
        return found

    def terms(self, writer: str) -> tuple[TermView, ...]:
        """`writer`'s terms as this view shows them (none when hidden from it)."""
        return self.sheet(writer).terms or ()


def ordinal(count: int) -> str:
    return ("first", "second")[count - 1]


class StoriesState(GameState):
    game = "stories"
    not_copied = ("term_rules",)
    verbs = {
        "side": Verb("side", True, ("side",), "The storyteller picks the normal or the quirky opening sentence."),
        "term": Verb("term", True, ("term...",), "Write one of your 5 terms, secretly."),
        "erase": Verb("erase", True, ("term...",), "Erase one of your terms before the story starts."),
        "start": Verb("start", False, (), "Start the story and the timer once everyone has written 5 terms."),
        "tick": Verb(
            "tick",
            True,
            ("term...",),
            "Tick one of your terms that the storyteller said; players who heard it in the same word tick "
            "together, before any Stop!: tick Sabine wool, Melanie wool.",
        ),
        "untick": Verb("untick", True, ("term...",), "Take back a tick."),
        "question": Verb(
            "question", True, (), "Interrupt the story with a question: the first costs 1 point, the second 2 more."
        ),
        "timeup": Verb("timeup", False, (), "The timer has run out (at a keyboard storyhost's own timer says it)."),
        "confirm": Verb("confirm", False, (), "Accept the ticks and score the story."),
    }

    def __init__(
        self,
        players: Sequence[str],
        cards: Sequence[OpeningCard],
        seed: int,
        term_rules: TermRules,
        timer_seconds: int = 60,
    ) -> None:
        self.players = check_player_names(players, MIN_PLAYERS, MAX_PLAYERS)
        self.story_count = len(self.players) * (2 if len(self.players) <= 5 else 1)
        if len(cards) < self.story_count:
            raise DeckTooSmall(
                f"{len(self.players)} players tell {self.story_count} stories, so the deck needs at least "
                f"{self.story_count} cards, not {len(cards)}."
            )
        if timer_seconds < 1:
            raise SetupError("The timer must run for at least one second.")
        self.term_rules = term_rules
        self.timer_seconds = timer_seconds
        # The shuffle is the only randomness: the same seed deals the same deck. Cards are kept as
        # (normal, quirky) pairs because apply() copies the state on every move.
        shuffled = list(cards)
        random.Random(seed).shuffle(shuffled)
        self.deck = tuple((card.normal, card.quirky) for card in shuffled)
        self.totals = {player: 0 for player in self.players}
        self.last_story_points: dict[str, int] | None = None
        #: how the last story scored: said on 'score' and at verbosity detailed
        self.last_story_explanation: list[str] = []
        self.story = 0
        self._begin_story()

    # --- where the game stands ---------------------------------------------------------------

    @property
    def storyteller(self) -> str:
        return self.players[self.story % len(self.players)]

    @property
    def card(self) -> OpeningCard:
        return OpeningCard(*self.deck[self.story])

    @property
    def sentence(self) -> str | None:
        return None if self.side is None else getattr(self.card, self.side)

    @property
    def round(self) -> int:
        return self.story // len(self.players) + 1

    @property
    def writers(self) -> tuple[str, ...]:
        """Everyone but the storyteller, in seat order."""
        return tuple(player for player in self.players if player != self.storyteller)

    def _missing_terms(self) -> tuple[str, ...]:
        return tuple(player for player in self.writers if len(self.sheets[player]) < TERMS_PER_PLAYER)

    def _ticks(self, player: str) -> int:
        return sum(term.ticked for term in self.sheets[player])

    def _begin_story(self) -> None:
        self.phase = Phase.CHOOSE
        self.side: str | None = None
        self.sheets: dict[str, list[WrittenTerm]] = {player: [] for player in self.writers}
        self.questions = {player: 0 for player in self.writers}

    def _story_intro(self) -> list[Event]:
        """The instruction first, in a sentence of its own; then the two sides to choose from,
        read to the table only where players have no screens of their own (the rulebook: the
        storyteller looks at both sides, and reads the one chosen aloud; with phones they are on
        the storyteller's, or 'private NAME' shows them)."""
        teller = self.storyteller
        return [
            Event(
                f"Round {self.round}, story {self.story + 1} of {self.story_count}: {teller} is the storyteller "
                "and draws a card.",
                brief=f"Story {self.story + 1} of {self.story_count}: {teller} chooses.",
            ),
            Event(f"{teller}, choose normal or quirky.", brief="", own_screens=False),
            Event(f"{teller}, read both sides of the card on your phone, or type private {teller}, and choose one.",
                  brief="", own_screens=True),
            Event(f"Normal side: '{self.card.normal}'", brief=f"Normal: '{self.card.normal}'", own_screens=False),
            Event(f"Quirky side: '{self.card.quirky}'", brief=f"Quirky: '{self.card.quirky}'", own_screens=False),
        ]

    # --- actions -----------------------------------------------------------------------------

    def _expect_writer(self, player: str, reason: str) -> None:
        if player == self.storyteller:
            raise NotYourTurn(f"{player} is the storyteller and {reason}.")

    def _do_side(self, player: str, side: str) -> list[Event]:
        if self.phase != Phase.CHOOSE:
            raise IllegalMove("The side of this story's card has already been chosen.")
        if player != self.storyteller:
            raise NotYourTurn(f"Only the storyteller, {self.storyteller}, chooses the side of the card.")
        if side.casefold() not in SIDES:
            raise BadArgument(f"Choose the normal or the quirky side, not {quoted(side)}: side {player} normal or side {player} quirky.")
        self.side = side.casefold()
        self.phase = Phase.TERMS
        chosen = f"{player} chooses the {self.side} side: '{self.sentence}'"
        return [  # the rulebook: the storyteller reads the sentence chosen aloud; briefly, only if not yet read
            Event(chosen, brief=f"The {self.side} side.", own_screens=False),
            Event(chosen, brief=f"{self.side.capitalize()}: '{self.sentence}'", own_screens=True),
            Event(
                f"Everyone else, secretly write {TERMS_PER_PLAYER} terms you expect in the story.",
                brief=f"Others, write {TERMS_PER_PLAYER} terms.",
            ),
        ]

    def _expect_writing(self, player: str) -> None:
        if self.phase == Phase.CHOOSE:
            raise IllegalMove(f"Wait until {self.storyteller} has chosen a side of the card.")
        if self.phase != Phase.TERMS:
            raise IllegalMove("The story has started: terms can no longer be written or erased.")
        self._expect_writer(player, "writes no terms; each other player writes 5")

    def _do_term(self, player: str, text: str) -> list[Event]:
        self._expect_writing(player)
        sheet = self.sheets[player]
        if len(sheet) == TERMS_PER_PLAYER:
            raise IllegalMove(
                f"{player} has already written {TERMS_PER_PLAYER} terms; erase one first to write another."
            )
        term = " ".join(text.split())
        if not term:
            raise IllegalMove(f"Say the term to write after 'term {player}'.")
        same = next((written.text for written in sheet if self.term_rules.same(term, written.text)), None)
        if same is not None:
            alike = "" if same.casefold() == term.casefold() else f", and '{term}' counts as the same term"
            raise SecretRefused(
                f"{player} already wrote this term, or one that counts as the same: write another.",
                f"{player} already wrote '{same}'{alike}: write another.",
                _briefly("duplicate"),
            )
        sentence = already_set(self.sentence, "the card's sentence")
        refusal = self.term_rules.refusal(term, sentence, [written.text for written in sheet])
        if refusal is not None:  # terms are typed hidden: the table reads the reason without the term
            raise SecretRefused(refusal.hidden, refusal.shown, _briefly(refusal.code))
        sheet.append(WrittenTerm(term))
        events = [Event(f"You wrote '{term}' ({len(sheet)} of {TERMS_PER_PLAYER}).", to=player)]
        if len(sheet) == TERMS_PER_PLAYER:
            events.append(Event(
                f"{player}, to read your terms back, type private {player}: only you should look.",
                brief="", cue="readback",
            ))
        missing = self._missing_terms()
        if not missing:
            events.append(
                Event(
                    f"Everyone has written {TERMS_PER_PLAYER} terms. {self.storyteller}, read the sentence "
                    f"again, '{self.sentence}', then start the story.",
                    brief=f"All written. {self.storyteller}, start.",
                )
            )
        elif len(sheet) == TERMS_PER_PLAYER:  # the table hears who is still writing, not every term
            events.append(Event(f"Waiting for terms from {join_names(missing)}.", brief=f"Waiting for {join_names(missing)}."))
        return events

    def _find_term(self, player: str, text: str, ticked: bool | None = None) -> WrittenTerm:
        """The first of `player`'s terms that is the same as `text` (and ticked as asked). Until
        the terms are revealed this refusal is a guess refused: the table must not learn of it
        (a host answers it as it answers the legal move), or anyone could test guesses at
        another player's terms; only the player's own screen hears why."""
        matches = [term for term in self.sheets[player] if self.term_rules.same(term.text, text)]
        found = next((term for term in matches if ticked is None or term.ticked == ticked), None)
        if found is not None:
            return found
        if self.phase != Phase.REVIEW:
            which = {None: "", True: "ticked ", False: "unticked "}[ticked]
            undone = {None: "Not erased", True: "Not unticked", False: "Not ticked"}[ticked]
            raise GuessRefused(
                f"{player} has no {which}term like that; 'private {player}' shows {player}'s terms, to {player} only.",
                f"{undone}: you have no {which}term like {quoted(text)}.",
            )
        if not matches:
            raise IllegalMove(f"{player} has not written {quoted(text)}; name one of {player}'s own terms.")
        state = "already ticked" if ticked is False else "not ticked"
        raise IllegalMove(f"{player}'s term '{matches[0].text}' is {state}.")

    def _do_erase(self, player: str, text: str) -> list[Event]:
        self._expect_writing(player)
        sheet = self.sheets[player]
        term = self._find_term(player, text)
        sheet.remove(term)
        return [
            Event(f"You erased '{term.text}' ({len(sheet)} of {TERMS_PER_PLAYER}).", to=player),
            Event(
                f"{player} erased a term and has written {len(sheet)} of {TERMS_PER_PLAYER} terms.",
                brief=f"{player} erased a term.", cue="secret",
            ),
        ]

    def _do_start(self) -> list[Event]:
        if self.phase == Phase.CHOOSE:
            raise IllegalMove(f"{self.storyteller} must choose a side of the card first.")
        if self.phase != Phase.TERMS:
            raise IllegalMove("The story has already started.")
        missing = self._missing_terms()
        if missing:
            raise IllegalMove(f"Wait for terms from {join_names(missing)} before the story starts.")
        self.phase = Phase.NARRATION
        return [
            Event(
                f"The timer runs {self.timer_seconds} seconds. {self.storyteller} tells the story: "
                f"'{self.sentence}'",
                brief=f"{self.storyteller}, go: {self.timer_seconds} seconds.",
            )
        ]

    def _do_tick(self, player: str, text: str) -> list[Event]:
        """One tick, or the ticks one heard word earns ("wool, Melanie wool"): RULINGS, every
        tick earned by the word that completed a fifth term counts before Stop! takes effect."""
        events = []
        for writer, term in self._same_word_ticks(player, text):
            events += self._set_tick(writer, term, True)
        if self.phase == Phase.NARRATION:
            done = [writer for writer in self.writers if self._ticks(writer) == TERMS_PER_PLAYER]
            if done:
                has = "has" if len(done) == 1 else "have"
                events.append(Event(f"Stop! {join_names(done)} {has} ticked all five terms."))
                events.extend(self._end_narration())
        return events

    def _same_word_ticks(self, player: str, text: str) -> list[tuple[str, str]]:
        """(player, term) for each tick of "TERM, NAME TERM, ...": a comma followed by a
        player's name starts another player's tick (a term holds no comma)."""
        first, *pieces = text.split(",")
        ticks = [[player, first]]
        for piece in pieces:
            name, _, term = piece.strip().partition(" ")
            other = next((p for p in self.players if p.casefold() == name.casefold()), None)
            if other is not None and term.strip():
                ticks.append([other, term])
            else:  # a comma inside a term written before terms held none
                ticks[-1][1] += "," + piece
        return [(writer, term.strip()) for writer, term in ticks]

    def _do_untick(self, player: str, text: str) -> list[Event]:
        return self._set_tick(player, text, False)

    def _set_tick(self, player: str, text: str, ticked: bool) -> list[Event]:
        if self.phase not in (Phase.NARRATION, Phase.REVIEW):
            raise IllegalMove("Terms are ticked while the story is told, or corrected after it.")
        self._expect_writer(player, "has no terms to tick")
        term = self._find_term(player, text, ticked=not ticked)
        term.ticked = ticked
        verb = "ticks" if ticked else "unticks"
        count = f"({self._ticks(player)} of {TERMS_PER_PLAYER})"
        if self.phase == Phase.REVIEW:  # the terms are revealed now
            return [Event(f"{player} {verb} '{term.text}' {count}.", brief=f"{player} {verb} {term.text}.")]
        # The table hears no count: a count would tell whoever typed an earlier tick, hidden,
        # whether it named a term of this player's.
        return [
            Event(f"You {verb[:-1]}ed '{term.text}' {count}.", to=player),
            Event(f"{player} {verb} a term.", brief=f"{player} {verb}.", cue="secret"),
        ]

    def _do_question(self, player: str) -> list[Event]:
        if self.phase != Phase.NARRATION:
            raise IllegalMove("Questions may only be asked while the story is being told.")
        self._expect_writer(player, "answers questions rather than asking them")
        asked = self.questions[player]
        if asked == len(QUESTION_COSTS):
            raise IllegalMove(f"{player} has already asked {asked} questions in this story, the most allowed.")
        self.questions[player] = asked + 1
        cost = QUESTION_COSTS[asked]
        price = f"{cost} more points" if asked else plural(cost, 'point')
        return [
            Event(
                f"{player} asks a {ordinal(asked + 1)} question, which costs {price}. "
                f"{self.storyteller}, answer it properly.",
                brief=f"{player}'s question, {price}.",
            )
        ]

    def _do_timeup(self) -> list[Event]:
        if self.phase != Phase.NARRATION:
            raise IllegalMove("The timer is not running.")
        return [Event("Time is up!"), *self._end_narration()]

    def _end_narration(self) -> list[Event]:
        self.phase = Phase.REVIEW
        sheets = " ".join(revealed(player, sheet) for player, sheet in self.sheets.items())
        return [
            Event(f"The story is over. {sheets}", brief=sheets),
            Event(
                "Correct the ticks with tick or untick if needed, then confirm to score the story.",
                brief="Correct ticks, then confirm.",
            ),
        ]

    def _do_confirm(self) -> list[Event]:
        if self.phase != Phase.REVIEW:
            raise IllegalMove("Confirm after the story has ended, to score it.")
        points = self._story_points()
        before = dict(self.totals)
        for player, gained in points.items():
            self.totals[player] = max(0, self.totals[player] + gained)
        self.last_story_points = {player: points[player] for player in self.players}
        self.last_story_explanation = self._explanation(f"Story {self.story + 1}")
        moved = ", ".join(f"{player} {total} ({total - before[player]:+d})" for player, total in self.totals.items())
        events = [
            Event(
                "Points for this story: "
                + ", ".join(f"{player} {points[player]}" for player in self.writers)
                + f"; {self.storyteller}, the storyteller, {points[self.storyteller]}.",
                brief="",
            ),
            *(Event(line, detail=True) for line in self.last_story_explanation),
            Event(self.score_report()[0], brief=f"Scores: {moved}."),  # each running score, and what it gained
        ]
        if self.story + 1 == self.story_count:
            self.phase = Phase.OVER
            events.append(Event(f"The game is over. {most_points_wins(self.totals).text}"))
        else:
            self.story += 1
            self._begin_story()
            events.extend(self._story_intro())
        return events

    # --- what may happen next ----------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        if self.phase == Phase.CHOOSE:
            return [
                Choice(Action("side", self.storyteller, (side,)), f"{self.storyteller} chooses the {side} side")
                for side in SIDES
            ]
        if self.phase == Phase.TERMS:
            return self._writing_choices()
        if self.phase == Phase.OVER:
            return []
        choices = self._tick_choices()
        if self.phase == Phase.NARRATION:
            choices += [
                Choice(Action("question", player), f"{player} asks a question")
                for player in self.writers
                if self.questions[player] < len(QUESTION_COSTS)
            ]
            choices.append(Choice(Action("timeup"), "The time is up"))
        else:
            choices.append(Choice(Action("confirm"), "Confirm the ticks and score the story"))
        return choices

    def _writing_choices(self) -> list[Choice]:
        choices = []
        for player in self.writers:
            written = len(self.sheets[player])
            if written < TERMS_PER_PLAYER:
                choices.append(Choice(Action("term", player, ("<term>",)), f"{player} writes a term", True))
            if written:
                choices.append(Choice(Action("erase", player, ("<term>",)), f"{player} erases a term", True))
        if not self._missing_terms():
            choices.append(Choice(Action("start"), "Start the story"))
        return choices

    def _tick_choices(self) -> list[Choice]:
        """While the story is told, every writer may tick or untick a term they name, whatever
        they have ticked: the moves offered (in help, hints, spoken phrases) must not tell which
        terms are written or ticked. Once the terms are revealed, each tick or untick is offered
        by its term."""
        if self.phase == Phase.NARRATION:
            return [
                Choice(Action(verb, player, ("<term>",)), f"{player} {doing}", True)
                for player in self.writers
                for verb, doing in (("tick", "ticks a term"), ("untick", "takes back a tick"))
            ]
        return [
            Choice(
                Action("untick" if term.ticked else "tick", player, (term.text,)),
                f"{player} {'unticks' if term.ticked else 'ticks'} {term.text}",
            )
            for player in self.writers
            for term in self.sheets[player]
        ]

    def waiting_for(self) -> tuple[str, ...]:
        if self.phase in (Phase.CHOOSE, Phase.NARRATION):
            return (self.storyteller,)
        if self.phase == Phase.TERMS:
            return self._missing_terms() or (self.storyteller,)
        if self.phase == Phase.REVIEW:
            return self.players
        return ()

    def status(self) -> str:
        """Where the game stands and the whole task of the moment, with the card's sentence."""
        if self.phase == Phase.OVER:
            return f"The game is over. {most_points_wins(self.totals).text}"
        teller = self.storyteller
        where = f"Round {self.round}, story {self.story + 1} of {self.story_count}. {teller} is the storyteller."
        if self.phase == Phase.CHOOSE:  # the two sides are the storyteller's to read: 'private' shows them
            return f"{where} {teller}, choose normal or quirky; 'private {teller}' shows {teller} both sides of the card."
        card = f"The card: '{self.sentence}'"
        if self.phase == Phase.TERMS:
            missing = self._missing_terms()
            if missing:
                return f"{where} {card} Waiting for terms from {join_names(missing)}."
            return f"{where} Everyone has written the terms: {teller}, read the sentence again, '{self.sentence}', then start the story."
        if self.phase == Phase.NARRATION:
            return f"{where} {teller} is telling the story, '{self.sentence}'; the timer runs {self.timer_seconds} seconds."
        return (
            f"{where} The story is over: correct the ticks with tick or untick if needed, then confirm "
            "to score the story."
        )

    def _story_points(self) -> dict[str, int]:
        """This story's points, the storyteller's included."""
        points = story_points(self.sheets, self.questions, self.term_rules.same)
        points[self.storyteller] = max(0, *points.values())
        return points

    def _explanation(self, story: str) -> list[str]:
        """Who scores what for which term in this story: only once its terms are revealed."""
        assert self.phase == Phase.REVIEW
        lines = explain_points(
            scored_terms(self.sheets, self.term_rules.same), self.questions, self._story_points(), self.storyteller
        )
        return [f"{story}: {lines[0]}", *lines[1:]]

    def score_report(self) -> list[str]:
        """The scores, then how the last story scored; after a story ends, what it would score
        if confirmed now (its terms are revealed then, never before)."""
        if self.phase == Phase.REVIEW:
            return [*super().score_report(), *self._explanation(f"Story {self.story + 1}, if confirmed now")]
        return [*super().score_report(), *self.last_story_explanation]

    def secret_input(self) -> bool:
        return self.phase == Phase.TERMS

    def secret_words(self) -> frozenset[str]:
        """While the story is told its words are typed in the open ('say'), but a tick names a
        term that is still secret."""
        return frozenset({"tick", "untick"}) if self.phase == Phase.NARRATION else frozenset()

    def secrets(self, player: str) -> list[str]:
        if player == self.storyteller and self.phase == Phase.CHOOSE:
            return [f"Normal side: '{self.card.normal}'", f"Quirky side: '{self.card.quirky}'"]
        sheet = self.sheets.get(player)
        if not sheet:
            return []
        terms = ", ".join(f"{term.text}{' (ticked)' if term.ticked else ''}" for term in sheet)
        return [f"Your terms: {terms}."]

    def opening(self) -> list[Event]:
        return self._story_intro() if self.phase == Phase.CHOOSE else [Event(self.status())]

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.OVER:
            return None
        return most_points_wins(self.totals)

    def view(self, player: str | None) -> StoriesView:
        revealed = self.phase in (Phase.REVIEW, Phase.OVER)
        sheets = tuple(
            SheetView(
                writer, len(sheet), self._ticks(writer), self.questions[writer],
                tuple(TermView(term.text, term.ticked) for term in sheet) if revealed or writer == player else None,
            )
            for writer, sheet in self.sheets.items()
        )
        return StoriesView(
            phase=self.phase,
            round=self.round,
            rounds=self.story_count // len(self.players),
            story=self.story + 1,
            stories=self.story_count,
            storyteller=self.storyteller,
            # both sides are the storyteller's to read (the rulebook); the table hears the one chosen
            card=self.card if player == self.storyteller else None,
            side=self.side,
            sentence=self.sentence,
            timer_seconds=self.timer_seconds,
            scores=self.scores(),
            last_story_points=self.last_story_points,
            sheets=sheets,
        )

    moves = {
        "side": _do_side,
        "term": _do_term,
        "erase": _do_erase,
        "start": _do_start,
        "tick": _do_tick,
        "untick": _do_untick,
        "question": _do_question,
        "timeup": _do_timeup,
        "confirm": _do_confirm,
    }


def _make(settings: Settings, services: Services) -> StoriesState:
    cards = [OpeningCard(**card) for card in settings["cards"]]
    return StoriesState(
        settings["players"], cards, settings["seed"], services.term_rules(), timer_seconds=settings["timer_seconds"]
    )


SPEC = GameSpec(
    "stories", "Stories!", MIN_PLAYERS, MAX_PLAYERS,
    (Option("timer_seconds", 60, "seconds per story", low=1, high=3600, flag="timer"),),
    _make,
)
