"""Storytelling engine: the rulebook's examples, the four advanced rules, a human storyteller
reading another card than the top one, refusals that change nothing, and random playouts of
every tale."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.base import (
    Action, Event, GameIsOver, IllegalAction, Match, NotYourTurn, Outcome, SetupError, UnknownCommand, join_names,
)
from games.decks import FRAME_COLOURS, TALE_KEYS, Tale, TaleCard, Tile
from games.storytelling import Clock, Holding, Phase, PlaceView, Race, StorytellingState, rank
from tests.games.playout import check_finished_match, random_playout, snapshot

SAINT_GEORGE_TILES = (
    "DRAGON", "SAINT GEORGE", "HORSE", "BREATH", "BLOOD", "PRINCESS", "KING", "CASTLE",
    "SWORD", "SHIELD", "LANCE", "ROSE", "VILLAGE", "SHEEP", "CAVE", "SPRING",
)
PIGS_TILES = (
    "WOLF", "HOUSE OF STRAW", "BLEW", "HOUSE OF STICKS", "HOUSE OF BRICKS", "FIRST PIG", "SECOND PIG",
    "THIRD PIG", "MOTHER PIG", "CHIMNEY", "POT", "FIRE", "APPLE TREE", "FAIR", "TURNIP", "DOOR",
)
#: frames cycle red, blue, green, yellow: card 1 (CINDERELLA, SLIPPER, PUMPKIN) has no green frame
CINDERELLA_TILES = (
    "CINDERELLA", "SLIPPER", "STEPMOTHER", "PUMPKIN", "PRINCE", "FAIRY GODMOTHER", "STEPSISTERS", "MICE",
    "BALL", "CARRIAGE", "PALACE", "DRESS", "WAND", "KITCHEN", "STAIRS", "CLOCK",
)
RACE_TILES = (
    "HARE", "TORTOISE", "FOX", "ROAD", "TREE", "NAP", "FINISH LINE", "OWL",
    "MEADOW", "RIVER", "BRIDGE", "CROWD", "SUN", "CARROT", "LETTUCE", "STONE",
)


def make_tale(key: str, names: Sequence[str], long_card: tuple[int, tuple[str, ...]], frames: bool = False) -> Tale:
    """Card n shows the tile names[n - 1] alone, but for one longer card; a card is worth one
    point per picture. Mostly single pictures keep random playouts short."""
    number, pictures = long_card
    cards = tuple(
        TaleCard(n, f"The text of card {n}.", pictures if n == number else (names[n - 1],),
                 len(pictures) if n == number else 1)
        for n in range(1, 14)
    )
    tiles = tuple(Tile(name, FRAME_COLOURS[i % 4] if frames else None) for i, name in enumerate(names))
    return Tale(key, key.replace("-", " ").title(), tiles, cards)


SAINT_GEORGE = make_tale("saint-george", SAINT_GEORGE_TILES, (10, ("DRAGON", "SAINT GEORGE", "HORSE", "BREATH")))
PIGS = make_tale("three-pigs", PIGS_TILES, (1, ("WOLF", "HOUSE OF STRAW", "BLEW")))
CINDERELLA = make_tale("cinderella", CINDERELLA_TILES, (1, ("CINDERELLA", "SLIPPER", "PUMPKIN")), frames=True)
RACE = make_tale("hare-tortoise", RACE_TILES, (3, ("HARE", "NAP", "TORTOISE")))
TALES = {tale.key: tale for tale in (SAINT_GEORGE, PIGS, CINDERELLA, RACE)}
NAMES = ("Marc", "Lea", "Tom", "Ana", "Ivo", "Zoe", "Bea", "Max")


def texts(events: list[Event]) -> list[str]:
    return [event.text for event in events]


def place(state: StorytellingState, name: str) -> str:
    return state.position(state.grid.index(name))


def flip(state: StorytellingState, name: str) -> list[Event]:
    return state.apply(Action("flip", None, (place(state, name),)))


def fail_turn(state: StorytellingState) -> list[Event]:
    """Flip a wrong tile that triggers no advanced rule."""
    needed = state.card.pictures[state.found]
    wrong = next(name for name in state.grid if name not in (needed, "BREATH", "BLEW"))
    return flip(state, wrong)


def win_turn(state: StorytellingState) -> list[Event]:
    events: list[Event] = []
    for picture in state.card.pictures[state.found:]:
        events += flip(state, picture)
    return events


def reading(player: str, number: int, picture: str) -> list[str]:
    """The announcements of a single-picture card."""
    return [
        f"{player}, it is your turn.",
        f"Card {number}: The text of card {number}.",
        f"{player}, find 1 picture in this order: {picture}.",
    ]


def full_state(state: StorytellingState) -> tuple:
    """The snapshot plus what views hide: where the face-down tiles lie, and the RNG."""
    return snapshot(state), list(state.grid), state.rng.getstate()


# --- the basic game -------------------------------------------------------------------------


def test_setup_deals_a_four_by_four_grid_and_reads_card_one() -> None:
    state = StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=3)
    assert sorted(state.grid) == sorted(SAINT_GEORGE_TILES)
    assert state.grid != list(SAINT_GEORGE_TILES)
    assert [str(choice.action) for choice in state.legal_actions()] == [
        *(f"flip {column}{row}" for row in "1234" for column in "ABCD"),
        *(f"read {number}" for number in range(1, 14)),
    ]
    assert state.legal_actions()[5].label == "flip B2"
    assert state.legal_actions()[16 + 6].label == "the storyteller reads card 7"
    assert texts(state.reading()) == reading("Marc", 1, "DRAGON")
    assert state.status() == (  # the grid's shape too: a player who cannot see the table pictures it
        "Card 1 is read. Marc is finding 1 picture in this order: DRAGON. None found yet. "
        "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4."
    )
    assert texts([state.shape()]) == ["The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4; A1 is the top left corner."]
    assert [event.text for event in state.opening()] == [state.shape().text, *reading("Marc", 1, "DRAGON")]
    assert state.waiting_for() == ("Marc",)
    view = state.view(None)
    assert view.grid == tuple(PlaceView(f"{column}{row}", None) for row in "1234" for column in "ABCD")
    assert view.card == TaleCard(1, "The text of card 1.", ("DRAGON",), 1)
    assert (view.draw_pile, view.read_pile, view.active, view.turn) == (12, 0, "Marc", 1)


def test_the_seed_decides_the_grid() -> None:
    grids = {tuple(StorytellingState(["Marc"], SAINT_GEORGE, seed).grid) for seed in range(5)}
    assert len(grids) == 5
    assert StorytellingState(["Marc"], SAINT_GEORGE, 7).grid == StorytellingState(["Lea"], SAINT_GEORGE, 7).grid


def reach_card_ten(advanced: bool, seed: int = 1) -> StorytellingState:
    """Lea and Marc fail cards 1 to 9: card 10 is read for Marc, as in the rulebook."""
    state = StorytellingState(["Lea", "Marc"], SAINT_GEORGE, seed, advanced=advanced)
    for _ in range(9):
        fail_turn(state)
    assert (state.card_number, state.active) == (10, "Marc")
    return state


def test_the_view_counts_the_turns() -> None:
    """Each turn draws a card; a card read instead changes no turn (a replay counts the same: the
    random playouts compare the views of a replay)."""
    state = StorytellingState(["Lea", "Marc"], SAINT_GEORGE, seed=1)
    state.apply(Action("read", None, ("5",)))
    assert state.view(None).turn == 1
    for _ in range(3):
        fail_turn(state)
    assert (state.view(None).turn, state.card_number) == (4, 3)


@pytest.mark.parametrize("advanced, wrong", [(False, "BLOOD"), (True, "BLOOD"), (False, "BREATH")])
def test_rulebook_example_saint_george_card_ten(advanced: bool, wrong: str) -> None:
    """DRAGON and SAINT GEORGE are right, then BLOOD (or BREATH) when the HORSE was needed: failed.
    Without the stinky breath rule (basic game, or no BREATH flipped) the grid stays as it was."""
    state = reach_card_ten(advanced)
    grid = list(state.grid)
    assert texts(flip(state, "DRAGON")) == [  # a tile's name is a label, said as one
        f"{place(state, 'DRAGON')}: DRAGON.",
        "Right, 1 of 4. Next: SAINT GEORGE.",
    ]
    assert texts(flip(state, "SAINT GEORGE")) == [
        f"{place(state, 'SAINT GEORGE')}: SAINT GEORGE.",
        "Right, 2 of 4. Next: HORSE.",
    ]
    assert state.status() == (  # the whole task: every picture, and the next
        "Card 10 is read. Marc is finding 4 pictures in this order: DRAGON, SAINT GEORGE, HORSE, BREATH. "
        "2 found, next: HORSE. The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4."
    )
    face_up = {tile.name for tile in state.view(None).grid if tile.name}
    assert face_up == {"DRAGON", "SAINT GEORGE"}
    assert state.view("Lea").found == ("DRAGON", "SAINT GEORGE")
    flipped = join_names(sorted(place(state, name) for name in ("DRAGON", "SAINT GEORGE", wrong)))
    events = flip(state, wrong)
    assert texts(events) == [
        f"{place(state, wrong)}: {wrong}.",
        "Wrong: HORSE was next.",
        f"{flipped} are turned face down again.",  # which tiles: a player who cannot see the table remembers
        *reading("Lea", 11, "LANCE"),
    ]
    assert state.grid == grid
    assert all(tile.name is None for tile in state.view(None).grid)
    assert (state.active, state.card_number, state.view(None).read_pile) == ("Lea", 11, 10)
    assert state.scores() == {"Lea": 0, "Marc": 0}


def test_finding_every_picture_in_order_wins_the_card() -> None:
    state = reach_card_ten(advanced=False)
    events = win_turn(state)
    assert texts(events)[-6:-3] == [
        f"{place(state, 'BREATH')}: BREATH.",
        "Marc wins card 10 and 4 points.",
        f"{join_names(sorted(place(state, name) for name in ('DRAGON', 'SAINT GEORGE', 'HORSE', 'BREATH')))} "
        "are turned face down again.",
    ]
    assert texts(events)[-3:] == reading("Lea", 11, "LANCE")
    assert state.scores() == {"Lea": 0, "Marc": 4}
    assert state.view(None).players[1] == Holding("Marc", (10,), 4, False)
    assert state.view(None).read_pile == 9


def test_the_read_pile_is_turned_over_lowest_number_on_top() -> None:
    state = StorytellingState(["Marc"], SAINT_GEORGE, seed=2)
    win_turn(state)
    for _ in range(11):
        fail_turn(state)
    events = fail_turn(state)
    assert texts(events)[-4:] == [
        "Every card has been read: the read pile is turned over, card 2 on top.",
        *reading("Marc", 2, "SAINT GEORGE"),
    ]
    assert (state.view(None).draw_pile, state.view(None).read_pile) == (11, 0)


def test_the_tenth_card_ends_the_game_at_once() -> None:
    state = StorytellingState(["Lea", "Marc"], SAINT_GEORGE, seed=4)
    for _ in range(9):
        win_turn(state)
    events = win_turn(state)
    assert texts(events)[-3:] == [  # every player's final points and cards, not only the winner's
        "Marc wins card 10 and 4 points.",
        "The game is over. Marc wins with 8 points.",
        f"Final scores: Lea 5 points, cards {join_names([str(n) for n in state.won['Lea']])}; "
        f"Marc 8 points, cards {join_names([str(n) for n in state.won['Marc']])}.",
    ]
    assert state.score_report() == [texts(events)[-1].replace("Final scores", "Scores")]
    assert state.is_over() and state.legal_actions() == [] and state.waiting_for() == ()
    assert state.outcome() == Outcome(("Marc",), "Marc wins with 8 points.")
    assert state.scores() == {"Lea": 5, "Marc": 8}
    assert state.status() == "The game is over. Marc wins with 8 points."
    with pytest.raises(GameIsOver):
        state.apply(Action("flip", None, ("A1",)))


@pytest.mark.parametrize("totals, outcome", [
    ({"Lea": (5, 2), "Marc": (7, 1)}, Outcome(("Marc",), "Marc wins with 7 points.")),
    ({"Lea": (5, 2), "Marc": (5, 3), "Tom": (1, 1)},
     Outcome(("Marc",), "Marc wins with 5 points, a tie broken by having more cards (3).")),
    ({"Lea": (5, 2), "Marc": (5, 2), "Tom": (4, 4)},
     Outcome(("Lea", "Marc"), "Lea and Marc share the victory with 5 points and 2 cards each.")),
    ({"Lea": (0, 0), "Marc": (0, 0)}, Outcome((), "Nobody has any card left: nobody wins.")),
    ({"Lea": (0, 0), "Marc": (1, 1)}, Outcome(("Marc",), "Marc wins with 1 point.")),
])
def test_rank_most_points_then_most_cards_then_shared(totals, outcome) -> None:
    assert rank(totals) == outcome


# --- the advanced rules ---------------------------------------------------------------------


def test_stinky_breath_reshuffles_exactly_the_flipped_tiles_into_their_places() -> None:
    changed = 0
    for seed in range(10):
        state = reach_card_ten(advanced=True, seed=seed)
        flip(state, "DRAGON")
        flip(state, "SAINT GEORGE")
        emptied = {state.grid.index(name) for name in ("DRAGON", "SAINT GEORGE", "BREATH")}
        before = list(state.grid)
        where = join_names([state.position(index) for index in sorted(emptied)])
        events = flip(state, "BREATH")
        assert texts(events)[:3] == [
            f"{state.position(before.index('BREATH'))}: BREATH.",
            "Wrong: HORSE was next.",
            f"The dragon's stinky breath! The 3 tiles flipped this turn, at {where}, are shuffled and put back "
            "face down in those places.",
        ]
        assert texts(events)[3:] == reading("Lea", 11, "LANCE")
        kept = [index for index in range(16) if index not in emptied]
        assert [state.grid[index] for index in kept] == [before[index] for index in kept]
        assert {state.grid[i] for i in emptied} == {"DRAGON", "SAINT GEORGE", "BREATH"}
        assert all(tile.name is None for tile in state.view(None).grid)
        changed += state.grid != before
    assert changed >= 5


def reach_wolf_blew(seed: int = 1) -> StorytellingState:
    """The rulebook's example: WOLF is right, then BLEW when the HOUSE OF STRAW was needed."""
    state = StorytellingState(["Marc", "Lea"], PIGS, seed, advanced=True)
    wolf = place(state, "WOLF")
    flip(state, "WOLF")
    events = flip(state, "BLEW")
    assert texts(events) == [
        f"{place(state, 'BLEW')}: BLEW.",
        "Wrong: HOUSE OF STRAW was next.",
        f"The wolf blew! {wolf} is turned face down again. BLEW stays face up at {place(state, 'BLEW')}. Marc must "
        "move the row or the column through BLEW: say blow row left, blow row right, blow column up or blow "
        "column down.",
    ]
    return state


