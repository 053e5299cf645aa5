"""Issue 20's rulings and refusals through the real `storyhost` command: each refused term read
by the table with the term hidden, and by its player's phone with it shown; helping verbs and
names; a heard word counted as what it is in its sentence; spelling variants; and Cinderella's
player without a card."""
from __future__ import annotations

import json
import urllib.request

import pytest

from games.base import Match
from host.adapters.base import referee
from host.adapters.narration import NarrationListener
from host.audio.speaker import PrintSpeaker
from host.cli.catalog import make
from host.companion.addresses import Served
from host.companion.server import Companion
from host.session.events import PhoneCommand
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from tests.host.cli_helpers import run_storyhost
from tests.host.companion.test_shared_channel import Lines, settings

STORIES = ("play", "stories", "--players", "Nina", "Sabine", "Melanie", "--seed", "2")
INSTEAD = " Write a noun, a verb or an adjective instead."
#: a term of every kind of refusal and what the table reads for it: a sentence without the term
HIDDEN = {
    "being": 'This term is a form of "be", and "have" and "be" are not allowed in any form.' + INSTEAD,
    "can": 'This term is a helping verb like "must" or "will", not a noun, a verb or an adjective (a name with a '
    "capital, such as May or Will, is allowed)." + INSTEAD,
    "the dog": "A word of this term is an article, and articles count as pronouns, which are not allowed. Leave it "
    "out of the term.",
    "tomorrow": "The rulebook counts this term as an adverb, and adverbs are not allowed." + INSTEAD,
    "with": "This term is a preposition, not a noun, a verb or an adjective." + INSTEAD,
    "big dog": 'That term is two separate words, not one word or one compound like "polar bear": write just one of '
    "them.",
    "field, wool": "That term is a list, its words split by a comma or another mark: write one word or one compound, "
    "and each other term on its own.",
    "farmer": "Sabine already wrote this term, or one that counts as the same: write another.",
}


def test_every_refusal_reads_as_a_sentence_on_the_shared_screen(tmp_path):
    card = make("stories", settings(*STORIES[1:]))().card.normal
    on_card = max(card.split(), key=len).strip(".,!?'").lower()
    hidden = {**HIDDEN, on_card: "This term is on the story card, and words from the card are not allowed in any form."}
    lines = ["side Nina normal", "term Sabine farmers", *(f"term Sabine {term}" for term in hidden), "quit"]
    result = run_storyhost(tmp_path, *STORIES, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    for term, sentence in hidden.items():
        assert out[out.index(f"> term Sabine {term}") + 1] == sentence, term


def test_a_refusal_on_the_players_phone_shows_the_term(tmp_path):
    """The same refusals on the phone of a player who has one: the term is shown there, and the
    table hears only that a term was refused."""
    game = settings(*STORIES[1:])
    spoken: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("stories", game)
        companion = Companion(store, game_id, "Stories!", "stories", game["players"], Served(0, "127.0.0.1"))
        base = companion.start().rstrip("/")
        try:
            joining = f"player=Sabine&code={companion.seats.code}".encode()
            urllib.request.urlopen(urllib.request.Request(f"{base}/join", data=joining), timeout=10).close()
            output = TextOutput(write=lambda line: None, speaker=PrintSpeaker(spoken.append))
            output.also = companion.announce
            session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("stories", game)),
                                            output=output, listeners=(NarrationListener(referee()),),
                                            private=companion))
            session.run(companion.attach(Lines([
                "side Nina normal", PhoneCommand("Sabine", "term", "being"), PhoneCommand("Sabine", "term", "can"),
            ])))
        finally:
            companion.close()
    assert [line for _, line in companion._replies["Sabine"]] == [
        "Refused: 'being'. \"being\" is a form of \"be\", and \"have\" and \"be\" are not allowed in any form." + INSTEAD,
        "Refused: 'can'. \"can\" is a helping verb like \"must\" or \"will\", not a noun, a verb or an adjective (a "
        "name with a capital, such as May or Will, is allowed)." + INSTEAD,
    ]
    assert spoken.count("Sabine: one term was refused; see your phone.") == 1  # the second, right after, is counted
    assert spoken.count("Sabine: one more term was refused; see your phone.") == 1


def test_helping_verbs_are_refused_in_lower_case_and_names_with_a_capital_are_terms(tmp_path):
    """RULINGS: "may" and "will" are refused with their nouns; "May" and "Will" are names."""
    lines = ["side Nina normal", "term Sabine may", "term Sabine May", "term Sabine Will", "private Sabine", "quit"]
    result = run_storyhost(tmp_path, *STORIES, stdin="\n".join(lines) + "\n")
    out = result.stdout.splitlines()
    assert out[out.index("> term Sabine may") + 1].startswith("This term is a helping verb")
    assert out[out.index("> term Sabine May") + 1] == out[out.index("> term Sabine Will") + 1] == "Noted."
    assert "  Your terms: May, Will." in out


