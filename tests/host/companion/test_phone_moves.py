"""A phone acts only for its owner. Its message is a verb and a value, which the session finds among
the moves its player's page offers now (`PhoneTurn.action`): no typed line, fuzzy name or guess.
Played here in every game, only from what the phones offer, with players named like a filler word
("An", "I") and accent twins ("Julian", "Julián"): every move a page offers is its player's own and
legal, and every phone command tried with another player's name in it acts for nobody else. The
session refuses on the sender's phone only, and refuses an offered action that is not its sender's."""
from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from games.base import Action, GameState, IllegalAction, Match, fold_name
from games.dixit import Position
from host.adapters.base import adapter_for
from host.adapters.views import PhoneTurn
from host.cli.catalog import make
from host.session.events import InputEnded, InputEvent, PhoneCommand
from host.session.inputs import Listening
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from tests.host.companion.test_shared_channel import settings

PLAYERS = {
    "dixit": ["An", "Julian", "Julián", "Bo"],
    "stories": ["I", "Julian", "Julián", "An"],
    "storytelling": ["An", "Julián", "Julian"],
}
#: terms a phone writes in a random Stories! game (nouns, none on a card)
TERMS = ["radio", "police", "sandwich", "truck", "pizza", "dinosaur", "horn", "brother", "apple", "engine",
         "window", "music", "garden", "kitchen", "banana", "mountain", "river", "castle", "rabbit", "pencil"]


#: moves that undo others, chosen seldom so that a random game goes on
SELDOM = ("erase", "untick")


def acts_for(state: GameState, action: Action, seat: str) -> bool:
    """Whether `action` is `seat`'s own, by the rules alone: the player it names (Dixit's owner
    names the card's giver last), else the one player the game waits for (the storyteller's clue,
    the active player's flip) or one of those it waits for."""
    if action.verb == "owner":
        return action.args[1] == seat
    if action.player is not None:
        return action.player == seat
    return seat in state.waiting_for()


def hostile(state: GameState, seat: str, verb: str) -> Iterator[str]:
    """Values naming other players, alone or around a value, and the values other pages offer."""
    adapter = adapter_for(state.game)
    for other in state.players:
        if other == seat:
            continue
        for name in {other, fold_name(other), other.upper()}:
            yield from (name, f"{name} 1", f"1 {name}", f"{verb} {name}", f"{verb} {name} 1", f"{name}, {name} radio")
        for ask in adapter.phone_turn(state, other).asks:
            for button in ask.buttons:
                yield from (button.value, f"{button.value} {other}", f"{other} {button.value}")


def offered(state: GameState, seat: str) -> Iterator[tuple[str, str, Action]]:
    for ask in adapter_for(state.game).phone_turn(state, seat).asks:
        for button in ask.buttons:
            if button.action is not None and not ask.field:
                yield ask.verb, button.value, button.action


def legal(state: GameState, action: Action) -> bool:
    trial = copy.deepcopy(state)
    try:
        trial.apply(action)
    except IllegalAction:
        return False
    return True


def fill(verb: str, rng: random.Random) -> str:
    return rng.choice(TERMS) if verb == "term" else f"a clue {rng.randint(1, 9)}"


@pytest.mark.parametrize("game, options, moves, reached", [
    ("dixit", (), 60, {"storyteller", "clue", "shown", "vote", "card", "owner"}),
    ("dixit", ("--owners", "every"), 40, {"card", "owner"}),
    ("stories", ("--timer", "30"), 80, {"side", "term", "erase", "start", "tick", "confirm"}),
    ("storytelling", ("--tale", "three-pigs", "--advanced"), 60, {"flip", "blow"}),
    ("storytelling", ("--tale", "cinderella", "--advanced"), 60, {"flip", "retire"}),
])
def test_phones_offer_their_players_own_legal_moves_and_nothing_else(
    game: str, options: tuple[str, ...], moves: int, reached: set[str],
) -> None:
    """Random moves chosen among the phones' offers only; at each step every player's every
    offer and every command naming another player are checked."""
    rng = random.Random(7)
    match = Match(make(game, settings(game, "--players", *PLAYERS[game], "--seed", "4", *options)))
    verbs = sorted(adapter_for(game).phone_verbs)
    for _ in range(moves):
        state = match.state
        if state.is_over():
            break
        choices = []
        for seat in state.players:
            turn = adapter_for(game).phone_turn(state, seat)
            for verb, value, action in offered(state, seat):
                assert acts_for(state, action, seat), (seat, action)
                assert legal(state, action), (seat, action)
                if verb not in SELDOM or rng.random() < 0.1:
                    choices.append(action)
            for ask in turn.asks:
                if ask.field:
                    choices.append(ask.action(fill(ask.verb, rng)) or Action("none"))
            for verb in verbs:
                for value in hostile(state, seat, verb):
                    action = turn.action(verb, value)
                    assert action is None or acts_for(state, action, seat), (seat, verb, value, action)
        assert choices, f"no phone can move: {state.status()}"
        action = rng.choice(choices)
        try:
            match.apply(action)
        except IllegalAction:  # a typed term the rules refuse
            assert action.verb == "term"
    assert reached <= {action.verb for action in match.log}, match.log


class Phones:
    """Every player's phone (a `PrivateChannel`), keeping what each was told."""

    def __init__(self) -> None:
        self.told: dict[str, list[str]] = {}

    def has(self, player: str) -> bool:
        return True

    def tell(self, player: str, lines: list[str]) -> None:
        self.told.setdefault(player, []).extend(lines)

    def refresh(self, session: Session) -> None:
        pass

    def renew(self, player: str) -> str:
        return ""