def test_rulebook_example_the_wolf_blew_column_down() -> None:
    state = reach_wolf_blew()
    assert {tile.name for tile in state.view(None).grid if tile.name} == {"BLEW"}
    assert [str(choice.action) for choice in state.legal_actions()] == [
        "blow row left", "blow row right", "blow column up", "blow column down",
    ]
    assert state.legal_actions()[3].label == "blow the column down"
    assert state.waiting_for() == ("Marc",)
    before = list(state.grid)
    column = before.index("BLEW") % 4
    events = state.apply(state.parse("blow column down"))
    expected = list(before)
    for row in range(4):  # each tile one row down; the bottom one re-enters at the top
        expected[row * 4 + column] = before[(row - 1) % 4 * 4 + column]
    assert state.grid == expected
    # the tiles the table saw this turn (WOLF, BLEW) that were in the column: where each went
    went = [
        f"{name} from {state.position(before.index(name))} to {state.position(expected.index(name))}"
        for name in expected[column::4] if name in ("WOLF", "BLEW")
    ]
    assert texts(events) == [
        "Marc moves the column through BLEW one place down; the tile pushed out re-enters at the other end. "
        "BLEW is turned face down.",
        f"Tiles seen before that moved: {join_names(went)}.",
        *reading("Lea", 2, "HOUSE OF STRAW"),
    ]
    assert "BLEW from" in texts(events)[1]
    assert all(tile.name is None for tile in state.view(None).grid)
    assert state.view(None).read_pile == 1


