"""What a listener needs at the table, through the real `storyhost` command: natural answers,
names without accents, the exact line to type, brief and detailed wording, statuses that say
the whole task, scores explained, and plain lines for a screen reader."""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from dataclasses import asdict
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from games.base import Match
from host.adapters.base import referee
from host.cli.catalog import make
from host.cli.main import when
from host.storage.decks import load_opening_cards
from host.adapters.narration import NarrationListener
from host.storage.preferences import Preferences
from host.session.session import Session, SessionConfig, TextOutput
from host.audio.speaker import PrintSpeaker
from host.storage.store import GameStore
from tests.host.cli_helpers import ROOT, run_storyhost, storyhost_command, storyhost_env
from tests.host.test_spoken_news import Scripted

DIXIT = ["dixit", "--players", "Julián", "Tomás", "Leo", "Nicolás", "Matilde"]
STORIES = ["stories", "--players", "Nina", "Sabine", "Stephan", "Melanie", "--seed", "2"]
TERMS = {"Sabine": ("car", "horn", "bored", "sandwich", "radio"),
         "Stephan": ("car", "police", "honk", "hot", "truck"),
         "Melanie": ("road", "map", "engine", "music", "tired")}
WRITING = [f"term {player} {term}" for player, terms in TERMS.items() for term in terms]


