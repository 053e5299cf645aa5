"""A human Storytelling storyteller reads the card aloud; the host works out which card it is.

At the start of each turn the host asks the storyteller to read the card on top of their pile
and listens to free speech. Each utterance is added to what was heard of this reading, and
`nlp.cards.CardIdentifier` compares it with the tale's card texts, in the game's language. Once it is sure: the expected
card is confirmed and the active player hears the pictures to find; another card is asked
about ("read 9" tells the engine the storyteller's pile differs from the host's). When as many
words as the best-matching card holds were heard and no card is sure, the host asks about that
card; on "no" it listens to the reading afresh.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from games.base import Action, Event, GameState, already_set, view_of
from games.language import _
from games.storytelling import Phase, StorytellingView
from host.adapters.listening import Announce, Ask, Attention, BasicListener, Response
from host.speech.hearing import Heard
from host.voice.control import Question
from nlp.cards import CardIdentifier, words


@dataclass
class Recognised:
    """The outcome of hearing one more utterance of a reading."""

    number: int | None  # the card, once sure
    expected: int  # the card on top of the host's pile
    #: as many words as this card holds were heard, and no card is sure: the one to ask about
    guess: int | None = None


@dataclass
class CardReading(BasicListener):
    """Listens to the card read aloud at the start of each turn, until it knows which it is."""

    texts: dict[int, str]
    #: the language the cards are read in (the game's: see games.decks.Tale.of_game)
    language: str = "en"
    identifier: CardIdentifier = field(init=False)
    heard: list[str] = field(default_factory=list)
    #: the turn whose card is known; None before the first
    known: int | None = None
    #: the pictures line held back until the card is known
    held: str | None = None

    def __post_init__(self) -> None:
        self.identifier = CardIdentifier(self.texts, self.language)

    def waiting(self, state: GameState) -> bool:
        """A turn has begun and the card read aloud is not known yet."""
        view = view_of(state, None, StorytellingView)
        flipped = any(place.name is not None for place in view.grid)
        return view.phase == Phase.FLIP and not flipped and view.turn != self.known

    def begin(self, state: GameState, pictures: str) -> str:
        """A new card is on top: hold the pictures back, ask the storyteller to read."""
        self.heard, self.held = [], pictures
        return _("Storyteller, please read card {number} aloud.").format(number=_card_number(state))

    def attention(self, state: GameState) -> Attention | None:
        return Attention(story=False) if self.waiting(state) else None

    def hear(self, state: GameState, heard: Heard) -> Iterator[Response]:
        """One more utterance of the reading: the card once sure, or a question about it."""
        if not heard.hypothesis.final or heard.hypothesis.confirmed or not self.waiting(state):
            return
        recognised = self.recognise(state, heard.hypothesis.text)
        if recognised.guess is not None:  # the whole card was heard, and the host is not sure
            yield Ask(Question(_("Was that card {number}?").format(number=recognised.guess), _read(recognised.guess),
                               plain=True))
        elif recognised.number == recognised.expected:
            yield Announce(tuple(self.confirm(state)))
        elif recognised.number is not None:
            yield Ask(Question(
                _("That was card {number}, not card {expected} on top of the pile. Play card {number}?").format(
                    number=recognised.number, expected=recognised.expected),
                _read(recognised.number), plain=True,
            ))

    def recognise(self, state: GameState, text: str) -> Recognised:
        expected = _card_number(state)
        if text:
            self.heard.append(text)
        heard = " ".join(self.heard)
        guess = self.identifier.identify(heard)
        if guess is None:
            return Recognised(None, expected)
        if self.identifier.sure(guess):
            return Recognised(guess.number, expected)
        if len(words(heard, self.language)) < len(words(self.texts[guess.number], self.language)):  # still reading
            return Recognised(None, expected)
        self.heard = []
        return Recognised(None, expected, guess=guess.number)

    def confirm(self, state: GameState) -> list[str]:
        """The card read is the one the engine has: the lines the active player needs now."""
        self.known, self.heard = view_of(state, None, StorytellingView).turn, []
        number = _card_number(state)
        held, self.held = self.held, None
        return [_("Card {number}.").format(number=number), *([held] if held else [])]

    def announced(self, state: GameState, events: list[Event], action: Action | None) -> list[Event]:
        """What the table hears of `events`: a person reads the card, not the host, which holds
        back the pictures to find until it knows the card (or was told by 'read N')."""
        out = []
        for event in events:
            if event.cue == "pictures" and action is not None and action.verb == "read":
                self.held = event.text
                out += [Event(line) for line in self.confirm(state)]
            elif event.cue == "pictures":
                out.append(Event(self.begin(state, event.text)))
            elif event.cue != "card":
                out.append(event)
        return out


def _card_number(state: GameState) -> int:
    """The number of the card of the turn being played."""
    return already_set(view_of(state, None, StorytellingView).card, "the card").number


def _read(number: int) -> Action:
    """The storyteller read card `number` (their pile differs from the host's when it is not the one on top)."""
    return Action("read", None, (str(number),))
