"""`storyhost rules GAME`: the player-facing rules name every command and the key rulings, in
plain text a screen reader can read (headings, paragraphs and "- " lists only)."""
from __future__ import annotations

import re

import pytest

from games import dixit, stories, stories_scoring, storytelling
from games.decks import TALE_KEYS
from host.adapters.base import adapter_for
from host.commands import offered
from host.session.wording import aliases, written_usage
from tests.host.cli_helpers import run_storyhost

ENGINES = {"stories": stories.StoriesState, "storytelling": storytelling.StorytellingState, "dixit": dixit.DixitState}

#: phrases each game's rules must contain, most of them built from the engine's own constants
KEY_RULINGS = {
    "stories": [
        "3 to 10 players",
        f"exactly {stories.TERMS_PER_PLAYER} terms",
        f"scores {stories_scoring.SHARED_TERM_POINTS} points if at least one other player",
        f"Otherwise it scores {stories_scoring.UNIQUE_TERM_POINTS} points.",
        f"The first question costs {stories_scoring.QUESTION_COSTS[0]} point. "
        f"The second costs {stories_scoring.QUESTION_COSTS[1]} more points",
        "A running score never drops below 0",
        "storyhost calls Stop!",
        "does not call Stop!",
        "still ticks for every player who wrote it",
        '"big dog" and "cold wind" are refused',
        "A list is not a term",
        "the table hears only the sentence chosen",  # issue 17: the storyteller reads both sides alone
        "storyhost reads both sentences to everyone",
        "Until the story starts, you may erase a term",
        "--timer SECONDS", "--deck FILE", "--seed NUMBER", "--players NAME",
    ],
    "storytelling": [
        f"1 to {storytelling.MAX_PLAYERS} players",
        "the tenth card is won",
        f"{storytelling.CARDS_TO_END} cards have been won",
        "A tie goes to the player with more cards",
        "A player with no cards cannot win",
        f"moves the tortoise {storytelling.TORTOISE_STEP} squares",
        "the end at the tenth card does not apply",
        f"at most {storytelling.TORTOISE_STEP * storytelling.TALE_CARDS} squares",
        "BREATH", "BLEW",
        "--tale TALE", "--advanced", "--clock-steps NUMBER", "--track-length NUMBER", "--deck FILE", "--seed NUMBER",
        *TALE_KEYS,
    ],
    "dixit": [
        "3 to 6 players",
        f"{dixit.DECK_SIZE} picture cards",
        f"each player holds {dixit.THREE_PLAYER_HAND_SIZE} cards instead of {dixit.HAND_SIZE}",
        f"every other player scores {dixit.SHARED_POINTS} points",
        f"the storyteller scores {dixit.FOUND_POINTS} points",
        f"score {dixit.CONTANDO_POINTS} points instead of {dixit.FOUND_POINTS}",
        "Nobody may vote for their own card",
        "Votes are secret until all are in",
        "corrected with undo",
        "typed as digits",
        "a card nobody may own",
        "after the turn in which the last card of the draw pile is drawn",
        "--contando", "--players NAME",
        "--deck described or --deck FILE", "a player without a phone cannot hold a hand told in words",
        "A hand is never printed, spoken or shown on the table page", "card CARD reads one of them again",
        "at verbosity brief only the first sentence of each",
    ],
}

BOX_DRAWING = re.compile("[\u2500-\u257f]")


@pytest.fixture(scope="module")
def rules_text(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    texts = {}
    for game in ENGINES:
        result = run_storyhost(tmp_path_factory.mktemp(game), "rules", game)
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        texts[game] = result.stdout
    return texts


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_command_of_the_game_is_explained_with_its_usage(rules_text, game):
    text = rules_text[game]
    modes = [ENGINES[game], *([dixit.DescribedDixit] if game == "dixit" else [])]  # Dixit told in words too
    for verb in (verb for engine in modes for verb in engine.verbs.values()):  # as help gives it: 'time up'
        usage = written_usage(verb, adapter_for(game).written)
        assert f"\n- {usage}: " in text, usage
    for command in offered(adapter_for(game).commands):
        assert f"\n- {command.usage}: " in text, command.usage


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_other_words_for_a_command_are_given(rules_text, game):
    commands = {command.name for command in offered(adapter_for(game).commands)} | set(ENGINES[game].verbs)
    given = [alias for alias, command in aliases(adapter_for(game).written).items() if command in commands]
    assert "whose turn" in given and "status" in given
    assert ("time up" in given) == (game == "stories")
    for alias in given:
        assert f'"{alias}"' in rules_text[game], alias


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_key_rulings_are_stated(rules_text, game):
    for phrase in KEY_RULINGS[game]:
        assert phrase in rules_text[game], phrase


def test_secrets_are_explained_where_a_game_has_them(rules_text):
    assert "Your terms are secret" in rules_text["stories"]
    for game in ("stories", "dixit"):  # typing is hidden at a keyboard, so the texts must not say otherwise
        assert "typing is hidden" in rules_text[game]
        assert "on the screen while you type" not in rules_text[game]
    assert "Your vote is secret until all votes are in" in rules_text["dixit"]
    assert "Nothing in Storytelling is secret" in rules_text["storytelling"]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_plain_text_for_a_screen_reader(rules_text, game):
    lines = rules_text[game].splitlines()
    assert lines[0] == f"# {'Stories!' if game == 'stories' else game.capitalize()}"
    assert sum(line.startswith("# ") for line in lines) == 1
    for line in lines:
        assert not BOX_DRAWING.search(line), line
        assert not re.search(r"\*\*|__|`|\|", line), line
        assert not line.startswith(("#", " ", "\t", "*", ">")) or line.startswith(("# ", "## ")), line