def play(tmp_path: Path, game: list[str], lines: list[str], verbosity: str | None = None) -> list[str]:
    if verbosity is not None:
        (tmp_path / "config").mkdir(parents=True, exist_ok=True)
        (tmp_path / "config" / "preferences.json").write_text(json.dumps({"verbosity": verbosity}))
    result = run_storyhost(tmp_path, "play", *game, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result.stdout.splitlines()


def answer(out: list[str], line: str, occurrence: int = 0) -> list[str]:
    """The host's lines after the typed `line` (its first occurrence, or a later one), up to the
    next typed line."""
    start = [index for index, typed in enumerate(out) if typed == f"> {line}"][occurrence] + 1
    end = next((index for index in range(start, len(out)) if out[index].startswith("> ")), len(out))
    return [said for said in out[start:end] if not said.startswith("Input ended.")]


def moves(data_dir: Path) -> list[str]:
    with GameStore(data_dir / "games.sqlite3") as store:
        return [str(action) for action in store.actions(1)]


def test_natural_answers_names_without_accents_and_the_exact_line_to_type(tmp_path: Path) -> None:
    lines = ["julian", "clue Hope", "shown", "vote tomas 4", "Leo 2", "vote 3", "private julian", "dance"]
    out = play(tmp_path, DIXIT, lines)
    assert answer(out, "julian")[0] == "Julián found a sentence first."  # the storyteller, named plainly
    assert answer(out, "vote tomas 4") == ["Tomás has voted (1 of 4)."]
    assert answer(out, "Leo 2") == ["Leo has voted (2 of 4)."]  # "Leo 2" can only mean Leo's vote
    assert answer(out, "vote 3") == [
        # votes are typed hidden: the refusal does not repeat what was typed
        "There is no player of that name. Players: Julián, Tomás, Leo, Nicolás, Matilde. "
        "Type vote Nicolás 3, vote Matilde 3 or vote Tomás 3."  # Tomás may vote again until all have
    ]
    assert answer(out, "private julian")[0] == "Private for Julián:"
    assert answer(out, "dance") == ["That is not a command here; 'help' lists them. Type vote Nicolás 1."]  # typed hidden: not repeated
    assert moves(tmp_path) == ["storyteller Julián", "clue Hope", "shown", "vote Tomás 4", "vote Leo 2"]


def test_storytelling_takes_a_place_as_a_flip_and_answers_with_the_line_to_type(tmp_path: Path) -> None:
    game = ["storytelling", "--players", "Marc", "Léa", "--seed", "3"]
    out = play(tmp_path, game, ["flip A1", "b2", "flip Lea C3", "flip c 9", "flip c 1"])
    assert answer(out, "b2") == ["B2: BREATH.", "Right, 1 of 2. Next: LAKE."]  # a place alone is a flip
    assert answer(out, "flip Lea C3") == ["Too many words after 'flip': flip POSITION. Type flip C3."]
    assert answer(out, "flip c 9") == [  # a place typed with a space is read as one; one off the grid says the grid
        "There is no place 'C9' in a grid of 4 columns, A to D, and 4 rows, 1 to 4: say a column letter and a row "
        "number, for example flip A1."
    ]
    assert moves(tmp_path) == ["flip A1", "flip B2", "flip C1"]


def test_a_stories_story_as_a_listener_hears_it(tmp_path: Path) -> None:
    lines = ["help", "quirky side", "turn", "dance", *WRITING, "start", "Our car was hot", "score",
             "say Our car was hot.", "timeup", "say More story", "score", "confirm", "score", "help"]
    out = play(tmp_path, STORIES, lines)
    # the card: whose turn, then the instruction alone, then the two sides
    assert out[1:3] == ["Round 1, story 1 of 8: Nina is the storyteller and draws a card.",
                        "Nina, choose normal or quirky."]
    helped = answer(out, "help")
    assert helped[0] == "You can type now:"  # typed: nothing listens
    assert helped[1].startswith("  side NAME SIDE:")
    assert helped[2].startswith("  private NAME: ")  # Nina reads both sides of the card with it
    assert helped[3] == "At any time:"
    commands = [line.split(":")[0].strip() for line in helped[4:]]
    assert commands == ["help", "repeat", "score", "turn", "undo", "rate SPEED", "verbosity LEVEL", "quit"]
    assert answer(out, "quirky side")[0].startswith("Nina chooses the quirky side: '")
    sentence = answer(out, "quirky side")[0].split(": ", 1)[1]
    typing = "Type term, your name and one term a line, such as term Sabine polar bear; typing is hidden."
    assert answer(out, "quirky side")[2] == typing  # where nothing listens, a newcomer is told what to type
    assert answer(out, "turn") == [  # the whole task, with the card's sentence, and what to type
        f"Round 1, story 1 of 8. Nina is the storyteller. The card: {sentence} "
        "Waiting for terms from Sabine, Stephan and Melanie.",
        typing,
    ]
    assert answer(out, "dance")[0].endswith("Type term Sabine TERM.")
    writing = [line for typed in WRITING for line in answer(out, typed)]
    assert writing.count("Noted.") == 12  # each term acknowledged, never named
    assert [line for line in writing if line != "Noted."] == [
        "Sabine, to read your terms back, type private Sabine: only you should look.",  # after the fifth term
        "Waiting for terms from Stephan and Melanie.",
        "Stephan, to read your terms back, type private Stephan: only you should look.",
        "Waiting for terms from Melanie.",
        "Melanie, to read your terms back, type private Melanie: only you should look.",
        f"Everyone has written 5 terms. Nina, read the sentence again, {sentence}, then start the story.",
        "Type start to begin the story and the timer.",
    ]
    assert answer(out, "start")[1] == (  # nothing listens: the table types the story, or ticks
        "Nothing listens here: as Nina tells the story, type say and the words, to tick the terms heard; or tick, "
        "your name and a term you heard, typed hidden."
    )
    assert answer(out, "Our car was hot") == [
        "'Our' is not a command here; 'help' lists them. To tell the story, type: say Our car was hot"
    ]
    during = answer(out, "score")
    assert during == ["Scores: Nina 0, Sabine 0, Stephan 0, Melanie 0."]  # no term before they are revealed
    assert answer(out, "say More story") == [
        "Nobody is telling a story now. Round 1, story 1 of 8. Nina is the storyteller. The story is over: "
        "correct the ticks with tick or untick if needed, then confirm to score the story."
    ]
    explained = answer(out[out.index("> confirm"):], "score")
    assert explained == [
        "Scores: Nina 6, Sabine 2, Stephan 6, Melanie 0.",
        "Story 1: A ticked term scores 4, or 2 when another player wrote it too.",
        "Sabine 2: car 2 (Stephan wrote it too).",
        "Stephan 6: car 2 (Sabine wrote it too) and hot 4.",
        "Melanie 0: no term ticked.",
        "Nina, the storyteller, scores the best of the story: 6.",
    ]


@pytest.mark.slow
def test_brief_says_less_and_detailed_explains_the_score(tmp_path: Path) -> None:
    lines = ["side Nina normal", *WRITING, "start", "say Our car was hot.", "timeup", "confirm"]
    said = {}
    for verbosity in ("normal", "brief", "detailed"):
        said[verbosity] = [line for line in play(tmp_path / verbosity, STORIES, lines, verbosity)[1:]
                           if not line.startswith(("> ", "Input ended"))]
    words = {verbosity: sum(len(line.split()) for line in out) for verbosity, out in said.items()}
    assert words["brief"] < 0.75 * words["normal"] < words["detailed"], words
    assert said["brief"][:2] == ["Story 1 of 8: Nina chooses.", "Normal: 'We were stuck in a traffic jam for five hours...'"]
    assert "Nina, go: 60 seconds." in said["brief"]
    assert "Stephan ticks." in said["brief"]  # no count: it could tell a guess typed at the table right
    assert "Scores: Nina 6 (+6), Sabine 2 (+2), Stephan 6 (+6), Melanie 0 (+0)." in said["brief"]
    assert "Sabine 2: car 2 (Stephan wrote it too)." not in said["normal"]
    assert "Sabine 2: car 2 (Stephan wrote it too)." in said["detailed"]


def test_brief_is_what_is_spoken_too(tmp_path: Path) -> None:
    """The speaker says exactly the shortened lines that are printed."""
    settings = {"players": ["Nina", "Sabine", "Stephan"], "seed": 2, "timer_seconds": 60,
                "cards": [asdict(card) for card in load_opening_cards(None)]}
    printed: list[str] = []
    said: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("stories", settings)
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(write=said.append))
        session = Session(SessionConfig(store=store, game_id=game, match=Match(make("stories", settings)),
                                        output=output, preferences=Preferences(verbosity="brief"),
                                        listeners=(NarrationListener(referee()),)))
        session.run(Scripted(["side Nina normal"]))
    assert printed[:5] == said[:5] == [
        "Story 1 of 6: Nina chooses.", "Normal: 'We were stuck in a traffic jam for five hours...'",
        "Quirky: 'The mirror in the hallway shows tomorrow instead of today...'", "The normal side.",
        "Others, write 5 terms.",
    ]


