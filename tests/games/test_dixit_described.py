"""Dixit with a deck told in words: the seeded deal, hands only in their player's view, the
storyteller's card and clue (written or aloud), the cards given and taken back, the cards laid
out in a shuffled order and read, votes (never for one's own card), the reveal and the score at
the last vote, refills from the draw pile, the end by the rulebook's rule, the 3-player and
Contando variants, refusals that change nothing, and random playouts with replay checks over the
whole bundled deck."""
from __future__ import annotations

from collections import Counter

import pytest

from games.base import Action, Event, IllegalMove, Match, NotYourTurn, SecretRefused, SetupError, UnknownCommand
from games.decks import DescribedCard, DescribedDeck
from games.dixit import SPEC, DescribedDixit, Phase
from host.storage.decks import load_described_deck
from tests.games.playout import NO_SERVICES, check_finished_match, check_refused, random_playout
from tests.games.test_dixit import run, shared

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Flo"]
#: players -> turns in a game with the 84 cards (as with the physical cards)
TURNS = {3: 13, 4: 15, 5: 11, 6: 8}


def deck(count: int) -> DescribedDeck:
    return DescribedDeck("Test deck", tuple(
        DescribedCard(number, f"Card title {number}", f"Scene number {number} is seen. It is odd.", "CC0")
        for number in range(1, count + 1)
    ))


def private(events: list[Event], player: str) -> list[str]:
    return [event.text for event in events if event.to == player]


def give_all(state: DescribedDixit) -> list[Event]:
    """The storyteller picks the first card of their hand and writes a clue; everyone else gives
    the first cards of theirs."""
    teller = state.storyteller
    events = run(state, f"pick {state.hands[teller][0]}", "clue Far from home")
    for player in state.voters:
        events += run(state, *(f"give {player} {card}" for card in state.hands[player][:state.cards_given]))
    return events


def vote_all(state: DescribedDixit, choose) -> list[Event]:
    """Each voter votes for `choose(player)`, a card number not their own."""
    return run(state, *(f"vote {player} {choose(player)}" for player in state.voters))


def test_the_deal_is_seeded_and_each_card_is_dealt_once():
    state = DescribedDixit(NAMES[:4], deck(40), seed=7)
    assert [len(state.hands[player]) for player in NAMES[:4]] == [6, 6, 6, 6] and state.draw_pile == 16
    every = [card for hand in state.hands.values() for card in hand] + state.pile
    assert sorted(every) == list(range(1, 41))
    again = DescribedDixit(NAMES[:4], deck(40), seed=7)
    assert again.hands == state.hands and again.pile == state.pile
    assert DescribedDixit(NAMES[:4], deck(40), seed=8).hands != state.hands
    three = DescribedDixit(NAMES[:3], deck(40), seed=7)
    assert (three.hand_size, three.cards_given, three.cards_shown) == (7, 2, 5)
    assert [len(hand) for hand in three.hands.values()] == [7, 7, 7]


def test_a_deck_too_small_is_refused():
    with pytest.raises(SetupError, match="too small for 4 players: the hands take 24 cards and one turn draws 4 more"):
        DescribedDixit(NAMES[:4], deck(27), seed=1)


