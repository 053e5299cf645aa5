"""Dixit with the physical cards: the rulebook's worked example, scoring cases, the 3-player and
Contando variants, only the owners the score needs asked (or every owner), votes changed until
all are in, refusals that leave the state unchanged, game length (with the full deck and with a
partial or bigger one), secrecy of the votes and random playouts."""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from games.base import (
    Action,
    Event,
    GameIsOver,
    IllegalAction,
    IllegalMove,
    Match,
    NotYourTurn,
    SetupError,
    UnknownCommand,
    check_player_names,
)
from games.dixit import SPEC, DixitState, Phase, Position
from tests.games.playout import NO_SERVICES, check_finished_match, check_refused, random_playout, snapshot

# Seat order chosen so that Tomás sits on Julián's left, as in the rulebook's example.
EXAMPLE_SEATS = ["Julián", "Tomás", "Leo", "Nicolás", "Matilde"]
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Flo"]
#: players -> (draw pile after dealing, turns in a game)
LENGTHS = {3: (84 - 3 * 7, 13), 4: (84 - 4 * 6, 15), 5: (84 - 5 * 6, 11), 6: (84 - 6 * 6, 8)}

START = ["storyteller Julián", "clue Where is happiness?"]
SHOWN = [*START, "shown"]
VOTED = [*SHOWN, "vote Matilde 1", "vote Nicolás 3", "vote Leo 4", "vote Tomás 1"]
REVEALED = [*VOTED, "card 4"]


def run(state: DixitState, *commands: str) -> list[Event]:
    events: list[Event] = []
    for command in commands:
        events.extend(state.apply(state.parse(command)))
    return events


def shared(events: list[Event]) -> list[str]:
    return [event.text for event in events if event.to is None]


def simple_turn(state: DixitState) -> list[Event]:
    """A turn in which the storyteller's card is card 1 and everyone finds it: no owner changes
    the score, so none is asked unless every owner is."""
    voters = [player for player in state.players if player != state.storyteller]
    owners = [
        f"owner {number} {voters[(number - 2) // state.cards_given]}" for number in range(2, state.cards_shown + 1)
    ]
    votes = [f"vote {voter} 1" for voter in voters]
    return run(state, "clue a clue", "shown", *votes, "card 1", *(owners if state.every_owner else []))


def test_accented_names_are_accepted_and_found_in_any_case():
    assert check_player_names(EXAMPLE_SEATS, 3, 6) == tuple(EXAMPLE_SEATS)
    state = DixitState(EXAMPLE_SEATS)
    assert state.parse("vote nicolás 3") == Action("vote", "Nicolás", ("3",))
    assert state.parse("vote JULIÁN 3") == Action("vote", "Julián", ("3",))


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_players(count):
    with pytest.raises(SetupError) as refused:
        DixitState(NAMES[:count] + ["Gus"] * (count == 7))
    assert str(refused.value) == f"This game needs 3 to 6 players, not {count}."


def test_rulebook_worked_example():
    """Cards 2 and 5 got no vote: who gave them changes no score, so they are not asked."""
    state = DixitState(EXAMPLE_SEATS)
    assert state.draw_pile == 54 and state.hand_size == 6 and state.cards_shown == 5
    run(state, *VOTED)
    events = run(state, "card 4", "owner 1 Leo", "owner 3 Tomás")
    assert shared(events) == [
        "Card 4 is Julián's: only Leo found it. "
        "Now say who gave cards 1 and 3, which got votes: 'owner', the card number and the name.",
        "Card 1 is Leo's.",
        "Card 3 is Tomás's.",
        "Only Leo found Julián's card, so Julián and Leo score 3. Votes for their cards: Tomás 1 and Leo 2.",
        "Scores: Julián 3 (+3), Tomás 1 (+1), Leo 5 (+5), Nicolás 0, Matilde 0.",
        "Everyone draws back up to 6 cards; 49 cards left in the draw pile.",
        "Turn 2: Tomás is the storyteller. Tomás, say 'clue' and your sentence.",
    ]
    assert state.scores() == {"Julián": 3, "Tomás": 1, "Leo": 5, "Nicolás": 0, "Matilde": 0}
    assert (state.storyteller, state.turn, state.draw_pile, state.phase) == ("Tomás", 2, 49, "clue")
    assert state.waiting_for() == ("Tomás",)


