"""The command line as a player meets it: the real `storyhost` process, real saved-games files."""
from __future__ import annotations

import re
import signal
import subprocess

from host.storage.store import GameStore
from tests.host.cli_helpers import ROOT, run_storyhost, storyhost_command, storyhost_env

DIXIT_PLAYERS = ["--players", "Julián", "Tomás", "Leo", "Nicolás", "Matilde"]


def test_help_lists_every_command(tmp_path):
    result = run_storyhost(tmp_path, "--help")
    assert result.returncode == 0
    for command in ("play", "resume", "games", "rules", "demo"):
        assert command in result.stdout


def test_bad_setup_is_one_line_on_stderr_and_saves_nothing(tmp_path):
    cases = [
        (["play", "dixit", "--players", "Ana", "Bo"], "This game needs 3 to 6 players, not 2."),
        (["play", "dixit", "--players", "Ana", "ana", "Cy"], "Two players are called 'ana'"),
        (["play", "stories", "--players", "A", "B", "C", "--deck", "/nonexistent/deck.json"], "/nonexistent/deck.json"),
        (["resume", "7"], "There is no saved game 7"),
        (["play", "dixit", "--players", "Ana", "Bo", "Cy", "--script", "/nonexistent/script"], "The script /nonexistent/script: cannot read the file"),
        (["play", "stories", "--players", "A", "B", "C", "--speech", "--script", "x"], "leave out --script"),
        (["play", "stories", "--players", "A", "B", "C", "--speech", "--asr", "vosk", "--model", "/nonexistent/model"],
         "/nonexistent/model"),
    ]
    for args, message in cases:
        result = run_storyhost(tmp_path, *args)
        assert result.returncode == 2, (args, result.stderr)
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr + result.stdout
    with GameStore((tmp_path / "games.sqlite3")) as store:
        assert list(store.games()) == []


def test_a_malformed_deck_names_the_file_and_the_problem(tmp_path):
    deck = tmp_path / "mine.json"
    deck.write_text('{"game": "stories", "cards": [{"normal": "A day at sea", "quirky": 3}]}')
    result = run_storyhost(tmp_path, "play", "stories", "--players", "A", "B", "C", "--deck", str(deck))
    assert result.returncode == 2
    assert f"{deck}: cards[0].quirky" in result.stderr


