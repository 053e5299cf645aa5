"""The test voices: festival's kal and Piper's neural joe speak, and a second person's table talk
is mixed in at 0.3 amplitude over the storyteller's whole speech."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from nlp import TickTracker, load_referee
from tests.nlp.corpus_judge import load
from tests.speech import audio


@pytest.mark.parametrize("voice", [audio.KAL, audio.PIPER])
def test_voice_speaks_the_sentences_with_a_pause_between(synthesize: Callable[..., Path], voice: str) -> None:
    pcm = audio.read_pcm(synthesize(["The polar bear swam away.", "It was ice cold."], voice=voice, gap=1.0))
    spans = audio.speech_spans(pcm)
    assert len(spans) >= 2 and spans[-1][1] - spans[0][0] > 2.0
    assert any(b[0] - a[1] >= 0.9 for a, b in zip(spans, spans[1:]))  # the 1 s gap between sentences


def test_table_talk_is_mixed_in_at_a_third_of_the_amplitude(synthesize: Callable[..., Path], tmp_path: Path) -> None:
    speech = synthesize("We saw polar bears and seals.", voice=audio.FESTIVAL)
    mixed = audio.with_talk(speech, tmp_path)
    alone = np.frombuffer(audio.read_pcm(speech), "<i2").astype(np.float64)
    both = np.frombuffer(audio.read_pcm(mixed), "<i2").astype(np.float64)
    assert len(both) == len(alone)
    talk = both - alone
    assert np.sqrt(np.mean(talk**2)) > 100  # someone talks the whole time, also in the pauses
    said = np.frombuffer(audio.read_pcm(audio.synthesize(audio.TABLE_TALK, tmp_path, audio.PIPER, gap=0.4)), "<i2")
    assert np.abs(talk - audio.TALK_LEVEL * said[: len(talk)]).max() <= 1.0  # rounding only


def test_table_talk_can_be_mixed_in_at_a_third_of_the_loudness(synthesize: Callable[..., Path], tmp_path: Path) -> None:
    """Piper speaks louder than festival: matched in loudness, the talk is scaled down further."""
    speech = synthesize("We saw polar bears and seals.", voice=audio.FESTIVAL)
    alone = np.frombuffer(audio.read_pcm(speech), "<i2").astype(np.float64)
    talk = np.frombuffer(audio.read_pcm(audio.with_talk(speech, tmp_path, loudness=True)), "<i2").astype(np.float64) - alone
    said = np.frombuffer(audio.read_pcm(audio.synthesize(audio.TABLE_TALK, tmp_path, audio.PIPER, gap=0.4)), "<i2").astype(np.float64)
    assert audio.speaking_level(said) > 1.5 * audio.speaking_level(alone)  # why it matters
    scale = audio.TALK_LEVEL * audio.speaking_level(alone) / audio.speaking_level(said)
    assert np.abs(talk - scale * said[: len(talk)]).max() <= 1.0  # rounding only


def test_table_talk_can_start_later_in_what_it_says(synthesize: Callable[..., Path], tmp_path: Path) -> None:
    """Another overlap of the same two voices (bench_audio_terms.py --talk-from): the talk from
    a second before its end, then from its start again."""
    speech = synthesize("We saw polar bears and seals.", voice=audio.FESTIVAL)
    said = np.frombuffer(audio.read_pcm(audio.synthesize(audio.TABLE_TALK, tmp_path, audio.PIPER, gap=0.4)), "<i2")
    start = len(said) / audio.RATE - 1.0
    alone = np.frombuffer(audio.read_pcm(speech), "<i2").astype(np.float64)
    talk = np.frombuffer(audio.read_pcm(audio.with_talk(speech, tmp_path, start=start)), "<i2").astype(np.float64) - alone
    first = int(start * audio.RATE)
    assert len(talk) > audio.RATE  # it goes on past the end of what was said
    assert np.abs(talk - audio.TALK_LEVEL * np.tile(said, 2)[first : first + len(talk)]).max() <= 1.0  # rounding only
    assert audio.with_talk(speech, tmp_path, start=start) != audio.with_talk(speech, tmp_path)


def test_table_talk_says_no_term_of_the_corpus() -> None:
    """The benchmarks count every tick from the table talk as a false one, so no word of it may
    tick a term of the corpus, inflections and sound-alikes included."""
    referee = load_referee()
    terms = sorted({term for story in load("ticking")["stories"] for term in story["ticked"] + story["not_ticked"]})
    tracker = TickTracker(referee, {f"player {i}": [term] for i, term in enumerate(terms)}, sound_alike=0.85)
    assert [event.term for event in tracker.say(" ".join(audio.TABLE_TALK))] == []


def test_piper_says_a_text_the_same_way_whatever_it_said_before(tmp_path: Path) -> None:
    """Piper's noise is random: each synthesis is seeded afresh, so a text's audio does not
    depend on the run or on what was synthesized before it (a short command could flip)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = audio.read_pcm(audio.synthesize("confirm", tmp_path / "a", audio.PIPER))
    audio.synthesize("Sorry, I was not listening.", tmp_path / "b", audio.PIPER)
    assert audio.read_pcm(audio.synthesize("confirm", tmp_path / "b", audio.PIPER)) == first


def test_piper_audio_cached_with_another_seed_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is keyed by Piper's seed: a file said with another seed (or before there was
    one) in the same folder is other audio, and the text is said again."""
    monkeypatch.setattr(audio, "PIPER_SEED", audio.PIPER_SEED + 1)
    other = audio.synthesize("confirm", tmp_path, audio.PIPER)
    monkeypatch.undo()
    seeded = audio.synthesize("confirm", tmp_path, audio.PIPER)
    assert seeded != other and audio.read_pcm(seeded) != audio.read_pcm(other)
