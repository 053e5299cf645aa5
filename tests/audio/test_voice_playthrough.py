"""Whole games played by sound alone: a scripted player hears the host only through the
loudspeaker's monitor (Whisper on what the host says, in the host's default voice) and acts only
by speaking into the virtual microphone (festival's voice). Its moves follow the game's rules as
a person at the table knows them; what the host says decides when it speaks and whether it
answers a question. The host's printed lines are read only to check the outcome and to explain
a failure.
"""
from __future__ import annotations

import html
import re
import signal
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from host.storage.decks import load_tale
from nlp.commands import number_words
from tests.audio.pulse import MicFeeder, PulseAudio
from tests.audio.test_live_round import LiveHost
from tests.audio.voice_player import NotHeard, VoicePlayer
from tests.host.companion.browser import room_code

pytestmark = pytest.mark.slow

HOST_OPTIONS = ["--speech"]
QUESTION = ("yes or no",)
#: seconds of silence after which the player takes it that the host did not hear it (a command
#: said into a pause of the host's own speech is lost: its microphone is muted while it speaks)
UNANSWERED = 20.0


@pytest.fixture
def player(pulse: PulseAudio, feeder: MicFeeder, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoicePlayer]:
    with VoicePlayer(pulse, feeder, tmp_path_factory.getbasetemp() / "player-speech", voice="slt") as ears:
        yield ears


def end(host: LiveHost) -> str:
    """Stop the host if the game has not ended it already; its stderr ('' when `fail` has
    reported it already), also written to this process's stderr: pytest shows it with a
    failure (a notice such as "The sound output stalled" explains a line nobody heard)."""
    assert host.process.stderr is not None
    if host.process.stderr.closed:
        return ""
    if host.process.poll() is None:
        stderr = host.finish()
    else:
        host._reader.join(timeout=10)
        stderr = host.process.stderr.read()
    print(stderr, file=sys.stderr)
    return stderr


def printed(host: LiveHost, text: str, timeout: float) -> None:
    """Until the host has printed a line with `text` (it may have ended since: a game over)."""
    deadline = time.monotonic() + timeout
    while not any(text in line for line in host.lines):
        if time.monotonic() > deadline:
            raise fail(host, AssertionError(f"the host did not print {text!r} within {timeout} s"))
        time.sleep(0.1)


def answer(player: VoicePlayer, host: LiveHost, said_at: float, timeout: float = 120.0) -> str:
    """What the host said after the player spoke (all of it, once the loudspeaker is quiet: the
    score of a story and the next storyteller's card take tens of seconds);
    "" if it said nothing for UNANSWERED seconds: it did not hear the player, who says it again."""
    try:
        if not player.wait_for_sound(said_at, UNANSWERED):
            return ""
        utterances = player.wait_for_speech(since=said_at, quiet=1.5, timeout=timeout)
    except NotHeard as silence:
        raise fail(host, silence) from None
    return " ".join(u.text for u in utterances)


def say(player: VoicePlayer, host: LiveHost, text: str) -> float:
    try:
        return player.say(text)
    except NotHeard as deaf:
        raise fail(host, deaf) from None


def fail(host: LiveHost, trouble: Exception) -> AssertionError:
    """What went wrong, with what the host printed and its errors, where each of its threads
    was (it is stopped)."""
    if host.process.poll() is None:
        host.process.send_signal(signal.SIGUSR1)  # storyhost prints its threads' stacks
        time.sleep(1)
        host.process.terminate()
    stderr = host.process.communicate(timeout=10)[1]
    return AssertionError(f"{trouble}\nhost printed: {host.lines[-15:]}\nhost stderr: {stderr}")


def yes_when_asked(move: str, heard: str) -> str | None:
    """The answer to what the host, heard saying `heard`, said after `move`: "yes" when it asked
    yes or no ("Did you say: ...? Say yes or no."; "yes" near the end when the rest is misheard),
    else None (no question)."""
    return "yes" if any(words in heard for words in QUESTION) or "yes" in heard.split()[-3:] else None


