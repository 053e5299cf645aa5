"""Stories!: the storyteller continues a card's opening sentence for a minute; the other players
score for the terms they secretly wrote down and heard in the story.

Rules: as `storyhost rules stories` gives them, with its RULINGS where the rulebook is open. Whether a
term may be written and whether two terms are the same is language work, left to a `TermRules`.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
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
    fold_name,
    join_names,
    most_points_wins,
    points,
    quoted,
)
from games.language import N_, _, n_, p_
from games.decks import OpeningCard
from games.stories_scoring import (
    QUESTION_COSTS, WrittenTerm, explain_points, revealed, scored_terms, story_points,
)

TERMS_PER_PLAYER = 5
SIDES = ("normal", "quirky")
MIN_PLAYERS, MAX_PLAYERS = 3, 10
#: why a term was refused, in a few words (by the refusal's code), for a host that speaks briefly
BRIEF_REASONS = {
    "adverb": N_("Refused: an adverb."),
    "pronoun": N_("Refused: a pronoun."),
    "have_be": N_("Refused: a form of have or be."),
    "not_content_word": N_("Refused: not a noun, verb or adjective."),
    "on_card": N_("Refused: on the card."),
    "free_phrase": N_("Refused: a free phrase."),
    "several_terms": N_("Refused: a list."),
    "duplicate": N_("Refused: already written."),
    "empty": N_("Refused: no word."),
}


#: a tick and an untick said: once the terms are revealed (in full, briefly), then while they are
#: secret (to the player, to the table in full, briefly)
TICKED = (N_("{player} ticks '{term}' ({count} of {most})."), N_("{player} ticks {term}."),
          N_("You ticked '{term}' ({count} of {most})."), N_("{player} ticks a term."), N_("{player} ticks."))
UNTICKED = (N_("{player} unticks '{term}' ({count} of {most})."), N_("{player} unticks {term}."),
            N_("You unticked '{term}' ({count} of {most})."), N_("{player} unticks a term."), N_("{player} unticks."))


class Phase(str, Enum):
    CHOOSE = "choose"
    TERMS = "terms"
    NARRATION = "narration"
    REVIEW = "review"
    OVER = "over"


def _briefly(code: str) -> str | None:
    """A term refused, in a few words: 'Refused: an adverb.' (None for a reason without a short form)."""
    reason = BRIEF_REASONS.get(code)
    return None if reason is None else _(reason)


@dataclass(frozen=True)
class TermView:
    """A written term as a view shows it."""

    text: str
    ticked: bool


def listed_terms(terms: Iterable[WrittenTerm | TermView]) -> str:
    """A sheet's terms in a list, each ticked one marked: 'snow (ticked), igloo'."""
    return _(", ").join(_("{term} (ticked)").format(term=term.text) if term.ticked else term.text for term in terms)


def _review_words() -> dict[str, str]:
    """The commands that correct and score a story, in the table's language."""
    return {verb: p_("verb", verb) for verb in ("tick", "untick", "confirm")}


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


def side_said(side: str) -> str:
    """A side of the card ("normal", "quirky") in the table's language, as typed and said."""
    return p_("side", "normal") if side == "normal" else p_("side", "quirky")


def _the_side(typed: str) -> str | None:
    """The side a typed word names, in the table's language or in English (None: no side)."""
    folded = fold_name(typed)
    return next((side for side in SIDES if folded in (side, fold_name(side_said(side)))), None)