def test_a_whole_turn_read_revealed_and_scored():
    state = DescribedDixit(NAMES[:4], deck(32), seed=3)
    events = run(state, "storyteller Ana")
    assert shared(events)[-1] == "Turn 1: Ana is the storyteller. Ana, choose a card of your hand on your phone and give your clue."
    card = state.hands["Ana"][2]
    events = run(state, f"pick {card}")
    assert [(event.text, event.to) for event in events] == [
        (f"Your card for the clue: Card title {card}. Now give your clue.", "Ana")
    ]
    events = run(state, f"pick {state.hands['Ana'][1]}")  # changed before the clue
    assert private(events, "Ana") == [f"Your card for the clue is now Card title {state.hands['Ana'][1]}."]
    events = run(state, "clue Far from home")
    assert shared(events) == [
        "Ana's clue: Far from home. Everyone else, choose on your phone the card of your hand that best fits it."
    ]
    gifts = {player: state.hands[player][0] for player in state.voters}
    events = run(state, f"give Ben {gifts['Ben']}")
    assert [(event.text, event.to) for event in events] == [
        (f"You gave Card title {gifts['Ben']}. You may take it back until all cards are in.", "Ben"),
        ("Ben has given a card (1 of 3).", None),
    ]
    events = run(state, f"take Ben {gifts['Ben']}", f"give Ben {gifts['Ben']}", f"give Cy {gifts['Cy']}")
    assert shared(events)[0] == "Ben took a card back."
    assert state.phase == Phase.CARDS and state.waiting_for() == ("Dee",)
    events = run(state, f"give Dee {gifts['Dee']}")
    assert private(events, "Dee")[0] == f"You gave Card title {gifts['Dee']}."  # no taking back: all are in
    assert state.phase == Phase.VOTE and len(state.laid) == 4
    lines = shared(events)
    assert lines[1] == "All cards are in. Ana's clue: Far from home. The 4 cards, in order:"
    for number, card_id in enumerate(state.laid, 1):
        assert lines[1 + number] == f"Card {number}, Card title {card_id}: Scene number {card_id} is seen. It is odd."
    assert lines[-1] == ("Everyone but Ana, vote on your phone for the card you think is Ana's. "
                         "'card' and a number reads a card again.")
    briefs = [event.brief for event in events if event.to is None][2:-1]
    assert briefs == [f"Card {number}: Scene number {card_id} is seen." for number, card_id in enumerate(state.laid, 1)]
    owners = {number: state.owners[number] for number in state.numbers}
    assert sorted(owners.values()) == ["Ana", "Ben", "Cy", "Dee"]
    for player in NAMES[:4]:
        mine = [number for number, owner in owners.items() if owner == player]
        assert private(events, player)[-1] == f"Your card is card {mine[0]}."
        assert all(f"Card title {card}:" not in " ".join(lines) for card in state.hands[player])  # hands are never said
    ana = state.storyteller_card
    ben = next(number for number, owner in owners.items() if owner == "Ben")
    # Ben finds Ana's card; Cy and Dee vote for Ben's: Ana and Ben score 3, Ben 2 more
    events = vote_all(state, lambda player: ana if player in ("Ben",) else ben if player != "Ben" else 0)
    lines = shared(events)
    assert lines[3] == (f"All votes are in. Card {ana} was Ana's: only Ben found it. "
                        + " ".join(f"Card {number} was {owner}'s, with "
                                   + ("votes from Cy and Dee" if owner == "Ben" else "no vote") + "."
                                   for number, owner in owners.items() if owner != "Ana"))
    assert lines[4] == "Only Ben found Ana's card, so Ana and Ben score 3. Votes for their cards: Ben 2."
    assert lines[5] == "Scores: Ana 3 (+3), Ben 5 (+5), Cy 0, Dee 0."
    assert lines[6] == "Everyone draws back up to 6 cards; 4 cards left in the draw pile."
    assert lines[7] == "Turn 2: Ben is the storyteller. This is the last turn. Ben, choose a card of your hand on your phone and give your clue."
    assert state.scores() == {"Ana": 3, "Ben": 5, "Cy": 0, "Dee": 0}
    assert all(len(hand) == 6 for hand in state.hands.values()) and state.draw_pile == 4
    assert [entry.owner for entry in state.view(None).last_table] == [owners[n] for n in state.numbers]
    assert state.view(None).positions == ()  # the table is cleared for the next turn


def test_the_clue_may_be_given_aloud_sung_or_mimed():
    state = DescribedDixit(NAMES[:4], deck(32), seed=3)
    run(state, "storyteller Cy")
    check_refused(state, Action("aloud"), IllegalMove, "Cy, first choose on your phone the card your clue is for.")
    events = run(state, f"pick {state.hands['Cy'][0]}", "aloud")
    assert shared(events) == [
        "Cy gave the clue at the table. Everyone else, choose on your phone the card of your hand that best fits it."
    ]
    assert state.view(None).clue_aloud and state.clue is None
    events = run(state, *(f"give {player} {state.hands[player][0]}" for player in state.voters))
    assert "All cards are in. Cy's clue was given at the table. The 4 cards, in order:" in shared(events)


def test_refusals_leave_the_state_unchanged():
    state = DescribedDixit(NAMES[:4], deck(32), seed=5)
    run(state, "storyteller Ana")
    not_hers = state.hands["Ben"][0]
    check_refused(state, Action("clue", None, ("x",)), IllegalMove, "Ana, first choose on your phone the card your clue is for.")
    check_refused(state, Action("pick", None, (str(not_hers),)), IllegalMove,
                  "That card is not in Ana's hand: choose one on Ana's phone.")
    check_refused(state, Action("pick", None, ("many",)), IllegalMove,
                  "That card is not in Ana's hand: choose one on Ana's phone.")
    check_refused(state, Action("give", "Ben", (str(not_hers),)), IllegalMove,
                  "'give' is not possible now. Ana is the storyteller: Ana chooses a card on their phone and gives the clue.")
    run(state, f"pick {state.hands['Ana'][0]}", "clue Far")
    check_refused(state, Action("give", "Ana", (str(state.hands["Ana"][1]),)), NotYourTurn,
                  "Ana is the storyteller, whose card was chosen with the clue; the others give cards.")
    run(state, f"give Ben {not_hers}")
    check_refused(state, Action("give", "Ben", (str(not_hers),)), IllegalMove,
                  "Ben gave that card already: choose another, or wait for the others.")
    check_refused(state, Action("give", "Ben", (str(state.hands["Ben"][1]),)), IllegalMove,
                  "Ben gave one card already: take one back first to give another.")
    check_refused(state, Action("take", "Cy", (str(state.hands["Cy"][0]),)), IllegalMove,
                  "Cy did not give that card, so it cannot be taken back.")
    run(state, *(f"give {player} {state.hands[player][0]}" for player in ("Cy", "Dee")))
    own = next(number for number, owner in state.owners.items() if owner == "Cy")
    before = dict(state.votes)
    with pytest.raises(SecretRefused) as refused:
        state.apply(Action("vote", "Cy", (str(own),)))
    assert str(refused.value) == "Nobody may vote for their own card: vote for another card."
    assert refused.value.private == f"Card {own} is yours, and nobody may vote for their own card: vote for another card."
    assert state.votes == before
    check_refused(state, Action("vote", "Ana", ("1",)), NotYourTurn,
                  "Ana is the storyteller and does not vote; the other players vote.")
    with pytest.raises(UnknownCommand):  # the physical cards' commands are not this mode's
        state.parse("shown")