def test_every_owner_is_asked_when_chosen_and_in_games_saved_before():
    every = DixitState(EXAMPLE_SEATS, owners="every")
    run(every, *VOTED)
    events = run(every, "card 4", "owner 1 Leo", "owner 3 Tomás")
    assert shared(events)[0].endswith("Now say who gave each other card: 'owner', the card number and the name.")
    assert every.status().endswith("Say who gave cards 2 and 5: 'owner', the card number and the name.")
    run(every, "owner 2 Matilde", "owner 5 Nicolás")
    assert every.scores() == {"Julián": 3, "Tomás": 1, "Leo": 5, "Nicolás": 0, "Matilde": 0}
    settings = {"players": EXAMPLE_SEATS, "contando": False, "deck_size": 84}
    assert SPEC.build(settings, NO_SERVICES).every_owner  # saved before the option: replayed as played
    assert not SPEC.build({**settings, "owners": "needed"}, NO_SERVICES).every_owner
    with pytest.raises(SetupError):
        DixitState(EXAMPLE_SEATS, owners="some")


def test_no_owner_is_asked_when_every_vote_found_the_storyteller():
    state = DixitState(EXAMPLE_SEATS)
    run(state, *SHOWN, *(f"vote {voter} 2" for voter in EXAMPLE_SEATS[1:]))
    events = shared(run(state, "card 2"))
    assert events[:2] == [
        "Card 2 is Julián's: everyone found it.",
        "Everyone found Julián's card, so Julián scores nothing and everyone else scores 2.",
    ]
    assert (state.turn, state.storyteller) == (2, "Tomás")
    one_astray = DixitState(EXAMPLE_SEATS)  # Matilde's vote went to card 1: only its owner is asked
    run(one_astray, *SHOWN, "vote Tomás 2", "vote Leo 2", "vote Nicolás 2", "vote Matilde 1", "card 2")
    assert one_astray.view(None).owners_missing == (1,)
    assert one_astray.waiting_for() == ("Tomás", "Leo", "Nicolás")


def test_a_vote_may_be_changed_until_all_are_in():
    state = DixitState(EXAMPLE_SEATS)
    run(state, *SHOWN, "vote Leo 4")
    events = run(state, "vote Leo 2")
    assert [(event.text, event.to) for event in events] == [
        ("You changed your vote to card 2.", "Leo"), ("Leo voted again (1 of 4 have voted).", None),
    ]
    same = run(state, "vote Leo 2")  # the table hears the same whether the card changed or not
    assert [(event.text, event.to) for event in same] == [
        ("Your vote stays card 2.", "Leo"), ("Leo voted again (1 of 4 have voted).", None),
    ]
    assert state.view("Leo").my_vote == 2 and state.waiting_for() == ("Tomás", "Nicolás", "Matilde")
    assert "vote Leo 4" in {str(choice.action) for choice in state.legal_actions()}
    run(state, "vote Tomás 1", "vote Nicolás 3", "vote Matilde 1")  # the last vote: all are in
    assert state.phase == "reveal"
    check_refused(state, state.parse("vote Leo 4"), IllegalMove,
                  "'vote' is not possible now. All votes are in. Julián, say 'card' and the number of your card.")