@pytest.mark.slow
def test_every_status_says_the_whole_task(tmp_path: Path) -> None:
    out = play(tmp_path, DIXIT, ["storyteller Leo", "clue Far away", "shown", "vote Tomás 2", "quit"])
    resumed = run_storyhost(tmp_path, "resume", stdin="undo\nyes\nquit\n").stdout.splitlines()
    assert resumed[1] == (  # on resuming: the clue and the votes awaited
        "Turn 1, 54 cards in the draw pile. Leo's clue: Far away. Waiting for the votes of Julián, Nicolás and "
        "Matilde: say 'vote', the name and a card number from 1 to 5."
    )
    assert answer(resumed, "undo") == [  # whose move it takes back, asked first; never the vote itself
        "Undo Tomás's vote? Type yes to take it back, or anything else to keep it."
    ]
    undone = answer(resumed, "yes")
    assert undone[0] == "Taking back Tomás's vote."
    assert undone[1].startswith("Turn 1, 54 cards in the draw pile. Leo's clue: Far away. Waiting for the votes of Julián, Tomás,")
    assert out  # the first run played

    tale = ["storytelling", "--players", "Marc", "Lea", "Ona", "--tale", "saint-george", "--seed", "11"]
    first = play(tmp_path / "tale", tale, ["flip C1", "turn"])  # the golden game's first, right flip
    status = ("Card 1 is read. Marc is finding 2 pictures in this order: DRAGON, CAVE. 1 found, next: CAVE. "
              "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4.")
    typing = "Type flip and a place, its column letter then its row number, for example flip A1; grid says which tiles are face up."
    assert answer(first, "turn") == [status, typing]  # every picture to find, the next, the grid; what to type
    again = run_storyhost(tmp_path / "tale", "resume", stdin="quit\n").stdout.splitlines()
    assert again[1] == "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4; A1 is the top left corner."
    assert again[again.index("> quit") - 3:again.index("> quit")] == [
        "Marc, find 2 pictures in this order: DRAGON, CAVE.", status, typing]