def test_three_players_give_two_cards_each_and_contando():
    state = DescribedDixit(NAMES[:3], deck(40), seed=2, contando=True)
    run(state, "storyteller Ana")
    events = run(state, f"pick {state.hands['Ana'][0]}", "clue Two by two")
    assert shared(events)[0].endswith("choose on your phone the two cards of your hand that best fit it.")
    first, second = state.hands["Ben"][:2]
    events = run(state, f"give Ben {first}")
    assert private(events, "Ben") == [f"You gave Card title {first}; give one more card."]
    assert shared(events) == ["Ben gave one card of 2."]
    events = run(state, f"give Ben {second}")
    assert shared(events) == ["Ben has given both cards (1 of 2)."]
    events = run(state, *(f"give Cy {card}" for card in state.hands["Cy"][:2]))
    assert len(state.laid) == 5 and sorted(Counter(state.owners.values()).values()) == [1, 2, 2]
    assert private(events, "Cy")[-1].startswith("Your cards are cards ")
    ana = state.storyteller_card
    events = run(state, f"vote Ben {ana}", f"vote Cy {next(n for n, o in state.owners.items() if o == 'Ben')}")
    assert shared(events)[3] == "Only Ben found Ana's card, so with the Contando variant, Ana and Ben score 4. Votes for their cards: Ben 1."
    assert state.scores() == {"Ana": 4, "Ben": 5, "Cy": 0}


def test_a_player_sees_their_own_hand_only():
    state = DescribedDixit(NAMES[:4], deck(40), seed=11)
    run(state, "storyteller Ana")
    public = repr(state.view(None))
    for player in NAMES[:4]:
        mine = repr(state.view(player))
        assert [card.id for card in state.view(player).hand] == state.hands[player]
        for other in NAMES[:4]:
            for card in state.hands[other]:
                title = f"'Card title {card}'"
                assert (title in mine) == (other == player)
                assert title not in public
    run(state, f"pick {state.hands['Ana'][0]}", "clue Far")
    assert state.view("Ana").pick == state.hands["Ana"][0] and state.view("Ben").pick is None
    assert state.secrets("Ana") == [f"Card title {state.hands['Ana'][0]}".join(("Your card for the clue: ", "."))]


@pytest.mark.parametrize("count", sorted(TURNS))
def test_the_bundled_deck_plays_as_long_as_the_physical_cards(count):
    players = NAMES[:count]
    state = DescribedDixit(players, load_described_deck(), seed=count)
    run(state, f"storyteller {players[0]}")
    turns = 0
    while not state.is_over():
        turns += 1
        give_all(state)
        ana = state.storyteller_card
        vote_all(state, lambda player: ana)
    assert turns == TURNS[count]
    assert state.outcome() is not None


def test_settings_with_a_deck_build_the_described_mode():
    cards = [{"id": n, "title": f"T{n}", "description": f"D {n}.", "licence": "CC0", "image": None} for n in range(1, 33)]
    settings = {"players": NAMES[:4], "contando": False, "deck_size": 32, "owners": "needed", "seed": 4,
                "deck": {"title": "Ours", "cards": cards}}
    state = SPEC.build(settings, NO_SERVICES)
    assert isinstance(state, DescribedDixit) and state.draw_pile == 8
    assert state.hands == DescribedDixit(NAMES[:4], deck(32), seed=4).hands  # the deal depends on the ids and seed


def fill_clue(choice, rng) -> str:
    return f"clue number {rng.randint(1, 99)}"


@pytest.mark.parametrize("seed", range(12))
def test_random_playout_with_the_bundled_deck(seed):
    count = 3 + seed % 4
    players = NAMES[:count]
    cards = load_described_deck()

    def make() -> DescribedDixit:
        return DescribedDixit(players, cards, seed=seed, contando=seed % 8 >= 4)

    match = random_playout(make, seed, fill_clue, max_moves=20000)
    check_finished_match(match)
    state = match.state
    assert state.turn == TURNS[count]
    best = max(state.scores().values())
    assert state.outcome().winners == tuple(player for player in players if state.scores()[player] == best)
    replay = Match(make)
    for action in match.log:  # every state on the way shows each hand to its own player only
        events = replay.apply(action)
        for event in events:
            if event.to is None:
                for player, hand in replay.state.hands.items():
                    assert not any(replay.state.cards[card].description in event.text for card in hand), event.text