def test_turn_flow_events_and_waiting():
    state = DixitState(EXAMPLE_SEATS)
    assert state.waiting_for() == tuple(EXAMPLE_SEATS)
    assert shared(run(state, *START)) == [
        "Julián found a sentence first.",
        "Turn 1: Julián is the storyteller. Julián, say 'clue' and your sentence.",
        "Julián's clue: Where is happiness? Everyone else, give Julián one card for it, face down. "
        "Julián, shuffle them with yours, lay the 5 cards out face up and say 'shown'.",
    ]
    assert state.waiting_for() == ("Julián",)
    assert shared(run(state, "shown")) == [
        "The 5 cards are on the table, numbered 1 to 5 from the left. The clue was: Where is happiness? "
        "Everyone but Julián, vote in secret for the card you think is Julián's: "
        "say 'vote', your name and the number."
    ]
    events = run(state, "vote Leo 4")
    assert [(event.text, event.to) for event in events] == [("You voted for card 4.", "Leo"), ("Leo has voted (1 of 4).", None)]
    assert events[1].brief == "Leo voted."
    assert state.waiting_for() == ("Tomás", "Nicolás", "Matilde")
    assert state.status() == (  # the whole task: the clue the cards were chosen for, and the votes awaited
        "Turn 1, 54 cards in the draw pile. Julián's clue: Where is happiness? Waiting for the votes of Tomás, "
        "Nicolás and Matilde: say 'vote', the name and a card number from 1 to 5."
    )
    events = run(state, "vote Matilde 1", "vote Nicolás 3", "vote Tomás 1")
    assert shared(events)[-1] == (
        "All votes are in. Card 1: Tomás and Matilde. Card 3: Nicolás. Card 4: Leo. "
        "Julián, which card is yours? Say 'card' and its number."
    )
    assert state.waiting_for() == ("Julián",)
    run(state, "card 4", "owner 1 Leo")
    assert state.waiting_for() == ("Tomás", "Matilde")  # Nicolás voted for card 3, the one still to be owned
    assert state.status().endswith("Say who gave card 3, which got votes: 'owner', the card number and the name.")


def test_clue_may_be_a_hummed_song():
    state = DixitState(NAMES[:4])
    events = run(state, "storyteller Cy", "clue (hummed a song)")
    assert shared(events)[-1].startswith("Cy's clue: (hummed a song). Everyone else")
    assert state.view(None).clue == "(hummed a song)"


FOUR = [f"storyteller {NAMES[0]}", "clue x", "shown"]


@pytest.mark.parametrize(
    "votes, owners, contando, points, explanation",
    [
        (  # everyone found it
            {"Ben": 2, "Cy": 2, "Dee": 2}, {1: "Ben", 3: "Cy", 4: "Dee"}, False,
            {"Ana": 0, "Ben": 2, "Cy": 2, "Dee": 2},
            "Everyone found Ana's card, so Ana scores nothing and everyone else scores 2.",
        ),
        (  # nobody found it: 2 each plus the votes on their cards
            {"Ben": 3, "Cy": 1, "Dee": 1}, {1: "Ben", 3: "Cy", 4: "Dee"}, False,
            {"Ana": 0, "Ben": 4, "Cy": 3, "Dee": 2},
            "Nobody found Ana's card, so Ana scores nothing and everyone else scores 2. "
            "Votes for their cards: Ben 2 and Cy 1.",
        ),
        (  # one finder
            {"Ben": 2, "Cy": 1, "Dee": 1}, {1: "Ben", 3: "Cy", 4: "Dee"}, False,
            {"Ana": 3, "Ben": 5, "Cy": 0, "Dee": 0},
            "Only Ben found Ana's card, so Ana and Ben score 3. Votes for their cards: Ben 2.",
        ),
        (  # one finder with Contando: 4 instead of 3
            {"Ben": 2, "Cy": 1, "Dee": 1}, {1: "Ben", 3: "Cy", 4: "Dee"}, True,
            {"Ana": 4, "Ben": 6, "Cy": 0, "Dee": 0},
            "Only Ben found Ana's card, so with the Contando variant, Ana and Ben score 4. "
            "Votes for their cards: Ben 2.",
        ),
        (  # two finders with Contando: still 3
            {"Ben": 2, "Cy": 2, "Dee": 1}, {1: "Ben", 3: "Cy", 4: "Dee"}, True,
            {"Ana": 3, "Ben": 4, "Cy": 3, "Dee": 0},
            "Ben and Cy found Ana's card, so Ana, Ben and Cy score 3. Votes for their cards: Ben 1.",
        ),
    ],
)
@pytest.mark.parametrize("asked", ["needed", "every"])
def test_scoring(votes, owners, contando, points, explanation, asked):
    """The same points whether only the owners of cards with votes are said or every owner."""
    state = DixitState(NAMES[:4], contando=contando, owners=asked)
    events = shared(run(state, *FOUR, *(f"vote {voter} {number}" for voter, number in votes.items()), "card 2"))
    said = {number: owner for number, owner in owners.items() if asked == "every" or number in votes.values()}
    events += shared(run(state, *(f"owner {number} {owner}" for number, owner in said.items())))
    assert explanation in events
    assert state.scores() == points
    assert state.storyteller == "Ben" and state.draw_pile == 56