@pytest.mark.parametrize("line, direction, source", [
    ("row", "left", lambda row, column: (row, (column + 1) % 4)),
    ("row", "right", lambda row, column: (row, (column - 1) % 4)),
    ("column", "up", lambda row, column: ((row + 1) % 4, column)),
])
def test_the_wolf_blows_any_line_either_way(line: str, direction: str, source) -> None:
    state = reach_wolf_blew(seed=5)
    before = list(state.grid)
    blew_row, blew_column = divmod(before.index("BLEW"), 4)
    state.apply(Action("blow", None, (line, direction)))
    for index in range(16):
        row, column = divmod(index, 4)
        on_line = row == blew_row if line == "row" else column == blew_column
        from_row, from_column = source(row, column) if on_line else (row, column)
        assert state.grid[index] == before[from_row * 4 + from_column]


def test_the_wolf_does_not_blow_in_the_basic_game() -> None:
    state = StorytellingState(["Marc", "Lea"], PIGS, seed=1)
    flip(state, "WOLF")
    assert texts(flip(state, "BLEW"))[3:] == reading("Lea", 2, "HOUSE OF STRAW")


def cinderella(players: Sequence[str] = ("Marc", "Lea"), clock_steps: int = 12) -> StorytellingState:
    return StorytellingState(players, CINDERELLA, seed=6, advanced=True, clock_steps=clock_steps)


