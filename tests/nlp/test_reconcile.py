"""The stream's ticks reconciled with the recognizer's confirmations of finished utterances."""
from __future__ import annotations

from dataclasses import replace

from nlp import HeardWord, ReconcilingTracker, TickEvent


def words(*timed: tuple[str, float, float, float]) -> list[HeardWord]:
    """(text, start, end, probability) each."""
    return [HeardWord(text, start, end, probability) for text, start, end, probability in timed]


STREAMED = words(("There", 0.0, 0.3, 0.9), ("was", 0.3, 0.5, 0.9), ("no", 0.5, 0.8, 0.6), ("everywhere.", 0.8, 1.4, 0.9))
CONFIRMED = words(("There", 0.0, 0.3, 0.95), ("was", 0.3, 0.5, 0.95), ("snow", 0.5, 0.8, 0.97), ("everywhere.", 0.8, 1.4, 0.99))


def test_a_confirmation_adds_the_tick_the_stream_missed_at_the_time_of_its_word(referee):
    tracker = ReconcilingTracker(referee, {"Ann": ["snow"], "Bo": ["snowy"]})
    assert tracker.update(STREAMED, final=True) == []  # "snow" misheard as "no"
    assert tracker.confirm(CONFIRMED) == [TickEvent("Ann", "snow", 0, "snow", 0.8)]
    assert tracker.confirm(CONFIRMED) == []  # ticked once
    assert tracker.ticked()["Ann"] == [TickEvent("Ann", "snow", 0, "snow", 0.8)]


def test_a_streamed_tick_is_withdrawn_only_on_clear_evidence(referee):
    heard = words(("a", 0.0, 0.2, 0.9), ("seal", 0.2, 0.6, 0.5), ("swam.", 0.6, 1.0, 0.9))
    clear = words(("a", 0.0, 0.2, 0.9), ("zeal", 0.2, 0.6, 0.95), ("swam.", 0.6, 1.0, 0.9))
    unsure = words(("a", 0.0, 0.2, 0.9), ("zeal", 0.2, 0.6, 0.6), ("swam.", 0.6, 1.0, 0.9))
    for confirmed, withdrawn in ((clear, True), (unsure, False)):
        tracker = ReconcilingTracker(referee, {"Ann": ["seal"]}, withdraw_at=0.9)
        [tick] = tracker.update(heard, final=True)
        assert tracker.confirm(confirmed) == ([TickEvent("Ann", "seal", 0, "seal", 0.6, ticked=False)] if withdrawn else [])
        assert (tracker.ticked()["Ann"] == [None]) == withdrawn
    never = ReconcilingTracker(referee, {"Ann": ["seal"]}, withdraw_at=None)  # add only
    never.update(heard, final=True)
    assert never.confirm(clear) == []


def test_the_same_words_read_otherwise_take_nothing_back(referee):
    """The stream ticked "cold" in "ice cold"; the confirmation hears "ice-cold", which ticks no
    "cold": the same words, so no evidence against the tick."""
    tracker = ReconcilingTracker(referee, {"Ann": ["cold"]}, withdraw_at=0.5)
    streamed = words(("it", 0.0, 0.2, 0.9), ("was", 0.2, 0.4, 0.9), ("ice", 0.4, 0.7, 0.9), ("cold.", 0.95, 1.2, 0.9))  # a pause
    confirmed = words(("it", 0.0, 0.2, 0.9), ("was", 0.2, 0.4, 0.9), ("ice-cold.", 0.4, 1.2, 0.99))
    assert [event.term for event in tracker.update(streamed, final=True)] == ["cold"]
    assert tracker.confirm(confirmed) == []


def test_a_part_of_a_compound_committed_alone_is_another_word(referee):
    """The stream's buffer ended inside "cold-hearted": it committed "cold" and heard "hard." after
    it. The confirmation hears "cold-hearted", whose parts do not count: the tick is withdrawn."""
    tracker = ReconcilingTracker(referee, {"Ann": ["cold"]}, withdraw_at=0.95)
    streamed = words(("a", 0.0, 0.3, 0.9), ("cold", 0.3, 0.65, 0.9), ("hard.", 0.65, 1.0, 0.6))
    confirmed = words(("a", 0.0, 0.3, 0.9), ("cold-hearted", 0.3, 1.0, 0.98), ("king.", 1.0, 1.4, 0.99))
    [tick] = tracker.update(streamed, final=True)
    assert tracker.confirm(confirmed) == [replace(tick, ticked=False)]
    assert tracker.ticked()["Ann"] == [None]


def test_a_revision_of_the_stream_takes_back_no_tick_the_confirmations_give(referee):
    tracker = ReconcilingTracker(referee, {"Ann": ["snow"]})
    tracker.update(STREAMED, final=True)
    [added] = tracker.confirm(CONFIRMED)
    assert tracker.update(words(("More", 2.0, 2.3, 0.9), ("snow", 2.3, 2.6, 0.5), ("fell", 2.6, 2.9, 0.9))) == []
    assert tracker.update(words(("More", 2.0, 2.3, 0.9), ("slow", 2.3, 2.6, 0.5), ("fell", 2.6, 2.9, 0.9))) == []
    assert tracker.ticked()["Ann"] == [added]


def test_typed_text_is_judged_as_before(referee):
    tracker = ReconcilingTracker(referee, {"Ann": ["polar bear", "bear"]})
    assert [event.term for event in tracker.say("We saw polar bears.")] == ["polar bear"]
    assert tracker.finish() == []