def test_three_player_variant():
    state = DixitState(NAMES[:3], owners="every")
    assert (state.hand_size, state.cards_given, state.cards_shown, state.draw_pile) == (7, 2, 5, 63)
    events = run(state, "storyteller Ana", "clue x")
    assert "give Ana two cards for it" in events[-1].text
    run(state, "shown", "vote Ben 3", "vote Cy 1", "card 3", "owner 1 Ben", "owner 2 Ben")
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        run(state, "owner 4 Ben")
    assert str(refused.value) == "Ben gave two cards, already known: cards 1 and 2. If that was wrong, undo it."
    assert snapshot(state) == before
    assert state.waiting_for() == ("Cy",)
    events = shared(run(state, "owner 4 Cy", "owner 5 Cy"))
    assert events[2] == "Only Ben found Ana's card, so Ana and Ben score 3. Votes for their cards: Ben 1."
    assert state.scores() == {"Ana": 3, "Ben": 4, "Cy": 0}
    assert (state.storyteller, state.draw_pile) == ("Ben", 58)
    assert events[-2] == "Everyone draws back up to 7 cards; 58 cards left in the draw pile."
    needed = DixitState(NAMES[:3])  # Cy's vote for card 1 is the only vote on a card but the storyteller's
    run(needed, "storyteller Ana", "clue x", "shown", "vote Ben 3", "vote Cy 1", "card 3")
    assert needed.waiting_for() == ("Ben",)
    run(needed, "owner 1 Ben")
    assert needed.scores() == {"Ana": 3, "Ben": 4, "Cy": 0}


@pytest.mark.parametrize(
    "setup, bad, error, message",
    [
        ([], "clue hello", IllegalAction,
         "'clue' is not possible now. The first player to find a sentence is the storyteller: "
         "say 'storyteller' and their name."),
        (["storyteller Julián"], "storyteller Leo", IllegalAction,
         "'storyteller' is not possible now. Julián is the storyteller: say 'clue' and Julián's sentence."),
        (["storyteller Julián"], "shown", IllegalAction,
         "'shown' is not possible now. Julián is the storyteller: say 'clue' and Julián's sentence."),
        (START, "vote Leo 2", IllegalAction,
         "'vote' is not possible now. Everyone else gives Julián one card for the clue; when Julián has laid out "
         "the 5 cards, say 'shown'."),
        ([*SHOWN, "vote Leo 4"], "card 4", IllegalAction,
         "'card' is not possible now. Waiting for the votes of Tomás, Nicolás and Matilde: say 'vote', the name "
         "and a card number from 1 to 5."),
        (VOTED, "owner 1 Leo", IllegalAction,
         "'owner' is not possible now. All votes are in. Julián, say 'card' and the number of your card."),
        (SHOWN, "vote Julián 2", NotYourTurn, "Julián is the storyteller and does not vote; the other players vote."),
        (SHOWN, "vote Leo 6", IllegalAction,
         "The cards on the table are numbered 1 to 5: say one of those numbers."),
        (SHOWN, "vote Leo 0", IllegalAction,
         "The cards on the table are numbered 1 to 5: say one of those numbers."),
        (SHOWN, "vote Leo four", IllegalAction,
         "The cards on the table are numbered 1 to 5: say one of those numbers."),
        ([*SHOWN, "vote Matilde 2", "vote Nicolás 2", "vote Leo 2", "vote Tomás 2"], "card 4", IllegalAction,
         "Everyone voted for card 2, and nobody may vote for their own card, so card 2 must be the storyteller's. "
         "If a vote was entered wrongly, undo it."),
        (VOTED, "card 9", IllegalAction,
         "The cards on the table are numbered 1 to 5: say one of those numbers."),
        (REVEALED, "owner 1 Matilde", IllegalAction,
         "Matilde voted for card 1, and nobody may vote for their own card: if the vote was entered wrongly, undo it."),
        (REVEALED, "owner 4 Leo", IllegalAction, "Card 4 is Julián's own card; say who gave the other cards."),
        (REVEALED, "owner 2 Julián", IllegalAction,
         "Julián is the storyteller, whose card is card 4; say which other player gave card 2."),
        (REVEALED, "owner 2 Leo", IllegalAction,
         "Nobody voted for card 2, so who gave it does not change the score: say who gave cards 1 and 3, which got "
         "votes."),
        ([*REVEALED, "owner 1 Leo"], "owner 1 Nicolás", IllegalAction,
         "Card 1 is already Leo's, and each card has one owner. If that was wrong, undo it."),
        ([*REVEALED, "owner 1 Leo"], "owner 3 Leo", IllegalAction,
         "Leo gave one card, already known: card 1. If that was wrong, undo it."),
        (REVEALED, "owner 1 Zoe", IllegalAction,
         "There is no player called 'Zoe'. Players: Julián, Tomás, Leo, Nicolás, Matilde."),
        (["storyteller Julián"], Action("clue", None, ("   ",)), IllegalAction, "Say the clue after 'clue', Julián."),
        (SHOWN, Action("vote", None, ("2",)), IllegalAction, "Say it like this: vote NAME CARD."),
        (SHOWN, Action("dance"), UnknownCommand, "'dance' is not a command here; 'help' lists them."),
    ],
)
def test_refusals_leave_the_state_unchanged(setup, bad, error, message):
    state = DixitState(EXAMPLE_SEATS)
    run(state, *setup)
    before = snapshot(state)
    action = state.parse(bad) if isinstance(bad, str) else bad
    with pytest.raises(error) as refused:
        state.apply(action)
    assert str(refused.value) == message
    assert snapshot(state) == before