def fail_with_frame(state: StorytellingState, colour: str) -> list[Event]:
    wrong = next(
        tile.name for tile in CINDERELLA.tiles
        if tile.frame == colour and tile.name != state.card.pictures[state.found]
    )
    return flip(state, wrong)


def test_cinderella_clock_moves_when_the_wrong_frame_matches_a_picture_of_the_card() -> None:
    state = cinderella()
    events = fail_with_frame(state, "red")  # PRINCE: red like CINDERELLA
    assert texts(events)[1:] == [
        "Wrong: CINDERELLA was next.",
        "The clock moves one step: 1 of 12 steps, 11 to midnight.",
        f"{state.position(state.grid.index(events[0].text[4:-1]))} is turned face down again.",
        "Marc must say retire, to keep their cards and leave the game, or stay.",
    ]
    assert state.view(None).clock == Clock(1, 12)
    assert state.status() == (
        "Marc must say retire, to keep their cards and leave the game, or stay. The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4. "
        "The clock: 1 of 12 steps, 11 to midnight."
    )
    assert [str(choice.action) for choice in state.legal_actions()] == ["retire", "stay"]
    assert texts(state.apply(Action("stay"))) == ["Marc stays in the game.", *reading("Lea", 2, "SLIPPER")]


def test_cinderella_clock_stays_when_no_frame_matches() -> None:
    state = cinderella()
    events = fail_with_frame(state, "green")  # card 1 has red, blue and yellow frames
    assert texts(events)[1:] == [
        "Wrong: CINDERELLA was next.",
        f"{events[0].text[:2]} is turned face down again.",
        "Marc must say retire, to keep their cards and leave the game, or stay.",
    ]
    assert state.view(None).clock == Clock(0, 12)


def test_cinderella_a_retired_player_keeps_the_cards_and_is_skipped() -> None:
    state = cinderella(("Marc", "Lea", "Tom"))
    win_turn(state)
    assert texts(state.apply(Action("retire")))[0] == "Marc retires and keeps 1 card worth 3 points."
    assert state.active == "Lea"
    fail_with_frame(state, "green")
    state.apply(Action("stay"))
    fail_with_frame(state, "green")
    state.apply(Action("stay"))
    assert state.active == "Lea"
    assert state.view(None).players[0] == Holding("Marc", (1,), 3, True)


