"""`storyhost tick --audio` through a real process: festival speech, PocketSphinx or Whisper, the referee.

The narration is the rulebook's Arctic story in sentences PocketSphinx hears reliably in
festival's slt voice: "We also saw polar bears and seals" comes out as "we saw tyler bears" or
"sampler bears" once resampled or slowed down, "We watched the polar bears and the seals" in
every variant tried (44.1 kHz stereo, 22.05 kHz, tempo ±5%, -15 dB, pitch -50 cents).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.speech.audio import read_pcm, seconds, speech_spans

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
POCKETSPHINX = ("--asr", "pocketsphinx")  # not Vosk, even when a model is installed or VOSK_MODEL_PATH is set
CARD = "When I was in the Arctic recently..."
SENTENCES = [
    "When I was in the Arctic recently, I was on a big expedition there as part of a research mission.",
    "It was ice-cold and we froze terribly.",
    "There was snow everywhere, so we often rode the motor sled.",
    "We watched the polar bears and the seals.",
    "We flew in from Canada, and on the way back we were also in Russia.",
]
TERMS = {
    "Sabine": ["Snow", "cold", "Polar bear", "Igloo", "the"],
    "Stephan": ["Snow", "Greenland", "Polar bears", "Eskimo", "freeze", "froze"],
    "Melanie": ["Snow", "Seal", "Canada", "Ice", "sled", "Arctic"],
}
# (status, reason, evidence) of each term, in input order
EXPECTED = {
    "Sabine": [
        ("ticked", None, "snow"),
        ("not_heard", None, None),
        ("ticked", None, "polar bears"),
        ("not_heard", None, None),
        ("rejected", "pronoun", None),
    ],
    "Stephan": [
        ("ticked", None, "snow"),
        ("not_heard", None, None),
        ("ticked", None, "polar bears"),
        ("not_heard", None, None),
        ("ticked", None, "froze"),
        ("rejected", "duplicate", None),
    ],
    "Melanie": [
        ("ticked", None, "snow"),
        ("ticked", None, "seals"),
        ("ticked", None, "canada"),
        ("not_heard", None, None),
        ("not_heard", None, None),
        ("rejected", "on_card", None),
    ],
}


def tick(*args: str | Path) -> subprocess.CompletedProcess:
    command = "import sys; from host.cli.tick import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", command, *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def tick_json(terms: Path, audio: Path, *recognizer: str) -> dict:
    done = tick("--card", CARD, "--terms", terms, "--audio", audio, "--json", *(recognizer or POCKETSPHINX))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.count("\n") == 1
    return json.loads(done.stdout)


def outcome(result: dict) -> dict[str, list[tuple]]:
    return {
        player: [(entry["status"], entry["reason"], entry["evidence"]) for entry in entries]
        for player, entries in result["players"].items()
    }


def sox(*args: str | Path) -> None:
    subprocess.run(["sox", "-D", *map(str, args)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def terms(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("terms") / "terms.json"
    path.write_text(json.dumps(TERMS), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def story(synthesize) -> Path:
    return synthesize(SENTENCES)


@pytest.fixture(scope="module")
def ticked(terms, story) -> dict:
    return tick_json(terms, story)


def test_the_rulebook_example_ticks_from_audio(ticked):
    assert outcome(ticked) == EXPECTED
    for entries in ticked["players"].values():
        for entry in entries:
            assert list(entry) == ["term", "status", "reason", "evidence", "time"]
            assert (entry["time"] is None) == (entry["status"] != "ticked")
    assert [entry["term"] for entry in ticked["players"]["Stephan"]] == TERMS["Stephan"]


def test_tick_times_lie_where_the_words_were_said(ticked, story):
    pcm = read_pcm(story)
    spans = speech_spans(pcm, gap=0.6)  # the sentences, 1 s apart
    assert len(spans) == len(SENTENCES)
    sabine, stephan, melanie = (ticked["players"][name] for name in TERMS)
    times = {
        "froze": stephan[4]["time"],
        "snow": sabine[0]["time"],
        "polar bears": sabine[2]["time"],
        "seals": melanie[1]["time"],
        "canada": melanie[2]["time"],
    }
    assert stephan[0]["time"] == melanie[0]["time"] == times["snow"]
    assert stephan[2]["time"] == times["polar bears"]
    assert list(times.values()) == sorted(times.values()) and len(set(times.values())) == len(times)
    assert 0 < min(times.values()) and max(times.values()) <= seconds(pcm)

    def within(time: float, sentence: int, first: float, last: float) -> bool:
        """In the part of the sentence between fractions `first` and `last` of its length."""
        start, end = spans[sentence]
        return start + first * (end - start) - 0.1 <= time <= start + last * (end - start) + 0.1

    assert within(times["froze"], 1, 0.4, 0.85)  # "It was ice-cold and we froze | terribly."
    assert within(times["snow"], 2, 0.0, 0.35)  # "There was snow | everywhere, so we often rode the motor sled."
    assert within(times["polar bears"], 3, 0.4, 0.8)  # "We watched the polar bears | and the seals."
    assert within(times["seals"], 3, 0.9, 1.0)
    assert within(times["canada"], 4, 0.1, 0.5)  # "We flew in from Canada, | and on the way back ..."


def test_readable_lines_say_when(terms, story):
    done = tick("--card", CARD, "--terms", terms, "--audio", story, *POCKETSPHINX)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == 17
    assert re.fullmatch(r'Melanie: "Canada" ticked, heard "canada" at \d+\.\d\d s\.', lines[13])
    assert lines[14] == 'Melanie: "Ice" not heard.'


def test_flac_gives_the_same_result(terms, story, ticked, tmp_path):
    same = tmp_path / "story.flac"
    sox(story, same)
    assert tick_json(terms, same) == ticked
    resampled = tmp_path / "story-44k-stereo.flac"
    sox(story, "-r", "44100", "-c", "2", resampled)
    again = tick_json(terms, resampled)
    assert outcome(again) == EXPECTED
    for entries, before in zip(again["players"].values(), ticked["players"].values()):
        for entry, old in zip(entries, before):
            if entry["time"] is not None:
                assert entry["time"] == pytest.approx(old["time"], abs=0.1)


@pytest.mark.parametrize("sound", ["silence", "whitenoise"])
def test_silence_and_noise_tick_nothing(terms, tmp_path, sound):
    audio = tmp_path / f"{sound}.wav"
    format = ("-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer")
    if sound == "silence":
        sox("-n", *format, audio, "trim", "0", "60")
    else:
        sox("-n", *format, audio, "synth", "60", "whitenoise", "vol", "0.1")  # about -30 dB RMS
    result = tick_json(terms, audio)
    statuses = {entry["status"] for entries in result["players"].values() for entry in entries}
    assert statuses == {"not_heard", "rejected"}


@pytest.mark.parametrize("form", ["22050 Hz WAV, no --asr", "44.1 kHz stereo FLAC, --asr whisper"])
def test_whisper_is_the_default_at_any_rate(terms, story, tmp_path, form):
    """Whisper (it keeps capitals: "Canada") ticks what was said, and nothing that was not or that
    the rules exclude (ice-cold ticks neither ice nor cold). Whisper tiny.en hears this voice's
    "snow" as "no" and may lose "sled": those are not asserted here (see the benchmarks)."""
    audio = tmp_path / ("story.wav" if "WAV" in form else "story.flac")
    sox(story, *(("-r", "22050") if "WAV" in form else ("-r", "44100", "-c", "2")), audio)
    if "WAV" in form:  # no --asr: the default
        done = tick("--card", CARD, "--terms", terms, "--audio", audio, "--json")
        assert done.returncode == 0 and done.stderr == "", done.stderr
        result = json.loads(done.stdout)
    else:
        result = tick_json(terms, audio, "--asr", "whisper")
    sabine, stephan, melanie = (result["players"][name] for name in TERMS)
    ticked = {entry["term"]: entry for entries in result["players"].values() for entry in entries if entry["status"] == "ticked"}
    assert {"Polar bear", "Polar bears", "freeze", "Seal", "Canada"} <= ticked.keys() <= {
        "Polar bear", "Polar bears", "freeze", "Seal", "Canada", "Snow", "sled",
    }
    assert melanie[2]["evidence"] == "Canada"
    assert [entry["status"] for entry in (sabine[1], sabine[3], stephan[1], stephan[3], melanie[3])] == ["not_heard"] * 5
    spans = speech_spans(read_pcm(story), gap=0.6)
    assert spans[1][0] < stephan[4]["time"] < spans[1][1] + 0.1  # froze, in the second sentence
    assert spans[4][0] < melanie[2]["time"] < spans[4][1]  # Canada, in the last


def test_the_recognizer_can_be_chosen(terms, story, korean_vosk_model):
    """The Korean model hears no English word: nothing ticks, as PocketSphinx would have."""
    result = tick_json(terms, story, "--asr", "vosk", "--model", str(korean_vosk_model))
    assert {entry["status"] for entries in result["players"].values() for entry in entries} == {
        "not_heard",
        "rejected",
    }


def test_errors_exit_2_with_one_line(terms, story, tmp_path):
    not_sound = tmp_path / "story.wav"
    not_sound.write_text("Once upon a time", encoding="utf-8")
    flac = tmp_path / "story.flac"
    sox(story, flac)
    truncated = tmp_path / "truncated.flac"
    truncated.write_bytes(flac.read_bytes()[: flac.stat().st_size // 3])
    transcript = tmp_path / "story.txt"
    transcript.write_text(" ".join(SENTENCES), encoding="utf-8")
    base = ["--card", CARD, "--terms", terms]
    cases = [
        ([*base, "--audio", tmp_path / "missing.wav"], "there is no such file"),
        ([*base, "--audio", not_sound], "give a WAV or FLAC file"),
        ([*base, "--audio", truncated, *POCKETSPHINX], "Cannot read"),
        ([*base, "--audio", story, "--asr", "vosk", "--model", tmp_path / "no-model"], "no Vosk model folder"),
        ([*base, "--audio", story, "--asr", "pocketsphinx", "--model", tmp_path], "drop --model"),
        ([*base, "--audio", story, "--asr", "whisper", "--model", tmp_path], "is not a Whisper model"),
        ([*base, "--audio", story, "--asr", "nope"], "no recognizer called 'nope'"),
        ([*base, "--transcript", transcript, "--asr", "pocketsphinx"], "apply to --audio only"),
    ]
    for args, says in cases:
        done = tick(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("storyhost tick: "), done.stderr
        assert says in done.stderr, done.stderr


def test_a_spanish_recording_is_heard_in_spanish_and_judged_by_the_spanish_rulings(synthesize, tmp_path):
    """Whisper's multilingual base, forced to Spanish, hears espeak-ng's Spanish voice (poorly:
    "dámelo" after a pause came out "está me lo"; on an AMD EPYC with AVX-512 "días" came out
    "nias", where other CPUs heard it; "corre" came out "corre", "come" or "tome" with 15 ms
    more or less audio before it). "canta", heard after every lead-in of silence tried, ticks
    "cantar", in Spanish lines."""
    story = synthesize(["Mi hermana canta en la playa todos los días."], voice="espeak:es")
    terms = tmp_path / "terms.json"
    terms.write_text(json.dumps({"Ana": ["playa", "cantar", "gato"]}), encoding="utf-8")
    done = tick("--language", "es", "--card", "Cuando estuve en el Ártico...", "--terms", terms, "--audio", story)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(",")[0] for line in lines] == ["Ana: «playa» marcado", "Ana: «cantar» marcado",
                                                      "Ana: «gato» no se oyó."], lines