def test_an_owner_that_would_leave_a_card_nobody_may_own_is_refused():
    state = DixitState(EXAMPLE_SEATS, owners="every")
    run(state, *REVEALED, "owner 2 Leo")
    check_refused(state, state.parse("owner 5 Nicolás"), IllegalMove,
                  "Then nobody could own card 1: everyone still to be named voted for it. Check the owners, or undo a "
                  "vote entered wrongly.")


@pytest.mark.parametrize("owners, after, listed", [
    ("every", "owner 2 Leo",
     {"owner 1 Nicolás", "owner 3 Matilde", "owner 3 Tomás", "owner 5 Matilde", "owner 5 Tomás"}),
    ("needed", "owner 3 Tomás", {"owner 1 Leo", "owner 1 Nicolás"}),
])
def test_legal_owner_and_card_choices_are_exactly_the_accepted_ones(owners, after, listed):
    state = DixitState(EXAMPLE_SEATS, owners=owners)
    run(state, *REVEALED, after)
    assert {str(choice.action) for choice in state.legal_actions()} == listed
    for number in range(1, 7):
        for player in EXAMPLE_SEATS:
            trial = copy.deepcopy(state)
            command = f"owner {number} {player}"
            try:
                trial.apply(trial.parse(command))
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (command in listed), command

    unanimous = DixitState(EXAMPLE_SEATS)
    run(unanimous, *SHOWN, "vote Matilde 2", "vote Nicolás 2", "vote Leo 2", "vote Tomás 2")
    assert [str(choice.action) for choice in unanimous.legal_actions()] == ["card 2"]


def test_a_mistaken_vote_is_corrected_with_undo():
    match = Match(lambda: DixitState(EXAMPLE_SEATS))
    for command in [*SHOWN, "vote Leo 2"]:
        match.apply(match.state.parse(command))
    assert match.undo() == Action("vote", "Leo", ("2",))
    match.apply(match.state.parse("vote Leo 4"))
    assert match.state.view("Leo").my_vote == 4