def test_cinderella_midnight_takes_the_cards_of_those_who_stayed() -> None:
    state = cinderella(("Marc", "Lea"), clock_steps=2)
    win_turn(state)
    state.apply(Action("retire"))
    win_turn(state)  # Lea wins card 2
    state.apply(Action("stay"))
    assert texts(fail_with_frame(state, "green"))[2] == "The clock moves one step: 1 of 2 steps, 1 to midnight."
    state.apply(Action("stay"))
    events = fail_with_frame(state, "yellow")  # card 4: the PUMPKIN, yellow
    assert texts(events)[2:] == [
        "The clock moves one step: 2 of 2 steps, 0 to midnight.",
        "Midnight! Every player who has not retired loses all their cards: Lea.",
        "The game is over. Marc wins with 3 points.",
        "Final scores: Marc 3 points, card 1, retired; Lea 0 points, no card.",
    ]
    assert state.scores() == {"Marc": 3, "Lea": 0}
    assert state.outcome() == Outcome(("Marc",), "Marc wins with 3 points.")
    assert state.legal_actions() == []


def test_cinderella_clock_with_steps_that_are_not_hours() -> None:
    state = cinderella(("Marc",), clock_steps=5)
    assert texts(fail_with_frame(state, "red"))[2] == "The clock moves one step: 1 of 5 steps, 4 to midnight."
    assert state.status().endswith("The clock: 1 of 5 steps, 4 to midnight.")  # one scale, in news and status


def test_cinderella_the_tenth_card_still_ends_the_game() -> None:
    state = cinderella(("Marc",))
    for _ in range(9):
        win_turn(state)
        state.apply(Action("stay"))
    assert texts(win_turn(state))[-3:-1] == [
        "Marc wins card 10 and 1 point.",
        "The game is over. Marc wins with 12 points.",
    ]


def test_cinderella_ends_when_everyone_has_retired() -> None:
    state = cinderella(("Marc",))
    win_turn(state)
    assert texts(state.apply(Action("retire"))) == [
        "Marc retires and keeps 1 card worth 3 points.",
        "The game is over. Marc wins with 3 points.",
        "Final scores: Marc 3 points, card 1, retired.",
    ]
    assert state.is_over()


def race(players: Sequence[str] = ("Marc", "Lea", "Tom"), track_length: int = 16) -> StorytellingState:
    return StorytellingState(players, RACE, seed=8, advanced=True, track_length=track_length)


def test_race_setup_two_rows_of_eight_hare_on_the_player_count() -> None:
    state = race()
    assert [str(choice.action) for choice in state.legal_actions() if choice.action.verb == "flip"] == [
        f"flip {column}{row}" for row in "12" for column in "ABCDEFGH"
    ]
    assert (state.view(None).rows, state.view(None).columns) == (2, 8)
    assert state.view(None).race == Race(tortoise=0, hare=3, finish=16, discarded=())
    assert state.status() == (
        "Card 1 is read. Marc is finding 1 picture in this order: HARE. None found yet. "
        "The tiles lie in a grid of 8 columns, A to H, and 2 rows, 1 and 2. "
        "The tortoise is on square 0 and the hare on square 3; Finish is square 16."
    )
    # the race is cooperative: 'score' gives the race, not points nobody plays for
    assert state.score_report() == [
        "The tortoise is on square 0 and the hare on square 3; Finish is square 16. Cards won and discarded: 0."
    ]
    assert (StorytellingState(["Marc"], RACE, 8).rows, StorytellingState(["Marc"], RACE, 8).columns) == (4, 4)


def test_race_failure_moves_the_hare_and_a_won_card_the_tortoise() -> None:
    state = race()
    failed = texts(fail_turn(state))
    assert failed[2] == "The hare moves 1 square." and failed[3].endswith("is turned face down again.")
    assert failed[4] == "The tortoise is on square 0 and the hare on square 4; Finish is square 16."
    won = texts(win_turn(state))
    assert won[1] == "Lea wins card 2: it is discarded and the tortoise moves 2 squares."
    assert won[3] == "The tortoise is on square 2 and the hare on square 4; Finish is square 16."
    view = state.view(None)
    assert view.race is not None and view.race.discarded == (2,)
    assert view.read_pile == 1
    assert [player.cards for player in view.players] == [(), (), ()]
    assert state.scores() == {"Marc": 0, "Lea": 0, "Tom": 0}


def test_race_the_hare_at_finish_loses_for_everyone() -> None:
    state = race(("Marc",), track_length=2)
    assert texts(fail_turn(state))[-1] == "The game is over. The hare reaches Finish first: everyone loses."
    assert state.outcome() == Outcome((), "The hare reaches Finish first: everyone loses.")


def test_race_the_tortoise_at_finish_wins_for_everyone() -> None:
    state = race(("Marc", "Lea"), track_length=3)
    win_turn(state)
    events = win_turn(state)
    assert texts(events)[-2:] == [
        "The tortoise is on square 3 and the hare on square 2; Finish is square 3.",
        "The game is over. The tortoise reaches Finish first: everyone wins!",
    ]
    assert state.outcome().winners == ("Marc", "Lea")


# --- a human storyteller's own pile --------------------------------------------------------