TICKING = {  # RULINGS: what a story ticks, each term written by a player of its own
    "A heard word counts as what it is in its sentence.": (
        "The dove flew off. We grew in leaps and bounds. The baby slept in the cot.",
        {"dive": None, "bind": None, "dove": "dove"},
    ),
    "... and ticks when it is the term's word.": (
        "She dove in. The book was bound in leather.",
        {"dive": "dove", "bind": "bound", "dove": "dove"},
    ),
    "Spelling variants are the same term.": (
        "Her jewelry was gold, she ate yogurt and the pan was made of aluminum.",
        {"jewellery": "jewelry", "yoghurt": "yogurt", "aluminium": "aluminum"},
    ),
    "A capitalised helping verb is a name: it ticks only when heard as one.": (
        "It may rain. Will you come? We married in May and Will was there.",
        {"May": "May", "Will": "Will"},
    ),
    "... and not otherwise.": ("It may rain. You will come.", {"May": None, "Will": None}),
}


@pytest.mark.parametrize("ruling", TICKING)
def test_the_rulings_on_heard_words_through_storyhost_tick(tmp_path, ruling):
    story, expected = TICKING[ruling]
    terms = tmp_path / "terms.json"
    terms.write_text(json.dumps({f"P{i}": [term] for i, term in enumerate(expected)}), encoding="utf-8")
    transcript = tmp_path / "story.txt"
    transcript.write_text(story, encoding="utf-8")
    result = run_storyhost(tmp_path, "tick", "--card", "Once upon a time.", "--terms", str(terms), "--transcript",
                           str(transcript), "--json")
    assert result.returncode == 0, result.stderr
    players = json.loads(result.stdout)["players"]
    assert {entries[0]["term"]: entries[0]["evidence"] for entries in players.values()} == expected


def test_cinderella_a_player_with_no_card_cannot_win(tmp_path):
    """RULINGS: if nobody has a card left at the end, nobody escaped the ball and nobody wins,
    though every player has 0 points. Marc fails and retires with no card; Lea's wrong tile has
    a frame of her card's pictures, and the clock strikes midnight at its only step."""
    args = ("storytelling", "--players", "Marc", "Lea", "--tale", "cinderella", "--advanced", "--clock-steps", "1",
            "--seed", "4")
    state = make("storytelling", settings(*args))()  # the game storyhost plays with these settings
    frames = {tile.name: tile.frame for tile in state.tale.tiles}

    def wrong_tile(frame_of_the_card: bool) -> str:
        pictures = state.card.pictures[state.found:]
        name = next(
            name for name in state.grid
            if name != pictures[0] and (frames[name] in {frames[p] for p in state.card.pictures}) is frame_of_the_card
        )
        return f"flip {state.position(state.grid.index(name))}"

    lines = [wrong_tile(frame_of_the_card=False), "retire"]
    for line in lines:
        state.apply(state.parse(line))
    lines.append(wrong_tile(frame_of_the_card=True))
    result = run_storyhost(tmp_path, "play", *args, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert "The game is over. Nobody has any card left: nobody wins." in result.stdout
    assert "Final scores: Marc 0 points, no card, retired; Lea 0 points, no card." in result.stdout


@pytest.mark.parametrize(
    ("game", "rulings"),
    [
        ("stories", [
            'written in lower case they are refused, together with the nouns spelt the same ("a can", "a will")',
            'A name written with a capital is a different word and is allowed: the month "May", the name "Will".',
            'A written term has no part of speech: "ring" is ticked by "a gold ring" and by "the bells rang".',
            '"the dove flew off" does not tick "dive", and "in leaps and bounds" does not tick "bind", while "she dove '
            'in" and "the book was bound in leather" do.',
            "Spelling variants of one word are the same term, since speech has no spelling",
            "jewellery and jewelry, aluminium and aluminum",
            '"The card" means the sentence of the side the storyteller chose.',
        ]),
        ("storytelling", ["If nobody has a card left, nobody escaped the ball and nobody wins",
                          "a tie is shared only between players who hold cards"]),
    ],
)
def test_the_rules_pages_state_the_rulings(tmp_path, game, rulings):
    result = run_storyhost(tmp_path, "rules", game)
    assert result.returncode == 0, result.stderr
    for ruling in rulings:
        assert ruling in result.stdout, ruling