def speak_until_done(player: VoicePlayer, host: LiveHost, move: str, done: str, tries: int = 4,
                     reply: Callable[[str, str], str | None] = yes_when_asked, rephrased: Sequence[str] = ()) -> str:
    """Say a move; answer when the host asks yes or no (`reply`, to the way the move was said and
    what the host said: what to say, None when it asked nothing); say the move again when the host
    did not understand, in turn as `move` and in each of the other ways a player says it
    (`rephrased`). Done when the host's printed lines show `done` (the check of the test)."""
    before = len(host.lines)
    ways = [move, *rephrased]
    for attempt in range(tries):
        way = ways[attempt % len(ways)]
        heard = answer(player, host, say(player, host, way))
        for _ in range(3):
            said = reply(way, heard)
            if said is None:
                break
            heard = answer(player, host, say(player, host, said))
        if any(done in line for line in host.lines[before:]):
            return heard
        time.sleep(0.5)
    raise AssertionError(f"{move!r} did not lead to {done!r}.\n{player.transcript()}\nhost: {host.lines[-15:]}")


def test_storytelling_cinderella_played_by_sound_alone(pulse: PulseAudio, player: VoicePlayer, tmp_path: Path) -> None:
    """Digital grid, the host as storyteller, Cinderella's advanced rules: flip until a wrong
    tile, then retire, which ends a one-player game."""
    host = LiveHost(pulse, tmp_path, "play", "storytelling", "--players", "Marc", "--tale", "cinderella",
                    "--advanced", "--seed", "4", *HOST_OPTIONS)
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)  # the card is read, the pictures named
        flip_until_wrong_then_retire(player, host)
    finally:
        stderr = end(host)
    assert any("Marc retires and keeps" in line for line in host.lines), host.lines[-20:]
    assert "Traceback" not in stderr, stderr


def test_dixit_with_physical_cards_played_by_sound_alone(pulse: PulseAudio, player: VoicePlayer, tmp_path: Path) -> None:
    """Four players, a 28-card deck (one turn): storyteller, clue, cards shown, the votes once
    the tokens are turned over, the storyteller's card, who gave the one other card with a vote
    (the only owner the score needs); scored."""
    host = LiveHost(pulse, tmp_path, "play", "dixit", "--players", "Nina", "Leo", "Marc", "Sabine", "--cards", "28",
                    *HOST_OPTIONS)
    moves = [
        ("leo is the storyteller", "Turn 1: Leo is the storyteller"),
        ("a long journey home", "Leo's clue:"),
        ("cards shown", "The 4 cards are on the table"),
        ("nina voted two", "Nina has voted"),
        ("marc voted four", "Marc has voted"),
        ("sabine voted two", "All votes are in"),
        ("the storyteller card is two", "Card 2 is Leo's"),
        ("card four belongs to sabine", "Card 4 is Sabine's"),
    ]
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)
        for move, done in moves:
            if any("The game is over" in line for line in host.lines):
                break
            speak_until_done(player, host, move, done)
        printed(host, "game is over", timeout=30)
    finally:
        stderr = end(host)
    assert any("Scores: Nina 3 (+3), Leo 3 (+3), Marc 0, Sabine 4 (+4)" in line for line in host.lines), host.lines[-12:]
    assert "Traceback" not in stderr, stderr


def write_term(player: VoicePlayer, host: LiveHost, name: str, terms: list[str], count: int) -> None:
    """"Sabine writes a term", then a term, then yes. A term misheard and refused is tried once
    more, then the player writes another, as a person would."""
    for term in [term for term in terms for _ in range(2)]:
        speak_until_done(player, host, f"{name.lower()} writes a term", "say it now")
        before = len(host.lines)
        heard = answer(player, host, say(player, host, term))
        if "yes or no" in heard or "yes" in heard.split()[-3:]:
            answer(player, host, say(player, host, "yes"))
        # a term is acknowledged ("Noted."); the fifth with who is still writing, or that all have
        done = ("Waiting for terms", "Everyone has written") if count == 5 else ("Noted.",)
        if any(line.startswith(done) for line in host.lines[before:]):
            terms.remove(term)
            return
    raise AssertionError(f"{name} could not write a term by voice.\n{player.transcript()}\nhost: {host.lines[-15:]}")