def test_the_storyteller_reads_card_nine_first_and_card_one_goes_back_on_top() -> None:
    state = StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=1)
    events = state.apply(state.parse("read 9"))
    assert texts(events) == reading("Marc", 9, "SWORD")[1:]  # no new "your turn": it still is Marc's
    assert (state.card_number, state.active, state.draw) == (9, "Marc", [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13])
    assert state.status() == "Card 9 is read. Marc is finding 1 picture in this order: SWORD. None found yet. The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4."
    assert state.view(None).card == state.cards[8] and state.view(None).turn == 1  # the same turn, another card
    assert (state.view(None).draw_pile, state.view(None).read_pile) == (12, 0)
    reads = [str(choice.action) for choice in state.legal_actions() if choice.action.verb == "read"]
    assert reads == [f"read {number}" for number in (9, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13)]
    assert texts(win_turn(state))[-5:] == ["Marc wins card 9 and 1 point.", f"{place(state, 'SWORD')} is turned face down again.", *reading("Lea", 1, "DRAGON")]
    order = [state.card_number]
    for _ in range(12):
        fail_turn(state)
        order.append(state.card_number)
    # the draw pile went on in order without card 9; then the read pile was turned over
    assert order == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 1]
    assert state.scores() == {"Marc": 1, "Lea": 0}


def test_reading_again_before_a_flip_puts_the_card_read_back_on_top() -> None:
    state = StorytellingState(["Marc"], SAINT_GEORGE, seed=1)
    state.apply(state.parse("read 9"))
    assert texts(state.apply(state.parse("READ 5"))) == reading("Marc", 5, "BLOOD")[1:]
    assert (state.card_number, state.draw) == (5, [9, 1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 13])


def test_naming_the_card_on_top_changes_nothing_and_repeats_its_pictures() -> None:
    state = StorytellingState(["Marc"], SAINT_GEORGE, seed=1)
    draw = list(state.draw)
    assert texts(state.apply(state.parse("read 1"))) == reading("Marc", 1, "DRAGON")[1:]
    assert (state.card_number, state.draw) == (1, draw)


def test_no_read_once_a_tile_is_flipped_and_only_cards_of_the_draw_pile() -> None:
    state = reach_card_ten(advanced=False)
    reads = [str(choice.action) for choice in state.legal_actions() if choice.action.verb == "read"]
    assert reads == ["read 10", "read 11", "read 12", "read 13"]
    for number in range(1, 14):
        trial = StorytellingState(["Lea", "Marc"], SAINT_GEORGE, 1)
        for _ in range(9):
            fail_turn(trial)
        try:
            trial.apply(Action("read", None, (str(number),)))
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == (f"read {number}" in reads), number
    flip(state, "DRAGON")
    assert [choice.action.verb for choice in state.legal_actions()] == ["flip"] * 15


def test_undo_of_a_read_puts_the_top_card_back() -> None:
    match = Match(lambda: StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=1))
    match.apply(Action("read", None, ("9",)))
    match.undo()
    assert (match.state.card_number, match.state.draw) == (1, list(range(2, 14)))


# --- refusals, setup, views -----------------------------------------------------------------


def after_a_right_flip() -> StorytellingState:
    state = reach_card_ten(advanced=True)
    flip(state, "DRAGON")
    return state


def cinderella_deciding() -> StorytellingState:
    state = cinderella()
    fail_with_frame(state, "green")
    return state


def game_over() -> StorytellingState:
    state = race(("Marc",), track_length=2)
    fail_turn(state)
    return state


def reach_card_ten_advanced() -> StorytellingState:
    return reach_card_ten(advanced=True)


def after_marc_won_card_one() -> StorytellingState:
    state = StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=1)
    win_turn(state)
    return state


def after_the_race_discarded_card_one() -> StorytellingState:
    state = race(("Marc", "Lea"))
    win_turn(state)
    return state


NOT_NOW = "Marc must flip a face-down tile, for example flip A1."