def test_votes_stay_secret_until_all_are_in():
    state = DixitState(EXAMPLE_SEATS)
    run(state, *SHOWN, "vote Leo 4", "vote Tomás 1")
    everyone = state.view(None)
    assert (everyone.player, everyone.my_vote) == (None, None)
    assert everyone.voted == ("Tomás", "Leo")
    assert everyone.positions == tuple(Position(number, None, None) for number in range(1, 6))
    assert (everyone.clue, everyone.phase, everyone.draw_pile) == ("Where is happiness?", Phase.VOTE, 54)
    assert state.view("Leo").my_vote == 4
    assert state.view("tomás").my_vote == 1
    for player in EXAMPLE_SEATS:
        own = state.view(player)
        assert own.player == player
        # nothing but one's own vote differs from the shared view
        assert replace(own, player=None, my_vote=None) == everyone

    run(state, "vote Matilde 1", "vote Nicolás 3", "card 4", "owner 1 Leo")
    assert state.view(None).owners_missing == (3,)
    assert state.view(None).positions == (
        Position(1, "Leo", ("Tomás", "Matilde")),
        Position(2, None, ()),
        Position(3, None, ("Nicolás",)),
        Position(4, "Julián", ("Leo",)),
        Position(5, None, ()),
    )


@pytest.mark.parametrize("count", sorted(LENGTHS))
def test_game_length(count):
    pile, turns = LENGTHS[count]
    players = NAMES[:count]
    state = DixitState(players)
    assert state.draw_pile == pile
    events = run(state, f"storyteller {players[0]}")
    last_turn_announced, storytellers = [], []
    while not state.is_over():
        if any("This is the last turn." in text for text in shared(events)):
            last_turn_announced.append(state.turn)
        assert state.view(None).last_turn == (state.turn == turns)
        storytellers.append(state.storyteller)
        pile_before = state.draw_pile
        events = simple_turn(state)
        assert state.draw_pile == max(0, pile_before - state.cards_shown)
    assert len(storytellers) == turns
    assert last_turn_announced == [turns]
    assert storytellers == [players[turn % count] for turn in range(turns)]
    expected = {player: 2 * (turns - storytellers.count(player)) for player in players}
    assert state.scores() == expected
    best = max(expected.values())
    assert state.outcome().winners == tuple(player for player in players if expected[player] == best)
    ending = "The last card of the draw pile has been drawn" if pile % state.cards_shown == 0 else (
        "The draw pile runs out before every hand is full"
    )
    assert shared(events)[-1].startswith(f"{ending}, so the game is over. ")
    assert state.waiting_for() == () and state.legal_actions() == []
    with pytest.raises(GameIsOver):
        run(state, "clue too late")


def test_a_smaller_deck_makes_a_shorter_game():
    state = DixitState(NAMES[:4], deck_size=32)  # the hands take 24: 8 left, 2 turns of 4
    assert (state.deck_size, state.draw_pile) == (32, 8)
    first = shared(run(state, "storyteller Ana"))
    assert first[-1] == "Turn 1: Ana is the storyteller. Ana, say 'clue' and your sentence."
    assert not state.is_last_turn()
    events = shared(simple_turn(state))
    assert events[-2:] == [
        "Everyone draws back up to 6 cards; 4 cards left in the draw pile.",
        "Turn 2: Ben is the storyteller. This is the last turn. Ben, say 'clue' and your sentence.",
    ]
    assert state.status().startswith("Turn 2, 4 cards in the draw pile. This is the last turn.")
    assert state.view(None).last_turn and state.view(None).deck_size == 32
    events = shared(simple_turn(state))
    assert state.is_over() and state.turn == 2
    assert events[-1].startswith("The last card of the draw pile has been drawn, so the game is over. ")


def test_a_bigger_deck_makes_a_longer_game():
    state = DixitState(NAMES[:6], deck_size=2 * 84)  # with an expansion: 132 left, 22 turns of 6
    run(state, "storyteller Ana")
    while not state.is_over():
        simple_turn(state)
    assert state.turn == 22


@pytest.mark.parametrize("count, least", [(3, 26), (4, 28), (5, 35), (6, 42)])
def test_a_deck_too_small_for_the_hands_and_one_turn_is_refused(count, least):
    with pytest.raises(SetupError) as refused:
        DixitState(NAMES[:count], deck_size=least - 1)
    dealt = least - (1 + (2 if count == 3 else 1) * (count - 1))
    assert str(refused.value) == (
        f"A deck of {least - 1} cards is too small for {count} players: the hands take {dealt} cards and one "
        f"turn draws {least - dealt} more, so play with at least {least} cards."
    )
    smallest = DixitState(NAMES[:count], deck_size=least)  # exactly enough: one turn, and it is the last
    events = run(smallest, f"storyteller {NAMES[0]}")
    assert "This is the last turn." in shared(events)[-1]
    simple_turn(smallest)
    assert smallest.is_over() and smallest.turn == 1