class StoriesState(GameState):
    game = "stories"
    not_copied = ("term_rules",)
    verbs = {
        "side": Verb("side", True, ("side",), N_("The storyteller picks the normal or the quirky opening sentence."),
                     value_said=side_said),
        "term": Verb("term", True, ("term...",), N_("Write one of your 5 terms, secretly.")),
        "erase": Verb("erase", True, ("term...",), N_("Erase one of your terms before the story starts.")),
        "start": Verb("start", False, (), N_("Start the story and the timer once everyone has written 5 terms.")),
        "tick": Verb(
            "tick",
            True,
            ("term...",),
            N_("Tick one of your terms that the storyteller said; players who heard it in the same word tick "
               "together, before any Stop!: tick Sabine wool, Melanie wool."),
        ),
        "untick": Verb("untick", True, ("term...",), N_("Take back a tick.")),
        "question": Verb(
            "question", True, (), N_("Interrupt the story with a question: the first costs 1 point, the second 2 more.")
        ),
        "timeup": Verb("timeup", False, (), N_("The timer has run out (at a keyboard storyhost's own timer says it).")),
        "confirm": Verb("confirm", False, (), N_("Accept the ticks and score the story.")),
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
                _("{players} players tell {stories} stories, so the deck needs at least {stories} cards, not {count}.")
                .format(players=len(self.players), stories=self.story_count, count=len(cards))
            )
        if timer_seconds < 1:
            raise SetupError(_("The timer must run for at least one second."))
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
        teller, story, stories = self.storyteller, self.story + 1, self.story_count
        return [
            Event(
                _("Round {round}, story {story} of {stories}: {teller} is the storyteller and draws a card.").format(
                    round=self.round, story=story, stories=stories, teller=teller),
                brief=_("Story {story} of {stories}: {teller} chooses.").format(story=story, stories=stories, teller=teller),
            ),
            Event(_("{teller}, choose {normal} or {quirky}.").format(
                teller=teller, normal=side_said("normal"), quirky=side_said("quirky")), brief="", own_screens=False),
            Event(_("{teller}, read both sides of the card on your phone, or type {private} {teller}, and choose one.")
                  .format(teller=teller, private=p_("verb", "private")), brief="", own_screens=True),
            *(Event(text, brief=brief, own_screens=False) for text, brief in self._sides()),
        ]

    def _sides(self) -> list[tuple[str, str]]:
        """Both sides of the card: (the sentence with its side, briefly)."""
        return [
            (_("Normal side: '{sentence}'").format(sentence=self.card.normal),
             _("Normal: '{sentence}'").format(sentence=self.card.normal)),
            (_("Quirky side: '{sentence}'").format(sentence=self.card.quirky),
             _("Quirky: '{sentence}'").format(sentence=self.card.quirky)),
        ]

    # --- actions -----------------------------------------------------------------------------

    def _expect_writer(self, player: str, reason: str) -> None:
        if player == self.storyteller:
            raise NotYourTurn(reason.format(player=player))

    def _do_side(self, player: str, side: str) -> list[Event]:
        if self.phase != Phase.CHOOSE:
            raise IllegalMove(_("The side of this story's card has already been chosen."))
        if player != self.storyteller:
            raise NotYourTurn(_("Only the storyteller, {teller}, chooses the side of the card.").format(
                teller=self.storyteller))
        chosen_side = _the_side(side)
        if chosen_side is None:
            raise BadArgument(_("Choose the normal or the quirky side, not {typed}: {normal} or {quirky}.").format(
                typed=quoted(side), normal=f"{p_('verb', 'side')} {player} {side_said('normal')}",
                quirky=f"{p_('verb', 'side')} {player} {side_said('quirky')}"))
        self.side = chosen_side
        self.phase = Phase.TERMS
        sentence = self.sentence
        if self.side == "normal":
            chosen = _("{teller} chooses the normal side: '{sentence}'").format(teller=player, sentence=sentence)
            briefly, read = _("The normal side."), _("Normal: '{sentence}'").format(sentence=sentence)
        else:
            chosen = _("{teller} chooses the quirky side: '{sentence}'").format(teller=player, sentence=sentence)
            briefly, read = _("The quirky side."), _("Quirky: '{sentence}'").format(sentence=sentence)
        return [  # the rulebook: the storyteller reads the sentence chosen aloud; briefly, only if not yet read
            Event(chosen, brief=briefly, own_screens=False),
            Event(chosen, brief=read, own_screens=True),
            Event(
                _("Everyone else, secretly write {count} terms you expect in the story.").format(count=TERMS_PER_PLAYER),
                brief=_("Others, write {count} terms.").format(count=TERMS_PER_PLAYER),
            ),
        ]

    def _expect_writing(self, player: str) -> None:
        if self.phase == Phase.CHOOSE:
            raise IllegalMove(_("Wait until {teller} has chosen a side of the card.").format(teller=self.storyteller))
        if self.phase != Phase.TERMS:
            raise IllegalMove(_("The story has started: terms can no longer be written or erased."))
        self._expect_writer(player, _("{player} is the storyteller and writes no terms; each other player writes 5."))

    def _do_term(self, player: str, text: str) -> list[Event]:
        self._expect_writing(player)
        sheet = self.sheets[player]
        if len(sheet) == TERMS_PER_PLAYER:
            raise IllegalMove(
                _("{player} has already written {count} terms; erase one first to write another.").format(
                    player=player, count=TERMS_PER_PLAYER)
            )
        term = " ".join(text.split())
        if not term:
            raise IllegalMove(_("Say the term to write after '{verb} {player}'.").format(
                verb=p_("verb", "term"), player=player))
        same = next((written.text for written in sheet if self.term_rules.same(term, written.text)), None)
        if same is not None:
            if same.casefold() == term.casefold():
                shown = _("{player} already wrote '{term}': write another.").format(player=player, term=same)
            else:
                shown = _("{player} already wrote '{term}', and '{typed}' counts as the same term: write another.").format(
                    player=player, term=same, typed=term)
            raise SecretRefused(
                _("{player} already wrote this term, or one that counts as the same: write another.").format(player=player),
                shown,
                _briefly("duplicate"),
            )
        sentence = already_set(self.sentence, "the card's sentence")
        refusal = self.term_rules.refusal(term, sentence, [written.text for written in sheet])
        if refusal is not None:  # terms are typed hidden: the table reads the reason without the term
            raise SecretRefused(refusal.hidden, refusal.shown, _briefly(refusal.code))
        sheet.append(WrittenTerm(term))
        events = [Event(_("You wrote '{term}' ({count} of {most}).").format(
            term=term, count=len(sheet), most=TERMS_PER_PLAYER), to=player)]
        if len(sheet) == TERMS_PER_PLAYER:
            events.append(Event(
                _("{player}, to read your terms back, type {private} {player}: only you should look.").format(
                    player=player, private=p_("verb", "private")),
                brief="", cue="readback",
            ))
        missing = self._missing_terms()
        if not missing:
            events.append(
                Event(
                    _("Everyone has written {count} terms. {teller}, read the sentence again, '{sentence}', then "
                      "start the story.").format(count=TERMS_PER_PLAYER, teller=self.storyteller, sentence=self.sentence),
                    brief=_("All written. {teller}, start.").format(teller=self.storyteller),
                )
            )
        elif len(sheet) == TERMS_PER_PLAYER:  # the table hears who is still writing, not every term
            events.append(Event(_("Waiting for terms from {names}.").format(names=join_names(missing)),
                                brief=_("Waiting for {names}.").format(names=join_names(missing))))
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
            hidden, private = {
                None: (N_("{player} has no term like that; '{private} {player}' shows {player}'s terms, to {player} only."),
                       N_("Not erased: you have no term like {typed}.")),
                True: (N_("{player} has no ticked term like that; '{private} {player}' shows {player}'s terms, to "
                          "{player} only."),
                       N_("Not unticked: you have no ticked term like {typed}.")),
                False: (N_("{player} has no unticked term like that; '{private} {player}' shows {player}'s terms, "
                           "to {player} only."),
                        N_("Not ticked: you have no unticked term like {typed}.")),
            }[ticked]
            raise GuessRefused(_(hidden).format(player=player, private=p_("verb", "private")),
                               _(private).format(typed=quoted(text)))
        if not matches:
            raise IllegalMove(_("{player} has not written {typed}; name one of {player}'s own terms.").format(
                player=player, typed=quoted(text)))
        if ticked is False:
            raise IllegalMove(_("{player}'s term '{term}' is already ticked.").format(player=player, term=matches[0].text))
        raise IllegalMove(_("{player}'s term '{term}' is not ticked.").format(player=player, term=matches[0].text))

    def _do_erase(self, player: str, text: str) -> list[Event]:
        self._expect_writing(player)
        sheet = self.sheets[player]
        term = self._find_term(player, text)
        sheet.remove(term)
        return [
            Event(_("You erased '{term}' ({count} of {most}).").format(
                term=term.text, count=len(sheet), most=TERMS_PER_PLAYER), to=player),
            Event(
                _("{player} erased a term and has written {count} of {most} terms.").format(
                    player=player, count=len(sheet), most=TERMS_PER_PLAYER),
                brief=_("{player} erased a term.").format(player=player), cue="secret",
            ),
        ]

    def _do_start(self) -> list[Event]:
        if self.phase == Phase.CHOOSE:
            raise IllegalMove(_("{teller} must choose a side of the card first.").format(teller=self.storyteller))
        if self.phase != Phase.TERMS:
            raise IllegalMove(_("The story has already started."))
        missing = self._missing_terms()
        if missing:
            raise IllegalMove(_("Wait for terms from {names} before the story starts.").format(names=join_names(missing)))
        self.phase = Phase.NARRATION
        seconds = self.timer_seconds
        return [
            Event(
                n_("The timer runs {seconds} second. {teller} tells the story: '{sentence}'",
                   "The timer runs {seconds} seconds. {teller} tells the story: '{sentence}'", seconds).format(
                    seconds=seconds, teller=self.storyteller, sentence=self.sentence),
                brief=n_("{teller}, go: {seconds} second.", "{teller}, go: {seconds} seconds.", seconds).format(
                    teller=self.storyteller, seconds=seconds),
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
                events.append(Event(n_("Stop! {names} has ticked all five terms.",
                                       "Stop! {names} have ticked all five terms.", len(done)).format(names=join_names(done))))
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
            raise IllegalMove(_("Terms are ticked while the story is told, or corrected after it."))
        self._expect_writer(player, _("{player} is the storyteller and has no terms to tick."))
        term = self._find_term(player, text, ticked=not ticked)
        term.ticked = ticked
        said = TICKED if ticked else UNTICKED
        fields = {"player": player, "term": term.text, "count": self._ticks(player), "most": TERMS_PER_PLAYER}
        if self.phase == Phase.REVIEW:  # the terms are revealed now
            return [Event(_(said[0]).format(**fields), brief=_(said[1]).format(**fields))]
        # The table hears no count: a count would tell whoever typed an earlier tick, hidden,
        # whether it named a term of this player's.
        return [
            Event(_(said[2]).format(**fields), to=player),
            Event(_(said[3]).format(**fields), brief=_(said[4]).format(**fields), cue="secret"),
        ]

    def _do_question(self, player: str) -> list[Event]:
        if self.phase != Phase.NARRATION:
            raise IllegalMove(_("Questions may only be asked while the story is being told."))
        self._expect_writer(player, _("{player} is the storyteller and answers questions rather than asking them."))
        asked = self.questions[player]
        if asked == len(QUESTION_COSTS):
            raise IllegalMove(_("{player} has already asked {count} questions in this story, the most allowed.").format(
                player=player, count=asked))
        self.questions[player] = asked + 1
        cost = QUESTION_COSTS[asked]
        if asked:
            price = n_("{count} more point", "{count} more points", cost).format(count=cost)
            asks = _("{player} asks a second question, which costs {price}. {teller}, answer it properly.")
        else:
            price = points(cost)
            asks = _("{player} asks a first question, which costs {price}. {teller}, answer it properly.")
        return [
            Event(
                asks.format(player=player, price=price, teller=self.storyteller),
                brief=_("{player}'s question, {price}.").format(player=player, price=price),
            )
        ]

    def _do_timeup(self) -> list[Event]:
        if self.phase != Phase.NARRATION:
            raise IllegalMove(_("The timer is not running."))
        return [Event(_("Time is up!")), *self._end_narration()]

    def _end_narration(self) -> list[Event]:
        self.phase = Phase.REVIEW
        sheets = " ".join(revealed(player, sheet) for player, sheet in self.sheets.items())
        return [
            Event(_("The story is over. {sheets}").format(sheets=sheets), brief=sheets),
            Event(
                _("Correct the ticks with {tick} or {untick} if needed, then {confirm} to score the story.").format(
                    **_review_words()),
                brief=_("Correct ticks, then {confirm}.").format(**_review_words()),
            ),
        ]

    def _do_confirm(self) -> list[Event]:
        if self.phase != Phase.REVIEW:
            raise IllegalMove(_("Confirm after the story has ended, to score it."))
        points = self._story_points()
        before = dict(self.totals)
        for player, gained in points.items():
            self.totals[player] = max(0, self.totals[player] + gained)
        self.last_story_points = {player: points[player] for player in self.players}
        self.last_story_explanation = self._explanation(self.story + 1, confirmed=True)
        moved = _(", ").join(_("{player} {score} ({change})").format(player=player, score=total,
                                                                     change=f"{total - before[player]:+d}")
                             for player, total in self.totals.items())
        events = [
            Event(
                _("Points for this story: {points}; {teller}, the storyteller, {told}.").format(
                    points=_(", ").join(_("{player} {score}").format(player=player, score=points[player])
                                        for player in self.writers),
                    teller=self.storyteller, told=points[self.storyteller]),
                brief="",
            ),
            *(Event(line, detail=True) for line in self.last_story_explanation),
            # each running score, and what it gained
            Event(self.score_report()[0], brief=_("Scores: {scores}.").format(scores=moved)),
        ]
        if self.story + 1 == self.story_count:
            self.phase = Phase.OVER
            events.append(Event(_("The game is over. {outcome}").format(outcome=most_points_wins(self.totals).text)))
        else:
            self.story += 1
            self._begin_story()
            events.extend(self._story_intro())
        return events

    # --- what may happen next ----------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        if self.phase == Phase.CHOOSE:
            teller = self.storyteller
            return [
                Choice(Action("side", teller, ("normal",)), _("{teller} chooses the normal side").format(teller=teller)),
                Choice(Action("side", teller, ("quirky",)), _("{teller} chooses the quirky side").format(teller=teller)),
            ]
        if self.phase == Phase.TERMS:
            return self._writing_choices()
        if self.phase == Phase.OVER:
            return []
        choices = self._tick_choices()
        if self.phase == Phase.NARRATION:
            choices += [
                Choice(Action("question", player), _("{player} asks a question").format(player=player))
                for player in self.writers
                if self.questions[player] < len(QUESTION_COSTS)
            ]
            choices.append(Choice(Action("timeup"), _("The time is up")))
        else:
            choices.append(Choice(Action("confirm"), _("Confirm the ticks and score the story")))
        return choices

    def _writing_choices(self) -> list[Choice]:
        choices = []
        for player in self.writers:
            written = len(self.sheets[player])
            if written < TERMS_PER_PLAYER:
                choices.append(Choice(Action("term", player, ("<term>",)), _("{player} writes a term").format(player=player), True))
            if written:
                choices.append(Choice(Action("erase", player, ("<term>",)), _("{player} erases a term").format(player=player), True))
        if not self._missing_terms():
            choices.append(Choice(Action("start"), _("Start the story")))
        return choices

    def _tick_choices(self) -> list[Choice]:
        """While the story is told, every writer may tick or untick a term they name, whatever
        they have ticked: the moves offered (in help, hints, spoken phrases) must not tell which
        terms are written or ticked. Once the terms are revealed, each tick or untick is offered
        by its term."""
        if self.phase == Phase.NARRATION:
            return [
                Choice(Action(verb, player, ("<term>",)), _(doing).format(player=player), True)
                for player in self.writers
                for verb, doing in (("tick", N_("{player} ticks a term")), ("untick", N_("{player} takes back a tick")))
            ]
        return [
            Choice(
                Action("untick" if term.ticked else "tick", player, (term.text,)),
                _(UNTICKED[1] if term.ticked else TICKED[1]).format(player=player, term=term.text).removesuffix("."),
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
            return _("The game is over. {outcome}").format(outcome=most_points_wins(self.totals).text)
        teller, sentence = self.storyteller, self.sentence
        where = _("Round {round}, story {story} of {stories}. {teller} is the storyteller.").format(
            round=self.round, story=self.story + 1, stories=self.story_count, teller=teller)
        if self.phase == Phase.CHOOSE:  # the two sides are the storyteller's to read: 'private' shows them
            now = _("{teller}, choose {normal} or {quirky}; '{private} {teller}' shows {teller} both sides of the "
                    "card.").format(teller=teller, normal=side_said("normal"), quirky=side_said("quirky"),
                                    private=p_("verb", "private"))
        elif self.phase == Phase.TERMS:
            missing = self._missing_terms()
            if missing:
                now = _("The card: '{sentence}' Waiting for terms from {names}.").format(
                    sentence=sentence, names=join_names(missing))
            else:
                now = _("Everyone has written the terms: {teller}, read the sentence again, '{sentence}', then start "
                        "the story.").format(teller=teller, sentence=sentence)
        elif self.phase == Phase.NARRATION:
            now = n_("{teller} is telling the story, '{sentence}'; the timer runs {seconds} second.",
                     "{teller} is telling the story, '{sentence}'; the timer runs {seconds} seconds.",
                     self.timer_seconds).format(teller=teller, sentence=sentence, seconds=self.timer_seconds)
        else:
            now = _("The story is over: correct the ticks with {tick} or {untick} if needed, then {confirm} to score "
                    "the story.").format(**_review_words())
        return f"{where} {now}"

    def _story_points(self) -> dict[str, int]:
        """This story's points, the storyteller's included."""
        points = story_points(self.sheets, self.questions, self.term_rules.same)
        points[self.storyteller] = max(0, *points.values())
        return points

    def _explanation(self, story: int, confirmed: bool) -> list[str]:
        """Who scores what for which term in this story (`confirmed`, or if confirmed now): only
        once its terms are revealed."""
        assert self.phase == Phase.REVIEW
        lines = explain_points(
            scored_terms(self.sheets, self.term_rules.same), self.questions, self._story_points(), self.storyteller
        )
        heading = _("Story {story}: {rule}") if confirmed else _("Story {story}, if confirmed now: {rule}")
        return [heading.format(story=story, rule=lines[0]), *lines[1:]]

    def score_report(self) -> list[str]:
        """The scores, then how the last story scored; after a story ends, what it would score
        if confirmed now (its terms are revealed then, never before)."""
        if self.phase == Phase.REVIEW:
            return [*super().score_report(), *self._explanation(self.story + 1, confirmed=False)]
        return [*super().score_report(), *self.last_story_explanation]

    def secret_input(self) -> bool:
        return self.phase == Phase.TERMS

    def secret_words(self) -> frozenset[str]:
        """While the story is told its words are typed in the open ('say'), but a tick names a
        term that is still secret."""
        return frozenset({"tick", "untick"}) if self.phase == Phase.NARRATION else frozenset()

    def secrets(self, player: str) -> list[str]:
        if player == self.storyteller and self.phase == Phase.CHOOSE:
            return [text for text, _brief in self._sides()]
        sheet = self.sheets.get(player)
        if not sheet:
            return []
        return [_("Your terms: {terms}.").format(terms=listed_terms(sheet))]

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
    (Option("timer_seconds", 60, N_("seconds per story"), low=1, high=3600, flag="timer"),),
    _make,
)