def test_a_stories_round_played_by_sound_alone(pulse: PulseAudio, player: VoicePlayer, tmp_path: Path) -> None:
    """The side, ten terms dictated, the story told into the microphone and ticked live, the
    time running out, and the story scored on a spoken confirm."""
    host = LiveHost(pulse, tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2",
                    "--timer", "45", *HOST_OPTIONS)
    terms = {"Sabine": ["radio", "police", "sandwich", "engine", "music", "kitchen", "garden"],
             "Stephan": ["truck", "pizza", "mountain", "window", "brother", "dinosaur", "banana"]}
    story = ["Dad turned on the radio, and the radio played loud music.",
             "Then the police came in a big truck, and the police truck had a loud engine.",
             "My little brother ate a sandwich and a pizza by the window."]
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)
        speak_until_done(player, host, "normal side", "Nina chooses the normal side")
        for name, candidates in terms.items():
            for count in range(1, 6):
                write_term(player, host, name, candidates, count)
        speak_until_done(player, host, "start", "Nina tells the story")
        for sentence in story:
            player.feeder.play(player.speech(sentence))
            player.feeder.wait(30)
        host.wait_for("Correct the ticks", timeout=90)  # Stop!, or the time runs out
        speak_until_done(player, host, "confirm", "Points for this story")
    finally:
        stderr = end(host)
    assert any("ticks a term" in line for line in host.lines), host.lines
    assert "Traceback" not in stderr, stderr


def flip_until_wrong_then_retire(player: VoicePlayer, host: LiveHost) -> None:
    """Flip places in order until the host asks Marc to retire or stay; retire."""
    for row, said_row in enumerate(("one", "two", "three", "four"), 1):
        for column in "abcd":
            heard = speak_until_done(player, host, f"flip {column} {said_row}", f"{column.upper()}{row}: ")
            if "retire" in heard or any("must say retire" in line for line in host.lines[-4:]):
                speak_until_done(player, host, "retire", "The game is over")
                return
    raise AssertionError(f"no wrong tile in the whole grid: {host.lines[-10:]}")


def test_a_human_storytellers_card_is_recognised_as_it_is_read(pulse: PulseAudio, player: VoicePlayer,
                                                              tmp_path: Path) -> None:
    """The storyteller reads card 1 of their own deck aloud; the host names the pictures to find."""
    host = LiveHost(pulse, tmp_path, "play", "storytelling", "--players", "Marc", "--tale", "cinderella",
                    "--advanced", "--seed", "4", "--storyteller", "human", *HOST_OPTIONS)
    card = next(card for card in load_tale("cinderella").cards if card.number == 1)
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)  # "Storyteller, please read card 1 aloud."
        say(player, host, card.text)
        printed(host, "Card 1.", timeout=60)
        player.wait_for_speech(quiet=1.5, timeout=40)
        flip_until_wrong_then_retire(player, host)
    finally:
        stderr = end(host)
    assert not any(card.text in line and not line.startswith("Heard") for line in host.lines), host.lines
    assert "Traceback" not in stderr, stderr


def test_a_human_storyteller_can_name_the_card_instead(pulse: PulseAudio, player: VoicePlayer, tmp_path: Path) -> None:
    """While the host listens to the reading, "host, read card one" names the card (asked yes
    or no first); the host then names the pictures to find."""
    host = LiveHost(pulse, tmp_path, "play", "storytelling", "--players", "Marc", "--tale", "cinderella",
                    "--seed", "4", "--storyteller", "human", *HOST_OPTIONS)
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)  # "Storyteller, please read card 1 aloud."
        speak_until_done(player, host, "host read card one", "Card 1.")
    finally:
        stderr = end(host)
    assert any(line.startswith("Marc, find") for line in host.lines), host.lines[-8:]
    assert "Traceback" not in stderr, stderr


