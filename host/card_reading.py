"""A human Storytelling storyteller reads the card aloud; the host works out which card it is.

At the start of each turn the host asks the storyteller to read the card on top of their pile
and listens to free speech. Each utterance is added to what was heard of this reading, and
`nlp.cards.CardIdentifier` compares it with the tale's card texts. Once it is sure: the expected
card is confirmed and the active player hears the pictures to find; another card is asked
about ("read 9" tells the engine the storyteller's pile differs from the host's).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.base import GameState
from nlp.cards import CardIdentifier


@dataclass
class Recognised:
    """The outcome of hearing one more utterance of a reading."""

    number: int | None  # the card, once sure
    expected: int  # the card on top of the host's pile


@dataclass
class CardReading:
    texts: dict[int, str]
    identifier: CardIdentifier = field(init=False)
    heard: list[str] = field(default_factory=list)
    #: the turn whose card is known (see `_turn`); None before the first
    known: tuple[int, ...] | None = None
    #: the pictures line held back until the card is known
    held: str | None = None

    def __post_init__(self) -> None:
        self.identifier = CardIdentifier(self.texts)

    @staticmethod
    def _turn(state: GameState) -> tuple[int, ...]:
        """Different for every turn: a turn always moves a card out of the draw pile."""
        view = state.view(None)
        won = sum(len(player["cards"]) for player in view["players"])
        return (view["draw_pile"], view["read_pile"], won, len((view["race"] or {}).get("discarded", ())))

    def waiting(self, state: GameState) -> bool:
        """A turn has begun and the card read aloud is not known yet."""
        view = state.view(None)
        flipped = any(name is not None for name in view["grid"].values())
        return view["phase"] == "flip" and not flipped and self._turn(state) != self.known

    def begin(self, state: GameState, pictures: str) -> str:
        """A new card is on top: hold the pictures back, ask the storyteller to read."""
        self.heard, self.held = [], pictures
        return f"Storyteller, please read card {state.view(None)['card']['number']} aloud."

    def hear(self, state: GameState, text: str) -> Recognised:
        expected = state.view(None)["card"]["number"]
        if text:
            self.heard.append(text)
        guess = self.identifier.identify(" ".join(self.heard))
        return Recognised(guess.number if self.identifier.sure(guess) else None, expected)

    def confirm(self, state: GameState) -> list[str]:
        """The card read is the one the engine has: the lines the active player needs now."""
        self.known, self.heard = self._turn(state), []
        number = state.view(None)["card"]["number"]
        held, self.held = self.held, None
        return [f"Card {number}.", *([held] if held else [])]