class Moves:
    """Input items one after the other, each made when the session asks for it (so it can look
    at the game as it is then), then the end of input."""

    def __init__(self, items: Iterator[InputEvent]) -> None:
        self.items = items

    def read(self, timeout: float | None) -> InputEvent:
        return next(self.items, InputEnded())

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        pass


def session(tmp_path: Path, game: str, players: list[str]) -> tuple[Session, Phones, list[str]]:
    store = GameStore(tmp_path / "games.sqlite3")
    saved = settings(game, "--players", *players, "--seed", "1")
    printed: list[str] = []
    phones = Phones()
    return Session(SessionConfig(store=store, game_id=store.create(game, saved), match=Match(make(game, saved)),
                                 output=TextOutput(write=printed.append), private=phones)), phones, printed


def test_a_phone_vote_counts_for_its_sender_only(tmp_path: Path) -> None:
    """The players of the bug report: 'An' (a filler word) and accent twins."""
    players = ["An", "Julian", "Julián", "Bo"]
    played, phones, printed = session(tmp_path, "dixit", players)

    def moves() -> Iterator[InputEvent]:
        yield PhoneCommand("Bo", "storyteller")
        yield PhoneCommand("Bo", "clue", "Two of a kind")
        yield PhoneCommand("Bo", "shown")
        yield PhoneCommand("Julián", "vote", "Julian 2")  # another's name: refused, nothing voted
        yield PhoneCommand("An", "vote", "Julián 3")
        yield PhoneCommand("Julian", "vote", "an 1")
        assert played.state.view(None).voted == ()
        yield PhoneCommand("An", "vote", "1")
        yield PhoneCommand("Julian", "vote", "2")
        assert {voter: played.state.view(voter).my_vote for voter in players[:3]} == {"An": 1, "Julian": 2, "Julián": None}
        yield PhoneCommand("Julián", "vote", "3")

    played.run(Moves(moves()))
    assert played.state.view(None).positions[:3] == (
        Position(1, None, ("An",)), Position(2, None, ("Julian",)), Position(3, None, ("Julián",)),
    )
    refused = "Refused: that is not yours to do now. Vote for the card you think is Bo's: press its number."
    assert phones.told["Julián"][0] == phones.told["An"][0] == phones.told["Julian"][0] == refused
    assert not [line for line in printed if "Refused" in line or "not yours" in line]  # on the sender's phone only


def test_an_offered_action_that_is_not_the_senders_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were an adapter to offer another player's action, the session would still refuse it."""
    played, phones, printed = session(tmp_path, "dixit", ["An", "Julian", "Julián"])
    adapter = adapter_for("dixit")
    honest: Callable[[GameState, str], PhoneTurn] = adapter.phone_turn

    def crossed(state: GameState, player: str) -> PhoneTurn:  # each page offers the next player's moves
        return honest(state, state.players[(state.players.index(player) + 1) % len(state.players)])

    def moves() -> Iterator[InputEvent]:
        yield from (PhoneCommand("An", "storyteller"), PhoneCommand("An", "clue", "x"), PhoneCommand("An", "shown"))
        monkeypatch.setattr(adapter, "phone_turn", crossed)
        yield PhoneCommand("Julian", "vote", "1")  # Julian's page offers Julián's vote

    played.run(Moves(moves()))
    assert played.state.view(None).voted == () and len(played.match.log) == 3
    assert phones.told["Julian"][0].startswith("Refused: that is not yours to do now.")


def test_a_phone_tick_names_its_own_term_and_the_table_hears_no_term(tmp_path: Path) -> None:
    played, phones, printed = session(tmp_path, "stories", ["I", "An", "Julian"])
    terms = {"An": ["radio", "police", "truck", "pizza", "horn"], "Julian": ["radio", "dog", "engine", "music", "apple"]}

    def moves() -> Iterator[InputEvent]:
        yield PhoneCommand("I", "side", "normal")
        for writer, written in terms.items():
            for term in written:
                yield PhoneCommand(writer, "term", term)
        yield PhoneCommand("I", "start")
        yield PhoneCommand("An", "tick", "radio, Julian radio")  # the same-word form that ticks another's term
        yield PhoneCommand("An", "tick", "dog")  # Julian's term
        yield PhoneCommand("An", "tick", "radio")
        yield PhoneCommand("Julian", "question")

    played.run(Moves(moves()))
    ticked = {player: [t.text for t in played.state.view(player).terms(player) if t.ticked] for player in terms}
    assert ticked == {"An": ["radio"], "Julian": []}
    assert "An ticks a term." in printed and "Julian asks a first question, which costs 1 point. I, answer it properly." in printed
    assert not [line for line in printed if any(term in line for term in ("radio", "dog", "police"))]
    assert phones.told["An"][-1] == "You ticked 'radio' (1 of 5)."
    assert [line for line in phones.told["An"] if line.startswith("Refused")] == [
        "Refused: that is not yours to do now. Listen to I's story and tick each of your terms you hear."] * 2


def test_storytelling_moves_only_from_the_active_players_phone(tmp_path: Path) -> None:
    played, phones, printed = session(tmp_path, "storytelling", ["An", "Julián", "Julian"])
    assert [verb for verb, _, _ in offered(played.state, "An")] == ["flip"] * 16
    assert list(offered(played.state, "Julián")) == []
    played.run(Moves(iter([PhoneCommand("Julián", "flip", "A1"), PhoneCommand("Julian", "flip", "A1 An")])))
    assert played.match.log == []
    assert phones.told["Julián"] == ["Refused: that is not yours to do now. Waiting for An."]
    played.run(Moves(iter([PhoneCommand("An", "flip", "A1")])))
    assert played.match.log == [Action("flip", None, ("A1",))]
