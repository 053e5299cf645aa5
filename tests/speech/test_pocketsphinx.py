"""PocketSphinx on festival speech streamed in 30 ms chunks, as from a microphone."""
from __future__ import annotations

from itertools import pairwise

import pytest

from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer, spoken_word
from host.speech.recognizer import UnknownWords, WrongSampleRate
from tests.speech.audio import chunks, finals, read_pcm, seconds, speech_spans, stream

pytestmark = pytest.mark.slow

ARCTIC = ["We saw polar bears in the snow.", "Then we flew home to Canada."]
COMMANDS = ["next card", "question Sabine", "skip", "new round"]


@pytest.fixture(scope="module")
def recognizer() -> PocketSphinxRecognizer:
    return PocketSphinxRecognizer()


@pytest.fixture
def arctic(synthesize) -> bytes:
    return read_pcm(synthesize(ARCTIC))


@pytest.fixture(autouse=True)
def fresh(recognizer: PocketSphinxRecognizer):
    recognizer.set_phrases(None)
    recognizer.reset()


def test_narration_is_split_into_utterances_with_the_content_words(recognizer, arctic):
    first, second = finals(stream(recognizer, arctic))
    assert len({"polar", "bears", "snow"} & {w.text for w in first.words}) >= 2
    assert len({"flew", "home", "canada"} & {w.text for w in second.words}) >= 2


def test_word_times_increase_and_lie_where_the_speech_is(recognizer, arctic):
    utterances = finals(stream(recognizer, arctic))
    spans = speech_spans(arctic)
    assert len(utterances) == len(spans) == 2
    for utterance, (start, end) in zip(utterances, spans):
        words = utterance.words
        assert all(w.start < w.end for w in words)
        assert all(a.end <= b.start + 1e-6 for a, b in pairwise(words))
        assert abs(words[0].start - start) < 0.25 and abs(words[-1].end - end) < 0.25
    assert utterances[-1].words[-1].end <= seconds(arctic)


def test_confidences_are_posteriors_on_final_words_only(recognizer, arctic):
    timed = stream(recognizer, arctic)
    assert all(0 < w.confidence <= 1 for h in finals(timed) for w in h.words)
    assert all(w.confidence is None for _, h in timed if not h.final for w in h.words)


def test_partial_hypotheses_come_before_the_final_one_and_show_words_early(recognizer, arctic):
    timed = stream(recognizer, arctic)
    first_final = next(i for i, (_, h) in enumerate(timed) if h.final)
    partials = [(t, h) for t, h in timed[:first_final] if not h.final]
    assert len(partials) >= 5
    bears = next(w for w in timed[first_final][1].words if w.text == "bears")
    heard_at = next(t for t, h in partials if "bears" in h.text.split())
    assert heard_at < timed[first_final][0]
    assert heard_at - bears.end < 0.5  # the latency figures are in tests/benchmarks/bench_asr.py
    assert all(w.start is not None and w.end is not None for _, h in partials for w in h.words)


def test_chunk_size_does_not_change_the_result(recognizer, arctic):
    thirty_ms = finals(stream(recognizer, arctic))
    recognizer.reset()
    odd = finals(stream(recognizer, arctic, size=0.0071))
    assert odd == thirty_ms


def test_times_run_on_across_streams_until_reset(recognizer, arctic):
    once = finals(stream(recognizer, arctic))
    twice = finals(stream(recognizer, arctic))
    assert twice[-1].words[-1].end == pytest.approx(once[-1].words[-1].end + seconds(arctic), abs=0.15)
    recognizer.reset()
    assert finals(stream(recognizer, arctic)) == once


def test_phrase_list_limits_results_to_one_phrase(recognizer, synthesize):
    recognizer.set_phrases(COMMANDS)
    for command, expected in (("Next card.", "next card"), ("Question Sabine.", "question sabine")):
        (result,) = finals(stream(recognizer, read_pcm(synthesize(command))))
        assert result.text == expected
    (forced,) = finals(stream(recognizer, read_pcm(synthesize("The little dog ran across the green field."))))
    assert forced.text in {"next card", "question sabine", "skip", "new round", ""}


def test_under_a_phrase_list_the_loose_pass_says_what_was_really_said(recognizer, synthesize):
    """The check of a closed grammar, which forces any sound into a phrase: free recognition of
    the same audio comes with each final hypothesis."""
    recognizer.set_phrases(COMMANDS)
    (command,) = finals(stream(recognizer, read_pcm(synthesize("Next card."))))
    assert command.loose == "next card"
    (forced,) = finals(stream(recognizer, read_pcm(synthesize("The little dog ran across the green field."))))
    assert {"dog", "green", "field"} & set(forced.loose.split())
    recognizer.set_phrases(None)
    (free,) = finals(stream(recognizer, read_pcm(synthesize("Next card."))))
    assert free.loose is None


def test_a_grammar_only_recognizer_hears_phrases_and_nothing_else(synthesize):
    """The split recognizer's grammar (loose=False) loads no n-gram model: with no phrase list it
    hears nothing, before any list and after one, and under a list it hears the phrase alone."""
    grammar, said = PocketSphinxRecognizer(loose=False), read_pcm(synthesize("Next card."))
    assert finals(stream(grammar, said)) == []
    grammar.set_phrases(COMMANDS)
    (command,) = finals(stream(grammar, said))
    assert command.text == "next card" and command.loose is None
    grammar.set_phrases(None)
    assert finals(stream(grammar, said)) == []


def test_no_phrase_list_returns_to_free_speech(recognizer, arctic):
    recognizer.set_phrases(COMMANDS)
    recognizer.set_phrases(None)
    assert {"polar", "snow"} <= {w.text for h in finals(stream(recognizer, arctic)) for w in h.words}


def test_switching_phrases_mid_utterance_closes_it_first(recognizer, arctic):
    half = int(1.5 * recognizer.sample_rate) * 2
    heard = [h for chunk in chunks(arctic[:half]) for h in recognizer.accept(chunk)]
    assert heard and not heard[-1].final
    recognizer.set_phrases(COMMANDS)
    closed = recognizer.accept(b"")
    assert closed[0].final and "polar" in closed[0].text.split()


def test_phrases_with_unknown_words_are_refused(recognizer):
    with pytest.raises(UnknownWords, match="storyhost") as refused:
        recognizer.set_phrases(["next card", "Storyhost go"])
    assert refused.value.words == ("storyhost",)


def test_wrong_sample_rate_says_the_rate_it_needs():
    with pytest.raises(WrongSampleRate, match="16000 Hz"):
        PocketSphinxRecognizer(44100)


def test_silence_and_half_samples(recognizer):
    assert recognizer.accept(bytes(2 * recognizer.sample_rate)) == []
    assert recognizer.finish() == []
    with pytest.raises(ValueError, match="16-bit"):
        recognizer.accept(b"\x00\x01\x02")


def test_the_decoders_fillers_and_pronunciation_variants_never_reach_the_words():
    """The term matcher (nlp) knows no recognizer: its tokens are cleaned here."""
    assert [spoken_word(token) for token in ("<s>", "we", "[NOISE]", "read(2)", "<sil>", "books", "</s>")] == [
        None, "we", None, "read", None, "books", None
    ]


def test_words_heard_in_a_recording_are_plain_words(recognizer, arctic):
    words = [word.text for _, hypothesis in stream(recognizer, arctic) for word in hypothesis.words]
    assert words and all(word.isalpha() or "'" in word for word in words), words
