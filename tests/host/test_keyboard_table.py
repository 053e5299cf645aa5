"""A table without phones or microphone, as a blind player at the keyboard plays it (issue 20),
through the real `storyhost` command: terms and ticks stay each player's own business, the
grid can be pictured, a newcomer is told what to type, and 'undo' names whose move it takes back."""
from __future__ import annotations

import time
from pathlib import Path

from games.base import Match
from host.adapters.base import adapter_for, referee
from host.adapters.narration import NarrationListener
from host.audio.speaker import PrintSpeaker
from host.cli.catalog import make
from host.session.events import PhoneCommand
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from host.voice.control import VoiceControl
from host.voice.phrases import Names
from tests.host.companion.test_shared_channel import Lines, settings
from tests.host.test_private_terminal import Terminal
from tests.host.test_spoken_news import said
from tests.host.test_table import answer, moves, play

STORIES = ["play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2"]
TERMS = {"Sabine": ("zebra", "violin", "lantern", "parrot", "kettle"),
         "Stephan": ("ladder", "pepper", "meadow", "sandal", "castle")}
WRITING = ["side Nina normal", *(f"term {player} {term}" for player, terms in TERMS.items() for term in terms)]


def typed(tmp_path: Path, lines: list[str], *args: str) -> list[str]:
    """What `storyhost ARGS` (by default a Stories! game) prints for `lines` typed."""
    return play(tmp_path, list(args[1:] or STORIES[1:]), lines)


def test_a_typed_tick_or_untick_answers_alike_for_a_written_and_an_unwritten_term(tmp_path: Path) -> None:
    """Two games alike but for the probes: one ticks and unticks Sabine's own terms (legal, or
    refused as already ticked or not ticked), the other words she never wrote. Every line the
    host prints until the reveal is the same, character by character, the ticks the referee
    hears afterwards too: the table hears no count, which would tell the prober an earlier tick
    was right."""
    written = ["tick Sabine violin", "tick Sabine violin", "untick Sabine violin", "untick Sabine violin",
               "untick Sabine zebra", "tick Sabine Violins"]
    unwritten = ["tick Sabine walrus", "tick Sabine walrus", "untick Sabine walrus", "untick Sabine walrus",
                 "untick Sabine otter", "tick Sabine Walruses"]
    # before any tick is heard: help and a hint offer untick whatever is ticked, or they would tell
    after = ["help", "untick Sabine", "say A parrot sat on the lantern.", "turn", "score", "time", "question Sabine",
             "quit"]
    runs = {}
    for name, probes in (("written", written), ("unwritten", unwritten)):
        out = typed(tmp_path / name, [*WRITING, "start", *probes, *after])
        runs[name] = [f"> probe {probes.index(line[2:])}" if line[2:] in probes else line for line in out]
    assert runs["written"] == runs["unwritten"]
    assert answer(runs["written"], "probe 0") == ["Noted."]
    assert answer(runs["written"], "say A parrot sat on the lantern.") == ["Sabine ticks a term.", "Sabine ticks a term."]
    # the probes of the first game were played, those of the second refused: the same answers meant something
    assert [move for move in moves(tmp_path / "written") if "violin" in move.casefold()][1:] == [
        "tick Sabine violin", "untick Sabine violin", "tick Sabine Violins"]  # after the term written
    assert not [move for move in moves(tmp_path / "unwritten") if "walrus" in move.casefold() or "otter" in move]


def test_a_typed_erase_answers_alike_and_the_player_reads_back_why_it_was_not_done(tmp_path: Path) -> None:
    out = {}
    for term in ("violin", "walrus"):
        out[term] = typed(tmp_path / term, [*WRITING, f"erase Sabine {term}", "private Sabine"])
        assert answer(out[term], f"erase Sabine {term}") == ["Noted."]
    assert "erase Sabine violin" in moves(tmp_path / "violin")
    assert answer(out["violin"], "private Sabine")[1:] == ["  Your terms: zebra, lantern, parrot, kettle."]
    assert answer(out["walrus"], "private Sabine")[1:] == [  # printed in a script; at a terminal after a key press
        "  Your terms: zebra, violin, lantern, parrot, kettle.",
        "  Not erased: you have no term like 'walrus'.",
    ]