@pytest.mark.parametrize("make, action, error, message", [
    (after_a_right_flip, "flip {DRAGON}", IllegalAction, "{DRAGON} is already face up: DRAGON. Flip a face-down tile."),
    (after_a_right_flip, "flip E1", IllegalAction,
     "There is no place 'E1' in a grid of 4 columns, A to D, and 4 rows, 1 to 4: say a column letter and a row "
     "number, for example flip A1."),
    (after_a_right_flip, "flip A0", IllegalAction, "There is no place 'A0' in a grid of 4 columns"),
    (after_a_right_flip, "flip B", IllegalAction, "There is no place 'B' in a grid of 4 columns"),
    (after_a_right_flip, "blow row left", IllegalAction, "You cannot blow now: Marc must flip a face-down tile"),
    (after_a_right_flip, "retire", IllegalAction, "You cannot retire now: Marc must flip a face-down tile"),
    (after_a_right_flip, "stay", IllegalAction, "You cannot stay now: Marc must flip a face-down tile"),
    (after_a_right_flip, Action("flip", "Lea", ("A1",)), NotYourTurn,
     "It is Marc's turn; say the command without a name."),
    (after_a_right_flip, Action("flip"), IllegalAction, "Say it like this: flip POSITION."),
    (after_a_right_flip, Action("dance"), UnknownCommand, "'dance' is not a command here; 'help' lists them."),
    (after_a_right_flip, "read 11", IllegalAction,
     "A tile has already been flipped for card 10: the storyteller can change the card only before the first "
     "flip of the turn."),
    (after_a_right_flip, Action("read"), IllegalAction, "Say it like this: read NUMBER."),
    (reach_card_ten_advanced, "read 3", IllegalAction, "Card 3 has already been read: it is in the read pile."),
    (reach_card_ten_advanced, "read 14", IllegalAction,
     "The cards are numbered 1 to 13: say one of those numbers, not '14'."),
    (reach_card_ten_advanced, "read 0", IllegalAction,
     "The cards are numbered 1 to 13: say one of those numbers, not '0'."),
    (reach_card_ten_advanced, "read eleven", IllegalAction,
     "The cards are numbered 1 to 13: say one of those numbers, not 'eleven'."),
    (after_marc_won_card_one, "read 1", IllegalAction,
     "Card 1 has been won by Marc: it is no longer in the draw pile."),
    (after_the_race_discarded_card_one, "read 1", IllegalAction,
     "Card 1 has been won and discarded: it is no longer in the draw pile."),
    (reach_wolf_blew, "flip A1", IllegalAction,
     "You cannot flip a tile now: Marc must move the row or the column through BLEW: say blow row left, "
     "blow row right, blow column up or blow column down."),
    (reach_wolf_blew, "stay", IllegalAction, "You cannot stay now: Marc must move the row or the column"),
    (reach_wolf_blew, "blow row up", IllegalAction,
     "Say blow row left, blow row right, blow column up or blow column down."),
    (reach_wolf_blew, "blow diagonal left", IllegalAction, "Say blow row left, "),
    (cinderella_deciding, "flip A1", IllegalAction,
     "You cannot flip a tile now: Marc must say retire, to keep their cards and leave the game, or stay."),
    (cinderella_deciding, "blow column up", IllegalAction, "You cannot blow now: Marc must say retire"),
    (cinderella_deciding, "read 2", IllegalAction, "You cannot read another card now: Marc must say retire"),
    (reach_wolf_blew, "read 2", IllegalAction,
     "You cannot read another card now: Marc must move the row or the column through BLEW"),
    (game_over, "flip A1", GameIsOver, "The game is over"),
])
def test_illegal_actions_are_refused_and_change_nothing(make, action, error, message) -> None:
    state = make()
    if isinstance(action, str):
        if "{DRAGON}" in action:
            action, message = (text.replace("{DRAGON}", place(state, "DRAGON")) for text in (action, message))
        action = state.parse(action)
    before = full_state(state)
    with pytest.raises(error) as refusal:
        state.apply(action)
    assert str(refusal.value).startswith(message)
    assert full_state(state) == before


@pytest.mark.parametrize("typed", ["FLIP b3", "flip B3", "flip b 3", "b3", "B 3", "3b", "flip 3 B", " b  3 "])
def test_a_flip_is_typed_in_any_case_with_or_without_a_space_and_flip(typed: str) -> None:
    state = StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=1)
    action = state.parse(typed)
    assert action == Action("flip", None, ("B3",))
    assert texts(state.apply(action))[0] == f"B3: {state.grid[9]}."


def test_commands_parse_in_any_case() -> None:
    state = StorytellingState(["Marc", "Lea"], SAINT_GEORGE, seed=1)
    assert state.parse("BLOW Row LEFT") == Action("blow", None, ("Row", "LEFT"))
    assert state.parse("flip b 33") == Action("flip", None, ("B33",))  # refused when played: no row 33
    assert state.verbs["flip"].usage == "flip POSITION"
    assert state.verbs["blow"].usage == "blow LINE DIRECTION"


@pytest.mark.parametrize("players, tale, options, message", [
    ([], SAINT_GEORGE, {}, "This game needs 1 to 8 players, not 0."),
    (NAMES + ("Ida",), SAINT_GEORGE, {}, "This game needs 1 to 8 players, not 9."),
    (["Marc", "marc"], SAINT_GEORGE, {}, "Two players are called 'marc'"),
    (["Marc"], Tale("snow-white", "Snow White", SAINT_GEORGE.tiles, SAINT_GEORGE.cards), {},
     "Unknown tale 'snow-white': choose one of saint-george, three-pigs, cinderella or hare-tortoise."),
    (["Marc"], Tale("saint-george", "T", SAINT_GEORGE.tiles[:15], SAINT_GEORGE.cards), {},
     "A tale needs 16 tiles with different names, not 15."),
    (["Marc"], Tale("saint-george", "T", SAINT_GEORGE.tiles[:15] + SAINT_GEORGE.tiles[:1], SAINT_GEORGE.cards), {},
     "A tale needs 16 tiles with different names, not 16."),
    (["Marc"], Tale("saint-george", "T", SAINT_GEORGE.tiles, SAINT_GEORGE.cards[1:]), {},
     "A tale needs 13 cards numbered 1 to 13."),
    (["Marc"], Tale("saint-george", "T", SAINT_GEORGE.tiles,
                    (TaleCard(1, "x", ("UNICORN",), 1),) + SAINT_GEORGE.cards[1:]), {},
     "Card 1 must show different pictures, each one a tile of the tale."),
    (["Marc"], Tale("saint-george", "T", SAINT_GEORGE.tiles,
                    (TaleCard(1, "x", ("KING", "KING"), 1),) + SAINT_GEORGE.cards[1:]), {},
     "Card 1 must show different pictures, each one a tile of the tale."),
    (["Marc"], Tale("cinderella", "C", SAINT_GEORGE.tiles, SAINT_GEORGE.cards), {"advanced": True},
     "Every Cinderella tile needs a frame colour: red, blue, green or yellow."),
    (["Marc"], Tale("saint-george", "T", PIGS.tiles, PIGS.cards), {"advanced": True},
     "The advanced rules of this tale need a BREATH tile."),
    (["Marc"], CINDERELLA, {"advanced": True, "clock_steps": 0}, "The clock needs at least one step."),
    (["Marc", "Lea", "Tom"], RACE, {"advanced": True, "track_length": 3},
     "With 3 players the race track needs 4 to 26 squares, not 3."),
    (["Marc"], RACE, {"advanced": True, "track_length": 27},
     "With 1 player the race track needs 2 to 26 squares, not 27."),
])
def test_setup_errors(players, tale, options, message) -> None:
    with pytest.raises(SetupError) as error:
        StorytellingState(players, tale, 1, **options)
    assert str(error.value).startswith(message)


