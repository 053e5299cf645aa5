"""Benchmark of ticking from audio: the term corpus spoken, heard and judged as in a live round.

    .venv/bin/python tests/benchmarks/bench_audio_terms.py [--asr vosk|pocketsphinx] [--model PATH]
                                                        [--mistakes] [--right-context N]

Each story of tests/nlp/corpus/ticking.json that can be spoken (not typed_only) is synthesized
with festival's slt voice, one sentence at a time with a storyteller's pause between them
(cached in the temp folder), streamed through FileSource -> hear() -> TickTracker with one
player per term, and judged against the corpus. Prints:

- judgement accuracy: terms ticked or not as the corpus expects / all terms (target >= 0.90),
  and how many of the wrong ones the final transcripts alone also get wrong (the recognizer
  misheard) or only the stream does; the same with the tracker's sound-alike matching on;
- tick lookahead: for each tick, the audio time at which it was emitted (`Heard.at` of the
  deciding hypothesis) minus the end of the evidence's last word (target p95 <= 0.5 s), over all
  tick events and over first ticks (not the ticks again after a revision withdrew one); for first
  ticks, where the time goes: until the evidence first shows in a hypothesis (the recognizer), and
  what the tracker decided on: a partial hypothesis once the next word or more context came, or
  the final one (the evidence ended the utterance, showed in no partial, or had too few words
  after it). Audio time: live, each decision also waits for the decoding of its chunk;
- the recognizer's real-time factor: decoding time / audio time (PocketSphinx target <= 0.3);
- peak memory (ru_maxrss) of the process after the round (target <= 500 MB).

--right-context N measures what nlp.ticks.RIGHT_CONTEXT = N would give; --mistakes lists every
wrong judgement with the final transcripts.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import nlp.ticks
from host.audio_in import FileSource
from host.audio_referee import TimedEvent, referee_heard
from host.hearing import Heard, hear
from host.recognizer import KINDS, Recognizer, open_recognizer, phrase_words
from nlp import TermReferee, TickTracker, load_referee
from tests.benchmarks.bench_asr import word_errors
from tests.nlp.corpus_judge import load, story_terms
from tests.speech.audio import synthesize

CACHE = Path(tempfile.gettempdir()) / "storyhost-bench-audio-terms"
PAUSE = 0.8  # seconds between sentences
SOUND_ALIKE = (0.75, 0.8, 0.85)  # thresholds tried
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


@dataclass
class HeardStory:
    story: dict[str, Any]
    audio: float  # seconds
    decoding: float  # seconds in the recognizer
    heard: list[Heard]


def recording(story: dict[str, Any]) -> Path:
    return synthesize(_SENTENCE_END.split(story["story"].strip()), CACHE, gap=PAUSE)


def listen(story: dict[str, Any], recognizer: Recognizer) -> HeardStory:
    source = FileSource(recording(story), recognizer.sample_rate)
    chunks = list(source)  # converted before the clock starts: only the recognizer is timed
    source.close()
    recognizer.reset()
    start = time.perf_counter()
    heard = list(hear(chunks, recognizer))
    return HeardStory(story, source.duration, time.perf_counter() - start, heard)


def judge(
    referee: TermReferee, told: HeardStory, heard: list[Heard] | None = None, **options: Any
) -> tuple[set[str], list[TimedEvent]]:
    """The terms ticked at the end, and the events, of `heard` (default: everything heard)."""
    tracker = TickTracker(referee, story_terms(told.story), **options)
    events = list(referee_heard(tracker, told.heard if heard is None else heard))
    return {tick.term for ticks in tracker.ticked().values() for tick in ticks if tick}, events


def mistakes(story: dict[str, Any], ticked: set[str]) -> list[str]:
    return [f"{term!r} should tick" for term in story["ticked"] if term not in ticked] + [
        f"{term!r} should not tick" for term in story["not_ticked"] if term in ticked
    ]


@dataclass
class Score:
    judgements: int = 0
    wrong: int = 0
    misheard: int = 0  # wrong judgements that the final transcripts alone also give
    unticks: int = 0  # ticks withdrawn by a revision
    flicker: int = 0  # of which ticked again later with the same words

    @property
    def accuracy(self) -> float:
        return 1 - self.wrong / self.judgements


def score(referee: TermReferee, told: list[HeardStory], **options: Any) -> Score:
    result = Score()
    for story in told:
        ticked, events = judge(referee, story, **options)
        finals, _ = judge(referee, story, [h for h in story.heard if h.hypothesis.final], **options)
        found = mistakes(story.story, ticked)
        result.judgements += len(story.story["ticked"]) + len(story.story["not_ticked"])
        result.wrong += len(found)
        result.misheard += len(set(found) & set(mistakes(story.story, finals)))
        for i, timed in enumerate(events):
            if timed.event.kind == "untick":
                result.unticks += 1
                result.flicker += any(
                    later.event.kind == "tick" and later.event.player == timed.event.player
                    and later.event.evidence == timed.event.evidence for later in events[i + 1 :]
                )
    return result


@dataclass(frozen=True)
class Delay:
    """One tick: seconds from the end of the evidence to its first showing in a hypothesis of
    its utterance (`shown`) and to the tick (`total`); how many words the deciding hypothesis
    had after the evidence, whether it was final, and whether this is the term's first tick (not
    a tick again after a revision withdrew it)."""

    shown: float
    total: float
    after: int
    final: bool
    first: bool

    @property
    def rescored(self) -> bool:
        """The evidence showed in no partial hypothesis, only in the final one."""
        return self.final and self.shown == self.total


def delays(heard: list[Heard], events: list[TimedEvent]) -> list[Delay]:
    out, ticked = [], set()
    for timed in events:
        event = timed.event
        if event.kind != "tick" or event.time is None:
            continue
        run = event.evidence.split()
        deciding = (i for i, h in enumerate(heard) if h.hypothesis is timed.hypothesis)
        last = len(heard) - 1 if timed.hypothesis is None else next(deciding)
        start = last  # of the utterance
        while start > 0 and not heard[start - 1].hypothesis.final:
            start -= 1
        shown = next(heard[i].at for i in range(start, last + 1) if _end(heard[i], run) is not None)
        after = len(heard[last].hypothesis.words) - (_end(heard[last], run) or 0)
        first = (event.player, event.index) not in ticked
        ticked.add((event.player, event.index))
        out.append(Delay(shown - event.time, timed.at - event.time, after, heard[last].hypothesis.final, first))
    return out


def _end(heard: Heard, run: list[str]) -> int | None:
    """Where the last occurrence of the words `run` in the hypothesis ends, if they are in it."""
    words = [w.text for w in heard.hypothesis.words]
    ends = [i + len(run) for i in range(len(words) - len(run) + 1) if words[i : i + len(run)] == run]
    return max(ends) if ends else None


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.2f} s, p95 {p95(values):.2f} s"


def breakdown(rows: list[Delay]) -> None:
    """Where the lookahead of first ticks goes."""
    groups = [
        ("on a partial, once the next word showed", lambda d: not d.final and d.after == 1),
        ("on a partial, once 2+ words followed (noun+noun context, collocations)", lambda d: not d.final and d.after > 1),
        ("on the final, the evidence ending the utterance", lambda d: d.final and d.after == 0),
        ("on the final, the evidence in no partial (the final pass rescored)", lambda d: d.rescored and d.after > 0),
        (
            "on the final, words after it (too few for the context, or partials revised)",
            lambda d: d.final and d.after > 0 and not d.rescored,
        ),
    ]
    print(f"  first ticks: the recognizer showed the evidence {spread([d.shown for d in rows])} after its end;")
    print("  the tracker decided")
    for name, belongs in groups:
        group = [d for d in rows if belongs(d)]
        print(
            f"    {name}: {len(group)} ticks, lookahead {spread([d.total for d in group])}, "
            f"{sum(d.total > 0.5 for d in group)} later than 0.5 s"
        )


def word_error_rate(told: list[HeardStory]) -> float:
    errors = words = 0
    for story in told:
        reference = [word for sentence in phrase_words([story.story["story"]]) for word in sentence]
        heard = [word.text for h in story.heard if h.hypothesis.final for word in h.hypothesis.words]
        errors += word_errors(reference, heard)
        words += len(reference)
    return errors / words


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asr", choices=KINDS, default="pocketsphinx", help="recognizer (default: pocketsphinx)")
    parser.add_argument("--model", type=Path, help="Vosk model folder")
    parser.add_argument("--mistakes", action="store_true", help="list every wrong judgement with what was heard")
    parser.add_argument(
        "--right-context", type=int, metavar="N", help="what if nlp.ticks.RIGHT_CONTEXT were N (words after a noun+noun)"
    )
    args = parser.parse_args(argv)
    if args.right_context is not None:
        nlp.ticks.RIGHT_CONTEXT = args.right_context
    CACHE.mkdir(exist_ok=True)
    stories = [story for story in load("ticking")["stories"] if not story.get("typed_only")]
    print(f"synthesizing {len(stories)} stories into {CACHE} (cached)...", flush=True)
    for story in stories:
        recording(story)
    referee = load_referee()
    recognizer = open_recognizer(args.asr, args.model)
    start = time.perf_counter()
    told = [listen(story, recognizer) for story in stories]
    results = [judge(referee, story) for story in told]
    wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux

    audio = sum(story.audio for story in told)
    decoding = sum(story.decoding for story in told)
    judged = score(referee, told)
    rows = [row for story, (_, events) in zip(told, results) for row in delays(story.heard, events)]
    firsts = [d for d in rows if d.first]
    lookahead = p95([d.total for d in rows])
    print(f"{args.asr} on festival slt: {len(told)} stories, {audio:.0f} s of audio, "
          f"word error rate {word_error_rate(told):.1%}")
    print(f"judgement accuracy: {judged.accuracy:.4f} ({judged.judgements - judged.wrong}/{judged.judgements})"
          "  target >= 0.90")
    print(f"  {judged.wrong} wrong: {judged.misheard} also from the final transcripts alone (misheard), "
          f"{judged.wrong - judged.misheard} from the stream only; {judged.unticks} ticks withdrawn by a revision, "
          f"{judged.flicker} of them ticked again later with the same words")
    for threshold in SOUND_ALIKE:
        alike = score(referee, told, sound_alike=threshold)
        print(f"  with sound_alike={threshold}: {alike.accuracy:.4f} ({alike.wrong} wrong, {alike.unticks} withdrawn)")
    print(f"tick lookahead (emitted - end of the evidence): {spread([d.total for d in rows])} over all {len(rows)} "
          f"ticks  target p95 <= 0.5 s; {spread([d.total for d in firsts])} over the {len(firsts)} first ticks")
    breakdown(firsts)
    print(f"recognizer real-time factor: {decoding / audio:.3f}; the whole round (conversion, recognizer, tracker) "
          f"{wall / audio:.3f}  target <= 0.3")
    print(f"peak memory after the round: {peak_mb:.0f} MB  target <= 500 MB")
    if args.mistakes:
        for story, (ticked, _) in zip(told, results):
            found = mistakes(story.story, ticked)
            if found:
                heard = " / ".join(h.hypothesis.text for h in story.heard if h.hypothesis.final)
                print(f"- {story.story['story']}\n  heard: {heard}\n  " + "; ".join(found))
    met = judged.accuracy >= 0.90 and lookahead <= 0.5 and (args.asr != "pocketsphinx" or decoding / audio <= 0.3) and peak_mb <= 500
    print("all targets met" if met else "TARGET MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