def test_typing_a_tick_is_hidden_at_a_terminal_and_the_story_is_not(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, *STORIES)
    try:
        terminal.until("> ")
        for line in [*WRITING, "start"]:
            terminal.keys(line + "\r")
        terminal.until("Nothing listens here")  # the prompt may come in the same read: no wait for it
        terminal.keys("tick Sabine violin")
        time.sleep(0.5)
        terminal.keys("\r")
        shown = terminal.until("Noted.")
        assert "tick (hidden)" in shown and "violin" not in shown
        terminal.keys("say The parrot slept.\r")
        assert "say The parrot slept." in terminal.until("Sabine ticks a term.")
    finally:
        terminal.close()


def test_the_storyteller_with_phones_reads_both_sides_alone_and_the_table_hears_the_one_chosen(tmp_path: Path) -> None:
    """Issue 17: with phones the sides are on the storyteller's phone (or 'private NAME'), never
    read to the table; the sentence chosen is read aloud, as the rulebook has the storyteller do."""
    out = typed(tmp_path, ["private Nina", "side Nina quirky"], *STORIES, "--companion", "--port", "0")
    card = make("stories", settings(*STORIES[1:]))().card
    assert card.normal not in "\n".join(out[:out.index("> private Nina")])
    assert "Nina, read both sides of the card on your phone, or type private Nina, and choose one." in out
    assert answer(out, "private Nina")[1:] == [f"  Normal side: '{card.normal}'", f"  Quirky side: '{card.quirky}'"]
    assert answer(out, "side Nina quirky")[0] == f"Nina chooses the quirky side: '{card.quirky}'"


def test_storytelling_says_the_grid_takes_a_flip_as_typed_and_names_the_tiles_turned_back(tmp_path: Path) -> None:
    game = ["play", "storytelling", "--players", "Marc", "Lea", "Ona", "--tale", "saint-george", "--seed", "11"]
    out = typed(tmp_path, ["c 1", "grid", "grid row 1", "grid column C", "grid 5", "3a", "flip d 4", "flip b 3 4"], *game)
    assert out[1] == "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4; A1 is the top left corner."
    assert answer(out, "c 1") == ["C1: DRAGON.", "Right, 1 of 2. Next: CAVE."]
    assert answer(out, "grid") == [
        "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4. Face up: C1 DRAGON. The other 15 tiles are "
        "face down."
    ]
    assert answer(out, "grid row 1") == ["Row 1: A1 face down, B1 face down, C1 DRAGON, D1 face down."]
    assert answer(out, "grid column C") == ["Column C: C1 DRAGON, C2 face down, C3 face down, C4 face down."]
    assert answer(out, "grid 5") == [
        "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4: say grid, grid row and a number from 1 "
        "to 4, or grid column and a letter from A to D."
    ]
    assert answer(out, "3a")[:3] == ["A3: BREATH.", "Wrong: CAVE was next.", "C1 and A3 are turned face down again."]
    assert answer(out, "flip d 4")[:1] == ["D4: BELL."]
    assert answer(out, "flip b 3 4") == [  # the suggestions are lines that can be typed now
        "Too many words after 'flip': flip POSITION. Type flip B3."
    ]
    assert moves(tmp_path) == ["flip C1", "flip A3", "flip D4"]


def test_a_grid_row_int_cannot_read_is_answered_with_the_grid_s_lines(tmp_path: Path) -> None:
    """'grid row ²': a digit to str.isdigit, no number to int(); the usage, not a crash."""
    game = ["play", "storytelling", "--players", "Marc", "Lea", "--tale", "saint-george", "--seed", "11"]
    out = typed(tmp_path, ["grid row \u00b2"], *game)
    assert answer(out, "grid row \u00b2") == [
        "The tiles lie in a grid of 4 columns, A to D, and 4 rows, 1 to 4: say grid, grid row and a number from 1 "
        "to 4, or grid column and a letter from A to D."
    ]