class FormPhone:
    """A player's phone as a page without JavaScript uses it: joined from the join page, its
    moves posted as forms (what the player's own screen reader would press)."""

    def __init__(self, base: str, code: str, player: str) -> None:
        form = {"player": player, "code": code, "phone": f"phone-key-of-{player:0>9}"}
        request = urllib.request.Request(f"{base}/join", data=urllib.parse.urlencode(form).encode())
        with urllib.request.urlopen(request, timeout=10) as page:
            self.link = page.url

    def page(self) -> str:
        with urllib.request.urlopen(self.link, timeout=10) as page:
            return html.unescape(page.read().decode("utf-8"))

    def hand(self) -> list[str]:
        """The values of the cards of the hand, in its order."""
        return re.findall(r'<li class="card told" data-value="(\d+)">', self.page())

    def offered(self, verb: str) -> list[str]:
        return re.findall(rf'data-verb="{verb}"><input type="hidden" name="verb" value="{verb}">'
                          r'<input type="hidden" name="text" value="([^"]*)">', self.page())

    def send(self, verb: str, text: str = "") -> None:
        data = urllib.parse.urlencode({"verb": verb, "text": text}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{self.link}/send", data=data), timeout=30).close()


def told(title: str, description: str, heard: str) -> bool:
    """Whether `heard` is a card told in words read aloud: its title, and four words in a row of
    its description (a recognizer mishears some of the rest: "lava" as "the armor")."""
    words = [word.strip(".,:;!?") for word in description.lower().split()]
    windows = [" ".join(words[index:index + 4]) for index in range(len(words) - 3)]
    return (fuzz.partial_ratio(title.lower(), heard) >= 75
            and any(fuzz.partial_ratio(window, heard) >= 90 for window in windows))


def test_dixit_told_in_words_the_table_hears_the_cards_and_the_scores(pulse: PulseAudio, player: VoicePlayer,
                                                                     tmp_path: Path) -> None:
    """Four players with phones and the built-in deck told in words, one turn: the moves are made
    on the phones; the table hears by sound alone each card laid out read aloud, a card read
    again when asked by voice ("read card two"), and the scores."""
    players = ["Nina", "Leo", "Marc", "Sabine"]
    host = LiveHost(pulse, tmp_path, "play", "dixit", "--players", *players, "--deck", "described", "--seed", "1",
                    "--companion", "--port", "0", *HOST_OPTIONS)
    try:
        joining = host.wait_for("Phones join at", 60)
        address = re.search(r"http://\S+:(\d+)/", joining)
        assert address
        phones = {name: FormPhone(f"http://127.0.0.1:{address.group(1)}", room_code(joining), name) for name in players}
        # each news cuts off the older (the welcome, then each join): of all that, the table may
        # hear no more than the last join ("Sabine joined.", a second long); the turn begins once it is said
        host.wait_for(f"{players[-1]} joined.", 60)
        player.wait_quiet(1.5, timeout=60)
        phones["Nina"].send("storyteller")
        phones["Nina"].send("pick", phones["Nina"].hand()[0])
        mark = player.mark()  # before the clue: what follows it is one long utterance, the cards in it
        phones["Nina"].send("clue", "A long journey home")
        for name in players[1:]:
            phones[name].send("give", phones[name].hand()[0])
        host.wait_for("Everyone but Nina, vote on your phone", 60)
        read = {int(found.group(1)): (found.group(2), found.group(3)) for found in
                (re.match(r"Card (\d), ([^:]+): (.+)", line) for line in host.lines) if found}
        assert sorted(read) == [1, 2, 3, 4], host.lines[-8:]
        for title, description in read.values():
            player.wait_to_hear(predicate=lambda text: told(title, description, text), since=mark, timeout=120)
        player.wait_quiet(1.5, timeout=60)
        again = speak_until_done(player, host, "read card two", "Card 2, ")
        assert told(*read[2], again), again
        mark = player.mark()
        for name in players[1:]:
            phones[name].send("vote", phones[name].offered("vote")[0])
        scores = host.wait_for("Scores: Nina ", 60)
        try:
            player.wait_to_hear(as_said(scores), since=mark, timeout=90, threshold=70)
        except NotHeard:  # its ears misheard the line (tiny.en on espeak): a player asks for it slower
            player.wait_quiet(1.5, timeout=60)
            speak_until_done(player, host, "slower", "Speech rate ")
            player.wait_quiet(1.5, timeout=60)
            before = len(host.lines)
            mark = player.mark()
            speak_until_done(player, host, "what is the score", "Scores: Nina ")
            totals = next(line for line in host.lines[before:] if "Scores: Nina " in line)
            player.wait_to_hear(as_said(totals), since=mark, timeout=90, threshold=70)
    finally:
        stderr = end(host)
    assert "Traceback" not in stderr, stderr


def as_said(line: str) -> str:
    """A printed line as the host says it: "Nina 3+3" is "nina three plus three"."""
    return re.sub(r"\d+", lambda number: number_words(int(number.group())), line.replace("+", "plus "))