def test_cinderella_tiles_need_no_frame_in_the_basic_game() -> None:
    tale = Tale("cinderella", "C", SAINT_GEORGE.tiles, SAINT_GEORGE.cards)
    assert StorytellingState(["Marc"], tale, 1).view(None).clock is None


def test_views_are_public_and_hide_only_the_face_down_tiles() -> None:
    state = reach_wolf_blew()
    view = state.view(None)
    assert all(state.view(player) == view for player in state.players)
    assert {tile.place: tile.name for tile in view.grid if tile.name} == {place(state, "BLEW"): "BLEW"}
    assert view.tile(place(state, "BLEW")) == "BLEW"
    assert view.card is not None and view.card.pictures == ("WOLF", "HOUSE OF STRAW", "BLEW")
    assert (view.tale, view.tale_key, view.advanced) == ("Three Pigs", "three-pigs", True)
    assert (view.phase, view.active, view.found) == (Phase.BLOW, "Marc", ("WOLF",))
    assert (view.clock, view.race, view.outcome) == (None, None, None)


# --- random playouts ------------------------------------------------------------------------


def no_free_text(choice, rng) -> str:
    raise AssertionError("Storytelling has no free text")


def card_points(tale: Tale, numbers: Sequence[int]) -> int:
    return sum(card.points for card in tale.cards if card.number in numbers)


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("key", TALE_KEYS)
def test_random_playouts(key: str, advanced: bool) -> None:
    """Random legal actions include the storyteller reading another card; a read never ends the
    turn, but a flip is always legal too, so the games still end."""
    tale = TALES[key]
    reads = 0
    for seed in range(100):
        players, clock_steps = NAMES[: 1 + seed % 6], 1 + seed % 12  # short clocks: midnight comes too
        match = random_playout(
            lambda: StorytellingState(players, tale, seed, advanced=advanced, clock_steps=clock_steps),
            seed, no_free_text,
        )
        check_finished_match(match)
        reads += sum(action.verb == "read" for action in match.log)
        state = match.state
        view = state.view(None)
        won = [player.cards for player in view.players]
        assert state.scores() == {player.name: card_points(tale, player.cards) for player in view.players}
        if advanced and key == "hare-tortoise":
            race = view.race
            assert race is not None
            assert (race.tortoise == len(tale.tiles)) != (race.hare == len(tale.tiles))
            assert state.outcome().winners == (players if race.tortoise == 16 else ())
            assert len(race.discarded) == race.tortoise // 2 and won == [()] * len(players)
            continue
        assert state.outcome() == rank({p.name: (p.points, len(p.cards)) for p in view.players})
        cards_won = sum(map(len, won))
        if advanced and key == "cinderella":
            retired = [player.name for player in view.players if player.retired]
            assert view.clock is not None
            midnight = view.clock.steps == clock_steps
            assert midnight or len(retired) == len(players) or cards_won == 10
            if midnight:
                assert all(not player.cards for player in view.players if not player.retired)
        else:
            assert cards_won == 10
    assert reads > 0


@pytest.mark.parametrize("key", ["saint-george", "three-pigs"])
def test_replay_reproduces_the_face_down_grid(key: str) -> None:
    """Views hide face-down tiles, so compare the grids of the replays directly."""
    for seed in range(20):
        make = lambda: StorytellingState(NAMES[:2], TALES[key], seed, advanced=True)  # noqa: E731
        match = random_playout(make, seed, no_free_text)
        assert Match(make, list(match.log)).state.grid == match.state.grid


def test_undo_restores_the_grid_after_a_stinky_breath() -> None:
    make = lambda: reach_card_ten(advanced=True)  # noqa: E731
    match = Match(make)
    grid = list(match.state.grid)
    for name in ("DRAGON", "SAINT GEORGE", "BREATH"):
        match.apply(Action("flip", None, (place(match.state, name),)))
    reshuffled = list(match.state.grid)
    match.undo()
    assert match.state.grid == grid
    match.apply(Action("flip", None, (place(match.state, "BREATH"),)))
    assert match.state.grid == reshuffled