def test_the_default_deck_is_the_84_cards():
    state = DixitState(NAMES[:4])
    assert (state.deck_size, state.draw_pile) == (84, 60)
    assert snapshot(state) == snapshot(DixitState(NAMES[:4], deck_size=84))


def test_settings_keep_the_deck_size_and_old_games_load_with_84():
    settings = {"players": NAMES[:4], "contando": False, "deck_size": 32}
    assert SPEC.build(settings, NO_SERVICES).draw_pile == 8
    saved_before_cards = {"players": NAMES[:4], "contando": False}
    assert SPEC.build(saved_before_cards, NO_SERVICES).deck_size == 84


def test_outcome_sentences():
    state = DixitState(NAMES[:4])
    run(state, "storyteller Ana")
    while not state.is_over():
        simple_turn(state)
    # 15 turns: Ana, Ben and Cy tell 4 stories each, Dee 3.
    assert state.outcome().text == "Dee wins with 24 points."
    state = DixitState(NAMES[:6])
    run(state, "storyteller Ana")
    while not state.is_over():
        simple_turn(state)
    # 8 turns: Ana and Ben tell 2 stories each, the others 1.
    assert state.outcome().text == "Cy, Dee, Eve and Flo share the victory with 14 points."


def fill_clue(choice, rng) -> str:
    return f"clue number {rng.randint(1, 99)}"


@pytest.mark.parametrize("seed", range(200))
def test_random_playout(seed):
    count = 3 + seed % 4
    contando = seed % 8 >= 4
    owners = "every" if seed % 16 >= 8 else "needed"
    players = NAMES[:count]

    def make() -> DixitState:
        return DixitState(players, contando=contando, owners=owners)

    match = random_playout(make, seed, fill_clue)
    check_finished_match(match)
    state = match.state
    turns = LENGTHS[count][1]
    assert state.turn == turns
    most_per_turn = 4 + (count - 2)  # a finder with Contando, plus a vote from every other voter
    assert all(0 <= score <= turns * most_per_turn for score in state.scores().values())
    best = max(state.scores().values())
    assert state.outcome().winners == tuple(player for player in players if state.scores()[player] == best)

    replay = make()
    for action in match.log:
        events = replay.apply(action)
        if action.verb == "vote":  # the number goes only to the voter until every vote is in
            assert events[0].to == action.player and f"card {action.args[0]}." in events[0].text
            counted = f"{len(replay.votes)} of {len(players) - 1}"
            assert events[1].to is None
            assert events[1].text in (f"{action.player} has voted ({counted}).", f"{action.player} voted again ({counted} have voted).")
            assert all("All votes are in." in event.text for event in events[2:])


def test_the_scores_name_each_player_once_and_brief_says_the_totals_only():
    """Issue 20: the score line named every player twice ("Points this turn: ... Scores: ...")."""
    state = DixitState(EXAMPLE_SEATS)
    run(state, *VOTED)
    events = [event for event in run(state, "card 4", "owner 1 Leo", "owner 3 Tomás") if event.to is None]
    scores = next(event for event in events if event.text.startswith("Scores: "))
    assert scores.text == "Scores: Julián 3 (+3), Tomás 1 (+1), Leo 5 (+5), Nicolás 0, Matilde 0."
    assert scores.brief == "Scores: Julián 3, Tomás 1, Leo 5, Nicolás 0, Matilde 0."
    assert [event.brief for event in events if event.text.startswith("Only Leo found")] == [""]  # why: normal only
    assert state.score_report()[1] == (  # 'score' still says how each player scored
        "Turn 1: Only Leo found Julián's card, so Julián and Leo score 3. Votes for their cards: Tomás 1 and Leo 2. "
        "Points: Julián 3, Tomás 1, Leo 5, Nicolás 0, Matilde 0."
    )
    opening = DixitState(EXAMPLE_SEATS).opening()
    assert [event.brief for event in opening] == [
        "Turn 1, 54 cards in the draw pile. Who has a sentence? Say storyteller and the name."
    ]