def test_bad_commands_are_explained_and_change_nothing(tmp_path):
    lines = ["dance wildly", "vote Leo 4", "storyteller Zed", "storyteller Julián", "clue", "owner 1 Leo", "score", "quit"]
    result = run_storyhost(tmp_path, "play", "dixit", *DIXIT_PLAYERS, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'dance' is not a command here; 'help' lists them." in out
    assert "There is no player called 'Zed'." in out
    assert "Traceback" not in out + result.stderr
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert [str(action) for action in store.actions(1)] == ["storyteller Julián"]


def test_games_lists_saved_games(tmp_path):
    run_storyhost(tmp_path, "play", "dixit", *DIXIT_PLAYERS, stdin="storyteller Leo\n")
    result = run_storyhost(tmp_path, "games")
    assert result.returncode == 0
    assert "1: Dixit with Julián, Tomás, Leo, Nicolás and Matilde; 1 move, in progress, last played today at " in result.stdout


def test_undo_is_saved(tmp_path):
    run_storyhost(tmp_path, "play", "dixit", *DIXIT_PLAYERS, stdin="storyteller Leo\nclue Hmm\nundo\nyes\nquit\n")
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert [str(action) for action in store.actions(1)] == ["storyteller Leo"]


def test_a_vote_stays_off_the_shared_screen_until_asked_for_privately(tmp_path):
    lines = ["storyteller Julián", "clue Hope", "shown", "vote Leo 4", "private Leo", "private Tomás"]
    result = run_storyhost(tmp_path, "play", "dixit", *DIXIT_PLAYERS, stdin="\n".join(lines) + "\n")
    out = result.stdout.splitlines()
    private_at = out.index("> private Leo")
    assert out[out.index("> vote Leo 4") + 1:private_at] == ["Leo has voted (1 of 4)."]
    assert out[private_at + 1:private_at + 3] == ["Private for Leo:", "  Your vote: card 4."]
    assert out[private_at + 4:private_at + 6] == ["Private for Tomás:", "  You have no secret right now."]


def test_typed_narration_ticks_through_the_real_referee_and_survives_a_resume(tmp_path):
    players = ["--players", "Nina", "Sabine", "Stephan", "--seed", "2"]
    setup = ["side Nina normal"]
    setup += [f"term Sabine {t}" for t in ("car", "horn", "bored", "sandwich", "radio")]
    setup += [f"term Stephan {t}" for t in ("car", "police", "honk", "hot", "truck")]
    first = run_storyhost(tmp_path, "play", "stories", *players, stdin="\n".join(setup + ["start", "say Our old car honked.", "quit"]) + "\n")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("ticks a term") == 3  # car twice, honk once
    assert "honk" not in first.stdout.split("> start")[1].replace("say Our old car honked.", "")

    again = run_storyhost(tmp_path, "resume", stdin="say The car was hot.\nquit\n")
    assert again.returncode == 0, again.stderr
    said = again.stdout.splitlines()
    assert said[said.index("> say The car was hot.") + 1:said.index("> quit")] == ["Stephan ticks a term."]


def test_a_shared_term_that_completes_a_fifth_ticks_for_everyone_before_stop(tmp_path):
    """RULINGS: "wool" completes Sabine's fifth term, and Melanie wrote "wool" too: her tick counts
    before Stop!. The dog barks after Stop!, so Melanie's "dog" stays unticked."""
    setup = ["side Nina normal"]
    setup += [f"term Sabine {t}" for t in ("farmer", "sheep", "field", "fence", "wool")]
    setup += [f"term Melanie {t}" for t in ("wool", "dog", "tractor", "hay", "goat")]
    said = ["say The farmer counted sheep in the field by the fence.", "say He sheared the wool and a dog barked."]
    result = run_storyhost(
        tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Melanie", "--seed", "2",
        stdin="\n".join(setup + ["start", *said, "confirm", "quit"]) + "\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    wool = out[out.index(f"> {said[1]}") + 1:]
    assert wool[:3] == [
        "Sabine ticks a term.", "Melanie ticks a term.", "Stop! Sabine has ticked all five terms.",
    ]
    assert "Melanie ticked wool; not dog, tractor, hay or goat." in wool[3]
    assert "Points for this story: Sabine 18, Melanie 2" in result.stdout


def test_a_free_phrase_and_a_list_are_refused_without_naming_the_secret_words(tmp_path):
    """RULINGS: a term is one word or one compound. The refusal is on the shared screen, so it
    repeats none of the words; a compound and a name are accepted."""
    lines = ["side Nina normal", "term Sabine big dog", "term Sabine field, wool", "term Sabine fire truck",
             "term Sabine Harry Potter", "private Sabine"]
    result = run_storyhost(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Melanie", "--seed", "2",
                           stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    big_dog = out[out.index("> term Sabine big dog") + 1]
    field_wool = out[out.index("> term Sabine field, wool") + 1]
    assert big_dog.startswith("That term is two separate words, not one word or one compound")
    assert field_wool.startswith("That term is a list")
    assert not {"big", "dog", "field", "wool"} & set(re.findall(r"[a-z]+", (big_dog + field_wool).lower()))
    assert "  Your terms: fire truck, Harry Potter." in out


def test_sigusr1_prints_every_threads_stack_and_the_game_goes_on(tmp_path) -> None:
    """How a host that went silent at the table is asked where it is (the playthroughs use it)."""
    process = subprocess.Popen(
        storyhost_command("play", "dixit", "--players", "Nina", "Leo", "Marc"), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=storyhost_env(tmp_path), cwd=ROOT,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.readline()  # the game has started: the handler is in place
    process.send_signal(signal.SIGUSR1)
    process.stdin.write("storyteller Leo\n")
    stdout, stderr = process.communicate("quit\n", timeout=60)
    assert "most recent call first" in stderr
    assert "Turn 1: Leo is the storyteller" in stdout and process.returncode == 0


def test_the_demo_with_a_recognizer_it_cannot_open_is_one_line(tmp_path):
    """`storyhost demo --asr vosk` with no Vosk model anywhere: one line, nothing played."""
    result = run_storyhost(tmp_path, "demo", "--asr", "vosk", "--fast", "--silent")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("storyhost demo: No Vosk model") and result.stderr.count("\n") == 1
