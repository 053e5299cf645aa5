"""Stories! engine: the rulebook's worked example, refusals that change nothing, secrets, playouts."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from games.base import (
    Action, BadArgument, Event, GameIsOver, GuessRefused, IllegalAction, IllegalMove, NotYourTurn, SetupError,
    UnknownCommand, SecretRefused, TermRefusal, UnknownPlayer, WrongShape,
)
from games.decks import OpeningCard
from games.stories import Phase, SheetView, StoriesState, StoriesView, TermView
from tests.games.playout import check_finished_match, check_refused, random_playout, snapshot


class PlainTermRules:
    """Test stand-in for the nlp rules: case, hyphens and a trailing plural 's' do not matter."""

    refused_words = frozenset(
        {"here", "there", "then", "outside", "right", "tomorrow", "the", "this", "i", "you", "he", "she", "it"}
    )

    @staticmethod
    def key(term: str) -> str:
        words = " ".join(term.casefold().replace("-", " ").split())
        return words[:-1] if words.endswith("s") else words

    def refusal(self, term: str, card_text: str, written: Sequence[str]) -> TermRefusal | None:
        def refused(sentence: str) -> TermRefusal:
            return TermRefusal(sentence.format(f"'{term}'"), sentence.format("This term"))

        if not term.strip():
            return refused("Write a term.")
        if term.casefold() in self.refused_words:
            return refused("{} is an adverb or a pronoun: write a noun, a verb or an adjective.")
        card_words = {word.strip(".,!?'\"").casefold() for word in card_text.split()}
        if any(word in card_words for word in term.casefold().split()):
            return refused("{} is on the card: write another term.")
        if any(self.same(term, other) for other in written):
            return refused("You already wrote {}.")
        return None

    def same(self, a: str, b: str) -> bool:
        return self.key(a) == self.key(b)


ARCTIC = OpeningCard("When I was in the Arctic recently...", "My grandmother keeps a crocodile in the bath.")
TABLE = ("Nina", "Sabine", "Stephan", "Melanie")
EXAMPLE_TERMS = {
    "Sabine": ("Snow", "cold", "Polar bear", "Igloo", "Penguin"),
    "Stephan": ("Snow", "Greenland", "Polar bears", "Eskimo", "freeze"),
    "Melanie": ("Snow", "Seal", "Canada", "Ice", "sled"),
}
EXAMPLE_TICKS = {"Sabine": ("Snow", "Polar bear"), "Stephan": ("Snow", "Polar bears", "freeze"),
                 "Melanie": ("Snow", "Seal", "Canada")}

DECK = tuple(
    OpeningCard(f"The {thing} was missing on Monday.", f"A talking {thing} ran for mayor.")
    for thing in ("cake", "crown", "teapot", "kettle", "piano", "rocket", "map", "goat", "violin", "lamp", "boat")
)
#: terms for the scenarios (the first five) and for random playouts; a few are refused or the same
WORDS = (
    "snow", "dragon", "castle", "run", "happy", "cold", "sea", "ship", "storm", "king", "forest", "wolf",
    "red", "sing", "bread", "moon", "ice-cold", "polar bear", "polar bears", "here", "the", "cake", "Monday",
    "garden", "queen", "river", "laugh", "tiny", "brave", "horse", "cloud", "jump", "green", "soup", "tower",
    "mouse", "rain", "dance", "old", "village", "bridge", "giant", "fox", "owl", "apple", "sword", "gold",
    "winter", "mountain", "whisper", "baker", "candle", "secret", "wizard", "island", "thunder",
)


def stories(players: Sequence[str] = TABLE, cards: Sequence[OpeningCard] = (ARCTIC,) * 8, seed: int = 1,
            timer_seconds: int = 60) -> StoriesState:
    return StoriesState(players, cards, seed, PlainTermRules(), timer_seconds)


def play(state: StoriesState, *commands: str) -> list[Event]:
    events: list[Event] = []
    for command in commands:
        events += state.apply(state.parse(command))
    return events


def write_terms(state: StoriesState, terms: dict[str, Sequence[str]]) -> list[Event]:
    return play(state, *(f"term {player} {term}" for player, written in terms.items() for term in written))


def shared(events: list[Event]) -> list[str]:
    """What a table without phones hears."""
    return [event.text for event in table(events)]


def table(events: list[Event]) -> list[Event]:
    """The events a table without phones hears."""
    return [event for event in events if event.to is None and event.own_screens is not True]


def at_terms() -> StoriesState:
    state = stories()
    play(state, "side Nina normal")
    return state


def at_narration() -> StoriesState:
    state = at_terms()
    write_terms(state, EXAMPLE_TERMS)
    play(state, "start")
    return state


def at_review() -> StoriesState:
    state = at_narration()
    play(state, "tick Sabine snow", "timeup")
    return state


def at_game_over() -> StoriesState:
    state = stories(("Ana", "Ben", "Cy"), DECK)
    for _ in range(6):
        finish_story_without_ticks(state)
    return state


def finish_story_without_ticks(state: StoriesState, questions: Sequence[str] = ()) -> list[Event]:
    play(state, f"side {state.storyteller} quirky")
    write_terms(state, {player: WORDS[:5] for player in state.writers})
    play(state, "start", *(f"question {player}" for player in questions), "timeup")
    return play(state, "confirm")


def test_rulebook_example_arctic_story() -> None:
    state = stories()
    assert state.storyteller == "Nina"
    assert shared(play(state, "side Nina normal")) == [
        "Nina chooses the normal side: 'When I was in the Arctic recently...'",
        "Everyone else, secretly write 5 terms you expect in the story.",
    ]
    events = write_terms(state, EXAMPLE_TERMS)
    assert shared(events)[-1] == (
        "Everyone has written 5 terms. Nina, read the sentence again, "
        "'When I was in the Arctic recently...', then start the story."
    )
    assert shared(play(state, "start")) == [
        "The timer runs 60 seconds. Nina tells the story: 'When I was in the Arctic recently...'"
    ]
    play(state, *(f"tick {player} {term}" for player, ticks in EXAMPLE_TICKS.items() for term in ticks))
    assert shared(play(state, "question Sabine", "question Melanie", "question Sabine")) == [
        "Sabine asks a first question, which costs 1 point. Nina, answer it properly.",
        "Melanie asks a first question, which costs 1 point. Nina, answer it properly.",
        "Sabine asks a second question, which costs 2 more points. Nina, answer it properly.",
    ]
    assert shared(play(state, "timeup")) == [
        "Time is up!",
        "The story is over. "  # each player's ticked terms, then the others: no "(ticked)" after every term
        "Sabine ticked Snow and Polar bear; not cold, Igloo or Penguin. "
        "Stephan ticked Snow, Polar bears and freeze; not Greenland or Eskimo. "
        "Melanie ticked Snow, Seal and Canada; not Ice or sled.",
        "Correct the ticks with tick or untick if needed, then confirm to score the story.",
    ]
    provisional = state.score_report()  # after the story, before confirm: the terms are public now
    assert provisional[1] == "Story 1, if confirmed now: A ticked term scores 4, or 2 when another player wrote it too."
    events = play(state, "confirm")
    explanation = [
        "Story 1: A ticked term scores 4, or 2 when another player wrote it too.",
        "Sabine 1: Snow 2 (Stephan and Melanie wrote it too) and Polar bear 2 (Stephan wrote it too), "
        "minus 3 for 2 questions.",
        "Stephan 8: Snow 2 (Sabine and Melanie wrote it too), Polar bears 2 (Sabine wrote it too) and freeze 4.",
        "Melanie 9: Snow 2 (Sabine and Stephan wrote it too), Seal 4 and Canada 4, minus 1 for 1 question.",
        "Nina, the storyteller, scores the best of the story: 9.",
    ]
    assert [event.text for event in events if event.detail] == explanation  # said at verbosity detailed
    # briefly, each running score once, with what this story added
    assert [event.brief for event in events if event.to is None and not event.detail][1] == (
        "Scores: Nina 9 (+9), Sabine 1 (+1), Stephan 8 (+8), Melanie 9 (+9).")
    assert [event.text for event in events if event.to is None and not event.detail and event.own_screens] == [
        "Sabine, read both sides of the card on your phone, or type private Sabine, and choose one."
    ]  # with phones the sides are the storyteller's: the table hears none of them
    assert [event.text for event in table(events) if not event.detail] == [
        "Points for this story: Sabine 1, Stephan 8, Melanie 9; Nina, the storyteller, 9.",
        "Scores: Nina 9, Sabine 1, Stephan 8, Melanie 9.",
        "Round 1, story 2 of 8: Sabine is the storyteller and draws a card.",
        "Sabine, choose normal or quirky.",  # the instruction alone, before the sides
        "Normal side: 'When I was in the Arctic recently...'",
        "Quirky side: 'My grandmother keeps a crocodile in the bath.'",
    ]
    assert state.score_report() == ["Scores: Nina 9, Sabine 1, Stephan 8, Melanie 9.", *explanation]
    assert provisional[2:] == explanation[1:]
    assert state.scores() == {"Nina": 9, "Sabine": 1, "Stephan": 8, "Melanie": 9}
    assert state.view(None).last_story_points == {"Nina": 9, "Sabine": 1, "Stephan": 8, "Melanie": 9}
    assert (state.phase, state.storyteller, state.writers) == ("choose", "Sabine", ("Nina", "Stephan", "Melanie"))


def test_stop_ends_the_story_when_a_player_has_ticked_all_five() -> None:
    state = at_narration()
    events = play(state, *(f"tick Melanie {term}" for term in EXAMPLE_TERMS["Melanie"]))
    assert shared(events)[-4:] == [
        "Melanie ticks a term.",  # never a count before the reveal: it would tell who typed a tick if it was a term
        "Stop! Melanie has ticked all five terms.",
        "The story is over. Sabine ticked none of Snow, cold, Polar bear, Igloo or Penguin. "
        "Stephan ticked none of Snow, Greenland, Polar bears, Eskimo or freeze. "
        "Melanie ticked all 5: Snow, Seal, Canada, Ice and sled.",
        "Correct the ticks with tick or untick if needed, then confirm to score the story.",
    ]
    assert state.phase == "review"
    # Corrections after the story name the term: it is revealed now.
    assert shared(play(state, "untick Melanie snow", "tick Stephan freeze")) == [
        "Melanie unticks 'Snow' (4 of 5).",
        "Stephan ticks 'freeze' (1 of 5).",
    ]
    play(state, "confirm")
    # Melanie: Seal, Canada, Ice, sled are hers alone (4 each); Stephan: freeze alone (4).
    assert state.scores() == {"Nina": 16, "Sabine": 0, "Stephan": 4, "Melanie": 16}


def test_every_tick_of_the_word_that_completes_a_fifth_term_counts_before_stop() -> None:
    """RULINGS: Melanie's "Snow" completes her fifth term; Sabine's and Stephan's "Snow", heard
    in the same word, are ticked before Stop! takes effect, and score."""
    state = at_narration()
    play(state, *(f"tick Melanie {term}" for term in EXAMPLE_TERMS["Melanie"][1:]))
    events = play(state, "tick Melanie snow, Sabine Snow, stephan snow")
    assert shared(events)[:4] == [
        "Melanie ticks a term.",
        "Sabine ticks a term.",
        "Stephan ticks a term.",
        "Stop! Melanie has ticked all five terms.",
    ]
    assert "Sabine ticked Snow; not cold," in shared(events)[4] and "Stephan ticked Snow; not" in shared(events)[4]
    play(state, "confirm")
    assert state.last_story_points["Sabine"] == 2 and state.last_story_points["Stephan"] == 2


def test_players_completing_five_terms_with_one_word_call_stop_together() -> None:
    state = stories(("Ana", "Ben", "Cy"))
    play(state, "side Ana normal")
    write_terms(state, {"Ben": ["wool", "sheep", "field", "dog", "fence"], "Cy": ["wool", "barn", "hay", "cow", "gate"]})
    play(state, "start", *(f"tick Ben {t}" for t in ("sheep", "field", "dog", "fence")))
    play(state, *(f"tick Cy {t}" for t in ("barn", "hay", "cow", "gate")))
    assert "Stop! Ben and Cy have ticked all five terms." in shared(play(state, "tick Ben wool, Cy wool"))


def test_a_tick_of_several_players_is_one_move_refused_whole() -> None:
    state = at_narration()
    with pytest.raises(IllegalAction, match="Stephan has no unticked term like that"):  # names no term
        play(state, "tick Melanie seal, Stephan seal")
    assert not state.sheets["Melanie"][1].ticked


def test_a_ticked_term_scores_two_when_another_player_wrote_it_unticked() -> None:
    state = at_narration()
    play(state, "tick Sabine polar bear", "tick Melanie seal", "timeup", "confirm")
    assert state.scores() == {"Nina": 4, "Sabine": 2, "Stephan": 0, "Melanie": 4}


def test_question_points_never_push_a_score_below_zero() -> None:
    state = stories(("Ana", "Ben", "Cy"), DECK)
    finish_story_without_ticks(state, questions=("Ben", "Ben", "Cy"))
    assert state.scores() == {"Ana": 0, "Ben": 0, "Cy": 0}
    assert state.last_story_points == {"Ana": 0, "Ben": -3, "Cy": -1}
    # The floor applies to the running score: 4 then a story of -3 leaves 1, not 4.
    play(state, "side Ben normal")
    write_terms(state, {"Ana": ("snow", "sea", "moon", "wolf", "king"), "Cy": ("snow", "red", "bread", "owl", "fox")})
    play(state, "start", "tick Ana sea", "timeup", "confirm")
    assert state.scores() == {"Ana": 4, "Ben": 4, "Cy": 0}
    play(state, "side Cy normal")
    write_terms(state, {player: WORDS[:5] for player in state.writers})
    play(state, "start", "question Ana", "question Ana", "tick Ana snow", "timeup", "confirm")
    assert state.last_story_points == {"Ana": -1, "Ben": 0, "Cy": 0}
    assert state.scores() == {"Ana": 3, "Ben": 4, "Cy": 0}


@pytest.mark.parametrize(
    ("players", "storytellers"),
    [
        (("Ana", "Ben", "Cy"), ["Ana", "Ben", "Cy"] * 2),
        (("Ana", "Ben", "Cy", "Dan", "Eve"), ["Ana", "Ben", "Cy", "Dan", "Eve"] * 2),
        (("Ana", "Ben", "Cy", "Dan", "Eve", "Fay"), ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay"]),
    ],
)
def test_storyteller_passes_left_for_the_right_number_of_stories(players, storytellers) -> None:
    state = stories(players, DECK)
    told = []
    while not state.is_over():
        told.append(state.storyteller)
        assert state.view(None).round == len(told) // len(players) + (len(told) % len(players) > 0)
        finish_story_without_ticks(state)
    assert told == storytellers
    assert state.outcome().winners == players
    assert state.outcome().text == f"{', '.join(players[:-1])} and {players[-1]} share the victory with 0 points."


def test_the_most_points_wins_alone() -> None:
    state = stories(("Ana", "Ben", "Cy"), DECK)
    play(state, "side Ana normal")
    write_terms(state, {"Ben": ("snow", "sea", "moon", "wolf", "king"), "Cy": WORDS[:5]})
    play(state, "start", "tick Ben sea", "question Ben", "timeup", "confirm")
    finish_story_without_ticks(state)
    play(state, "side Cy normal")
    write_terms(state, {"Ana": ("snow", "sea", "moon", "wolf", "king"), "Ben": WORDS[:5]})
    play(state, "start", "tick Ben dragon", "timeup", "confirm")
    for _ in range(3):
        events = finish_story_without_ticks(state)
    assert state.scores() == {"Ana": 3, "Ben": 7, "Cy": 4}
    assert state.outcome().winners == ("Ben",)
    assert events[-1].text == "The game is over. Ben wins with 7 points."
    assert state.status() == "The game is over. Ben wins with 7 points."


def test_status_says_whose_input_is_awaited() -> None:
    state = stories()
    assert state.status() == (  # each status says the whole task; both sides are the storyteller's to read
        "Round 1, story 1 of 8. Nina is the storyteller. Nina, choose normal or quirky; 'private Nina' shows Nina "
        "both sides of the card."
    )
    assert state.secrets("Nina") == [
        "Normal side: 'When I was in the Arctic recently...'",
        "Quirky side: 'My grandmother keeps a crocodile in the bath.'",
    ]
    assert state.view(None).card is None and state.view("Sabine").card is None
    assert state.view("Nina").card == ARCTIC
    assert state.waiting_for() == ("Nina",)
    play(state, "side Nina quirky", "term Sabine snow")
    write_terms(state, {"Stephan": EXAMPLE_TERMS["Stephan"]})
    assert state.status() == (
        "Round 1, story 1 of 8. Nina is the storyteller. The card: 'My grandmother keeps a crocodile in the bath.' "
        "Waiting for terms from Sabine and Melanie."
    )
    assert state.waiting_for() == ("Sabine", "Melanie")
    write_terms(state, {"Sabine": EXAMPLE_TERMS["Sabine"][1:], "Melanie": EXAMPLE_TERMS["Melanie"]})
    assert state.status() == (
        "Round 1, story 1 of 8. Nina is the storyteller. Everyone has written the terms: Nina, read the sentence "
        "again, 'My grandmother keeps a crocodile in the bath.', then start the story."
    )
    play(state, "start")
    assert state.status() == (
        "Round 1, story 1 of 8. Nina is the storyteller. Nina is telling the story, "
        "'My grandmother keeps a crocodile in the bath.'; the timer runs 60 seconds."
    )
    play(state, "timeup")
    assert state.status() == (
        "Round 1, story 1 of 8. Nina is the storyteller. "
        "The story is over: correct the ticks with tick or untick if needed, then confirm to score the story."
    )
    assert state.waiting_for() == TABLE


def test_terms_stay_secret_until_the_story_ends() -> None:
    state = at_terms()
    events = write_terms(state, EXAMPLE_TERMS)
    later = play(state, "erase Sabine penguins", "term Sabine Walrus", "start", "tick Sabine snow",
                 "untick Sabine snow", "tick Sabine Walrus", "question Sabine")
    secrets = {term.casefold() for terms in EXAMPLE_TERMS.values() for term in terms} | {"walrus"}
    for event in events + later:
        if event.to is None:
            for text in (event.text, event.brief or ""):
                assert not any(word in secrets for word in text.casefold().replace(".", "").split()), text
    assert state.score_report() == ["Scores: Nina 0, Sabine 0, Stephan 0, Melanie 0."]  # nothing revealed yet
    assert [event.text for event in later if event.to == "Sabine"] == [
        "You erased 'Penguin' (4 of 5).",
        "You wrote 'Walrus' (5 of 5).",
        "You ticked 'Snow' (1 of 5).",
        "You unticked 'Snow' (0 of 5).",
        "You ticked 'Walrus' (1 of 5).",
    ]
    assert {event.to for event in later} == {None, "Sabine"}
    assert shared(later) == [
        "Sabine erased a term and has written 4 of 5 terms.",
        "Sabine, to read your terms back, type private Sabine: only you should look.",
        "Everyone has written 5 terms. Nina, read the sentence again, "
        "'When I was in the Arctic recently...', then start the story.",
        "The timer runs 60 seconds. Nina tells the story: 'When I was in the Arctic recently...'",
        "Sabine ticks a term.",
        "Sabine unticks a term.",
        "Sabine ticks a term.",
        "Sabine asks a first question, which costs 1 point. Nina, answer it properly.",
    ]
    # the news of a secret move is marked, for a host to answer a typed one alike, legal or not
    assert [event.cue for event in later if event.to is None and event.text.startswith("Sabine ")][:1] == ["secret"]
    assert state.status().casefold().count("snow") == 0
    assert all(sheet.terms is None for sheet in state.view(None).sheets)
    assert "Walrus" not in repr(state.view(None))
    for viewer in ("Nina", "Stephan", "Melanie"):
        assert state.view(viewer).sheet("Sabine").terms is None
        assert "Walrus" not in repr(state.view(viewer))
    assert state.view("Sabine").sheet("Sabine") == SheetView(
        "Sabine", written=5, ticked=1, questions=1,
        terms=tuple(TermView(term, term == "Walrus") for term in ("Snow", "cold", "Polar bear", "Igloo", "Walrus")),
    )
    assert state.view(None).sheet("Sabine") == SheetView("Sabine", written=5, ticked=1, questions=1, terms=None)
    play(state, "timeup")
    assert state.view(None).terms("Stephan")[0] == TermView("Snow", False)
    assert state.view("Melanie").terms("Sabine")[4] == TermView("Walrus", True)


def test_view_describes_the_story() -> None:
    state = at_narration()
    view = state.view("Nina")
    assert replace(view, sheets=()) == StoriesView(
        phase=Phase.NARRATION, round=1, rounds=2, story=1, stories=8, storyteller="Nina", card=ARCTIC, side="normal",
        sentence=ARCTIC.normal, timer_seconds=60, scores={player: 0 for player in TABLE}, last_story_points=None,
        sheets=(),
    )
    assert [sheet.writer for sheet in view.sheets] == ["Sabine", "Stephan", "Melanie"]


def test_erase_before_the_start_reopens_the_sheet() -> None:
    state = at_terms()
    write_terms(state, EXAMPLE_TERMS)
    assert [str(choice.action) for choice in state.legal_actions()][-1] == "start"
    play(state, "erase Stephan polar bear")
    assert "start" not in [str(choice.action) for choice in state.legal_actions()]
    assert [term.text for term in state.sheets["Stephan"]] == ["Snow", "Greenland", "Eskimo", "freeze"]
    play(state, "term Stephan Walrus", "start")
    assert state.phase == "narration"


def test_legal_actions_by_phase() -> None:
    state = stories()
    assert [(str(c.action), c.label, c.free_text) for c in state.legal_actions()] == [
        ("side Nina normal", "Nina chooses the normal side", False),
        ("side Nina quirky", "Nina chooses the quirky side", False),
    ]
    play(state, "side Nina normal", "term Sabine snow")
    assert [(str(c.action), c.free_text) for c in state.legal_actions()] == [
        ("term Sabine <term>", True), ("erase Sabine <term>", True),
        ("term Stephan <term>", True), ("term Melanie <term>", True),
    ]
    state = at_narration()
    offered = [str(choice.action) for choice in state.legal_actions()]
    play(state, "tick Sabine snow", "question Stephan", "question Stephan")
    actions = [str(choice.action) for choice in state.legal_actions()]
    # while the story is told the ticks offered name no term and do not change with a tick
    assert actions[:6] == ["tick Sabine <term>", "untick Sabine <term>", "tick Stephan <term>", "untick Stephan <term>",
                           "tick Melanie <term>", "untick Melanie <term>"]
    assert offered[:6] == actions[:6]
    assert actions[6:] == ["question Sabine", "question Melanie", "timeup"]
    play(state, "timeup")
    assert [str(choice.action) for choice in state.legal_actions()][:2] == ["untick Sabine Snow", "tick Sabine cold"]
    assert [str(choice.action) for choice in state.legal_actions()][15:] == ["confirm"]
    assert at_game_over().legal_actions() == []


def test_commands_parse_to_actions() -> None:
    state = stories()
    assert state.parse("term sabine Polar  bear") == Action("term", "Sabine", ("Polar bear",))
    assert state.parse("side NINA quirky") == Action("side", "Nina", ("quirky",))
    assert state.parse("start") == Action("start")
    with pytest.raises(UnknownCommand):
        state.parse("shout Nina")


ILLEGAL = [
    (stories, Action("side", "Sabine", ("normal",)), NotYourTurn,
     "Only the storyteller, Nina, chooses the side of the card."),
    (stories, Action("side", "Nina", ("funny",)), BadArgument, "Choose the normal or the quirky side, not 'funny': side Nina normal or side Nina quirky."),
    (at_terms, Action("side", "Nina", ("quirky",)), IllegalMove,
     "The side of this story's card has already been chosen."),
    (stories, Action("term", "Sabine", ("Snow",)), IllegalMove, "Wait until Nina has chosen a side of the card."),
    (at_terms, Action("term", "Nina", ("Snow",)), NotYourTurn,
     "Nina is the storyteller and writes no terms; each other player writes 5."),
    (at_terms, Action("term", "Sabine", ("arctic",)), SecretRefused, "This term is on the card: write another term."),
    (at_terms, Action("term", "Sabine", ("tomorrow",)), SecretRefused,
     "This term is an adverb or a pronoun: write a noun, a verb or an adjective."),
    (at_terms, Action("term", "Sabine", ("   ",)), IllegalMove, "Say the term to write after 'term Sabine'."),
    (at_terms, Action("erase", "Sabine", ("Snow",)), GuessRefused,
     "Sabine has no term like that; 'private Sabine' shows Sabine's terms, to Sabine only."),
    (at_terms, Action("start"), IllegalMove,
     "Wait for terms from Sabine, Stephan and Melanie before the story starts."),
    (stories, Action("start"), IllegalMove, "Nina must choose a side of the card first."),
    (at_narration, Action("start"), IllegalMove, "The story has already started."),
    (at_narration, Action("term", "Sabine", ("Walrus",)), IllegalMove,
     "The story has started: terms can no longer be written or erased."),
    (at_narration, Action("erase", "Sabine", ("Snow",)), IllegalMove,
     "The story has started: terms can no longer be written or erased."),
    (at_terms, Action("tick", "Sabine", ("Snow",)), IllegalMove,
     "Terms are ticked while the story is told, or corrected after it."),
    (at_narration, Action("tick", "Nina", ("Snow",)), NotYourTurn, "Nina is the storyteller and has no terms to tick."),
    (at_narration, Action("tick", "Sabine", ("Seal",)), GuessRefused,
     "Sabine has no unticked term like that; 'private Sabine' shows Sabine's terms, to Sabine only."),
    (at_narration, Action("untick", "Sabine", ("Snow",)), GuessRefused,
     "Sabine has no ticked term like that; 'private Sabine' shows Sabine's terms, to Sabine only."),
    (at_narration, Action("untick", "Sabine", ("Seal",)), GuessRefused,
     "Sabine has no ticked term like that; 'private Sabine' shows Sabine's terms, to Sabine only."),
    (at_review, Action("untick", "Sabine", ("Seal",)), IllegalMove,
     "Sabine has not written 'Seal'; name one of Sabine's own terms."),
    (at_review, Action("tick", "Sabine", ("snows",)), IllegalMove, "Sabine's term 'Snow' is already ticked."),
    (at_narration, Action("question", "Nina"), NotYourTurn,
     "Nina is the storyteller and answers questions rather than asking them."),
    (at_review, Action("question", "Sabine"), IllegalMove,
     "Questions may only be asked while the story is being told."),
    (at_terms, Action("timeup"), IllegalMove, "The timer is not running."),
    (at_review, Action("timeup"), IllegalMove, "The timer is not running."),
    (at_narration, Action("confirm"), IllegalMove, "Confirm after the story has ended, to score it."),
    (at_terms, Action("dance", "Nina"), UnknownCommand, "'dance' is not a command here; 'help' lists them."),
    (at_terms, Action("start", "Nina"), WrongShape, "Say it like this: start."),
    (at_terms, Action("term", "Sabine"), WrongShape, "Say it like this: term NAME TERM."),
    (at_terms, Action("term", "Leo", ("Snow",)), UnknownPlayer,
     "There is no player called 'Leo'. Players: Nina, Sabine, Stephan, Melanie."),
    (at_game_over, Action("confirm"), GameIsOver, "The game is over; start a new one with 'storyhost play'."),
]


@pytest.mark.parametrize(("make", "action", "error", "message"), ILLEGAL, ids=[str(case[1]) for case in ILLEGAL])
def test_illegal_actions_are_refused_and_change_nothing(make, action, error, message) -> None:
    check_refused(make(), action, error, message)


@pytest.mark.parametrize(
    ("commands", "action", "message"),
    [
        (("term Sabine Polar bear",), Action("term", "Sabine", ("polar bears",)), "Sabine already wrote this term, or one that counts as the same: write another."),
        (tuple(f"term Sabine {term}" for term in EXAMPLE_TERMS["Sabine"]), Action("term", "Sabine", ("Walrus",)),
         "Sabine has already written 5 terms; erase one first to write another."),
        (("start", "question Sabine", "question Sabine"), Action("question", "Sabine"),
         "Sabine has already asked 2 questions in this story, the most allowed."),
        (("start", "tick Sabine Polar bear"), Action("tick", "Sabine", ("polar bears",)),
         "Sabine has no unticked term like that; 'private Sabine' shows Sabine's terms, to Sabine only."),
    ],
)
def test_repeated_moves_are_refused_and_change_nothing(commands, action, message) -> None:
    state = at_terms()
    if "start" in commands:
        write_terms(state, EXAMPLE_TERMS)
    play(state, *commands)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=f"^{message}$"):
        state.apply(action)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("players", "cards", "timer", "message"),
    [
        (("Ana", "Ben"), DECK, 60, "This game needs 3 to 10 players, not 2."),
        (tuple("ABCDEFGHIJK"), DECK, 60, "This game needs 3 to 10 players, not 11."),
        (("Ana", "Ben", "Cy"), DECK[:5], 60,
         "3 players tell 6 stories, so the deck needs at least 6 cards, not 5."),
        (("Ana", "Ben", "Cy"), DECK, 0, "The timer must run for at least one second."),
    ],
)
def test_setup_errors(players, cards, timer, message) -> None:
    with pytest.raises(SetupError, match=f"^{message}$"):
        stories(players, cards, timer_seconds=timer)


def test_the_seed_shuffles_the_cards() -> None:
    def cards_drawn(seed: int) -> list[OpeningCard]:
        state = stories(("Ana", "Ben", "Cy"), DECK, seed)
        drawn = []
        while not state.is_over():
            drawn.append(state.card)
            finish_story_without_ticks(state)
        return drawn

    orders = {seed: cards_drawn(seed) for seed in range(10)}
    assert cards_drawn(7) == orders[7]
    assert all(len(set(order)) == 6 and set(order) <= set(DECK) for order in orders.values())
    assert len({order[0] for order in orders.values()}) > 3


def fill(choice, rng: random.Random) -> str:
    return rng.choice(WORDS)


NAMES = ("Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")


@pytest.mark.parametrize(("count", "seeds"), [(3, 60), (5, 15), (6, 15), (10, 6)])
def test_random_playouts(count, seeds) -> None:
    players = NAMES[:count]
    stories_told = 2 * count if count <= 5 else count
    for seed in range(seeds):
        match = random_playout(lambda: stories(players, DECK, seed), seed, fill)
        check_finished_match(match)
        state = match.state
        sides = [action for action in match.log if action.verb == "side"]
        assert [action.player for action in sides] == [players[i % count] for i in range(stories_told)]
        assert sum(action.verb == "confirm" for action in match.log) == stories_told
        assert all(score >= 0 for score in state.scores().values())
        # A story earns at most 5 unique terms (20 points), the storyteller's share included.
        assert max(state.scores().values()) <= 20 * stories_told
        best = max(state.scores().values())
        assert state.outcome().winners == tuple(p for p in players if state.scores()[p] == best)


@pytest.mark.parametrize(
    ("term", "table", "player"),
    [
        ("arctic", "This term is on the card: write another term.", "'arctic' is on the card: write another term."),
        ("polar bears", "Sabine already wrote this term, or one that counts as the same: write another.",
         "Sabine already wrote 'Polar bear', and 'polar bears' counts as the same term: write another."),
        ("Polar bear", "Sabine already wrote this term, or one that counts as the same: write another.",
         "Sabine already wrote 'Polar bear': write another."),
    ],
)
def test_a_refused_term_is_explained_to_the_table_without_it_and_to_its_player_with_it(term, table, player) -> None:
    state = at_terms()
    play(state, "term Sabine Polar bear")
    with pytest.raises(SecretRefused) as refused:
        state.apply(Action("term", "Sabine", (term,)))
    assert (str(refused.value), refused.value.private) == (table, player)