def test_help_and_usage_match_the_keyboard(tmp_path: Path) -> None:
    out = typed(tmp_path, [*WRITING, "start", "help", "verbosity brief", "help"])
    assert out[0].endswith("Type help at any time.")
    helped = answer(out, "help")
    assert helped[0] == "You can type now:"  # not "say": nothing listens
    now = helped[1:helped.index("At any time:")]
    assert any(line.startswith("  time up: ") for line in now)  # as the README and the rules write it
    assert any(line.startswith("  say TEXT: ") for line in now)  # only while the story is told: now, not "at any time"
    assert not any(line.startswith("  say TEXT") for line in helped[helped.index("At any time:"):])
    assert answer(out, "help", 1) == [
        "Now: tick NAME TERM, untick NAME TERM, question NAME, time up, private NAME, say TEXT, time.",
        "Also: help, repeat, score, turn, undo, rate, verbosity, quit.",
    ]
    assert answer(typed(tmp_path / "writing", ["side Nina normal", "term Sabine"]), "term Sabine") == [
        "Something is missing: term NAME TERM. Type term Sabine TERM."  # not "TERM....": three dots end no sentence
    ]


def test_undo_names_whose_move_it_takes_back_and_waits_for_yes(tmp_path: Path) -> None:
    out = typed(tmp_path, ["side Nina normal", "term Sabine zebra", "undo", "no", "undo", "turn", "undo", "yes",
                           "undo yes"])
    assert answer(out, "undo") == ["Undo Sabine's term? Type yes to take it back, or anything else to keep it."]
    assert answer(out, "no") == ["Nothing was undone."]
    assert answer(out, "turn")[0] == "Nothing was undone."  # another command keeps the move, and is done
    assert answer(out, "turn")[1].startswith("Round 1, story 1 of 6.")
    assert answer(out, "yes")[0] == "Taking back Sabine's term."  # never the term itself
    assert answer(out, "undo yes")[0] == "Taking back Nina's choice of the normal side."
    assert moves(tmp_path) == []
    dixit = typed(tmp_path / "dixit", ["storyteller Ana", "clue Two", "shown", "vote Bo 4", "undo"],
                  "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di")
    assert answer(dixit, "undo") == ["Undo Bo's vote? Type yes to take it back, or anything else to keep it."]


def test_undo_asked_before_a_phone_moved_takes_nothing_back(tmp_path: Path) -> None:
    """A vote sent from a phone between 'undo' and 'yes' is the last move now: nothing is undone."""
    game = settings("dixit", "--players", "Ana", "Bo", "Cy", "Di")
    printed: list[str] = []

    class Phones:
        def has(self, player: str) -> bool:
            return player == "Cy"

        def tell(self, player: str, lines: list[str]) -> None:
            pass

        def refresh(self, session: Session) -> None:
            pass

        def renew(self, player: str) -> str:
            return ""

    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("dixit", game)
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("dixit", game)),
                                        output=TextOutput(write=printed.append), private=Phones()))
        session.run(Lines(["storyteller Ana", "clue Two", "shown", "vote Bo 4", "undo",
                           PhoneCommand("Cy", "vote", "2"), "yes"]))
        assert [str(action) for action in store.actions(game_id)][-2:] == ["vote Bo 4", "vote Cy 2"]
    assert printed[-2:] == ["Nothing was undone: the last move has changed. Type undo again to hear which it is.",
                            printed[-1]]


def test_consecutive_noted_answers_are_spoken_once(tmp_path: Path) -> None:
    game = settings(*STORIES[1:])
    printed: list[str] = []
    said: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("stories", game)
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(write=said.append))
        Session(SessionConfig(store=store, game_id=game_id, match=Match(make("stories", game)), output=output,
                              listeners=(NarrationListener(referee()),))).run(Lines(WRITING[:4]))
    assert printed[-4:-1] == ["Noted.", "Noted.", "Noted."]  # printed for each term
    assert said.count("Noted.") == 1 and said[-2] == "Noted."  # said once in a row


def test_undo_said_and_confirmed_names_the_move_taken_back(tmp_path: Path) -> None:
    """By voice the host asks yes or no before any undo; then it names whose move goes back."""
    game = settings("storytelling", "--players", "Marc", "Lea", "--seed", "3")
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("storytelling", game)
        output = TextOutput(write=printed.append)
        voice = VoiceControl(Names({}), output.note, adapter_for("storytelling"))
        Session(SessionConfig(store=store, game_id=game_id, match=Match(make("storytelling", game)), output=output,
                              voice=voice)).run(
            Lines(["flip A1", said("undo"), said("yes")]))
        assert store.actions(game_id) == []
    asked = printed.index("Did you say: undo? Say yes or no.")
    assert printed[asked + 1:asked + 3] == ["Heard: yes", "Taking back Marc's flip of A1."]