def test_score_in_the_race_gives_the_race(tmp_path: Path) -> None:
    race = ["storytelling", "--players", "Marc", "Lea", "--tale", "hare-tortoise", "--advanced", "--seed", "9"]
    out = play(tmp_path, race, ["score"])
    assert answer(out, "score") == [
        "The tortoise is on square 0 and the hare on square 2; Finish is square 16. Cards won and discarded: 0."
    ]


@pytest.mark.slow
def test_saved_games_say_when_in_words_with_the_tale_and_variant(tmp_path: Path) -> None:
    play(tmp_path, ["storytelling", "--players", "Marc", "Lea", "--tale", "three-pigs", "--advanced"], ["flip A1"])
    play(tmp_path, ["dixit", "--players", "Ana", "Bo", "Cy", "--contando"], [])
    listed = run_storyhost(tmp_path, "games").stdout.splitlines()
    assert listed[0].startswith(
        "1: Storytelling (The Three Little Pigs, advanced rules) with Marc and Lea; 1 move, in progress, last played today at "
    )
    assert listed[1].startswith("2: Dixit (Contando scoring) with Ana, Bo and Cy; no moves yet, in progress, last played today")
    assert "T" not in listed[0].split("last played")[1]  # no ISO stamp


def test_when_a_game_was_played_in_words() -> None:
    now = datetime(2026, 3, 4, 10, 0, tzinfo=timezone.utc)
    assert when("2026-03-04T09:06:00+00:00", now) == "today at 09:06"
    assert when("2026-03-03T21:40:00+00:00", now) == "yesterday at 21:40"
    assert when("2026-02-28T18:00:00+00:00", now) == "on 28 February 2026 at 18:00"
    later = now.astimezone(timezone(timedelta(hours=2)))  # shown in the player's own time
    assert when("2026-03-04T09:06:00+00:00", later) == "today at 11:06"


def _read_until(master: int, text: str, seen: bytearray, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"waited for {text!r}; the terminal shows:\n{seen.decode(errors='replace')}"
        seen += os.read(master, 4096)
    return seen.decode(errors="replace")


def test_a_timer_warning_does_not_split_the_line_being_typed(tmp_path: Path) -> None:
    """At a real terminal: '10 seconds left.' comes while 'say Our old car' is half typed; the
    prompt is drawn again below the warning with those words, and the finished line counts whole.
    The setup is typed ahead all at once, as a fast typist would, while the host is still printing."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        storyhost_command("play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2", "--timer", "13"),
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=storyhost_env(tmp_path), cwd=ROOT,
    )
    os.close(slave)
    seen = bytearray()
    try:
        _read_until(master, "choose normal or quirky", seen)
        setup = ["side Nina normal", *(f"term Sabine {t}" for t in TERMS["Sabine"]),
                 *(f"term Stephan {t}" for t in TERMS["Stephan"]), "start"]
        os.write(master, ("\n".join(setup) + "\n").encode())
        _read_until(master, "Nina tells the story", seen)
        os.write(master, b"say Our old car")
        _read_until(master, "10 seconds left.", seen)
        os.write(master, b" was hot.\n")
        screen = _read_until(master, "Stephan ticks a term.\r\nStephan ticks a term.", seen)
        os.write(master, b"quit\n")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    # terms typed ahead are never shown, not even by the terminal's echo
    assert not any(f"term {player} {term}" in screen for player, terms in TERMS.items() for term in terms)
    lines = [line.split("\x1b[K")[-1] for line in screen.replace("\r\n", "\n").split("\n")]
    assert "10 seconds left." in lines, screen[-1500:]
    warning = lines.index("10 seconds left.")
    assert lines[warning + 1].startswith("> say Our old car was hot.")  # drawn again, then finished
    assert "Sabine ticks a term." in lines[warning + 1:]
