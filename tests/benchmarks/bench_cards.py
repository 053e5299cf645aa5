"""Benchmark of identifying the Storytelling card being read (nlp.cards) on synthesized speech.

    .venv/bin/python tests/benchmarks/bench_cards.py

Every card of every tale is read by espeak-ng (en-us) and festival (slt), streamed through
PocketSphinx (free speech) in 30 ms chunks, and identified after every hypothesis from all final
hypotheses so far plus the current partial one, as the host would. Candidates are the 13 cards of
the card's own tale, and then all 52 cards. Printed per voice and overall: readings whose best
guess at the end is the card read, readings that became sure of the right card, readings that
were ever sure of a wrong card, and how much of the card's audio had been heard when it first
became sure (median, p95). Audio is cached in the temporary folder, so reruns only recognize.
"""
from __future__ import annotations

import argparse

import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.decks import TALE_KEYS  # noqa: E402
from host.storage.decks import load_tale  # noqa: E402
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer  # noqa: E402
from host.speech.recognizer import Hypothesis  # noqa: E402
from nlp.cards import CardIdentifier  # noqa: E402
from tests.speech.audio import read_pcm, seconds, stream, synthesize  # noqa: E402

VOICES = ("espeak:en-us", "slt")
CACHE = Path(tempfile.gettempdir()) / "storyhost-bench-cards"


@dataclass
class Reading:
    voice: str
    pool: str
    right: bool  # the best guess at the end is the card read
    sure_at: float | None  # fraction of the audio heard when first sure of the right card
    wrong_sure: bool  # sure of a wrong card at some point


def follow(identifier: CardIdentifier, truth: int, timed: list[tuple[float, Hypothesis]], length: float) -> tuple[bool, float | None, bool]:
    """Identify after every hypothesis: (right at the end, when first sure of it, ever sure of a wrong one)."""
    done: list[str] = []
    guess, sure_at, wrong_sure = None, None, False
    for at, hypothesis in timed:
        heard = " ".join([*done, hypothesis.text])
        if hypothesis.final:
            done.append(hypothesis.text)
        guess = identifier.identify(heard) or guess
        if identifier.sure(guess):
            if guess.number != truth:
                wrong_sure = True
            elif sure_at is None:
                sure_at = min(at / length, 1.0)
    return guess is not None and guess.number == truth, sure_at, wrong_sure


def spread(values: list[float]) -> str:
    if not values:
        return "never"
    p95 = statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    return f"median {statistics.median(values):.0%}, p95 {p95:.0%}"


def report(label: str, readings: list[Reading]) -> None:
    total = len(readings)
    right = sum(r.right for r in readings)
    sure = [r.sure_at for r in readings if r.sure_at is not None]
    wrong = sum(r.wrong_sure for r in readings)
    print(f"  {label:22} identified {right}/{total} ({right / total:.1%}); sure of it {len(sure)}/{total}; "
          f"wrong but sure {wrong}; sure after {spread(sure)} of the audio")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voices", nargs="+", default=list(VOICES), help='e.g. slt espeak:en-us "espeak:en-us+f2"')
    voices = parser.parse_args().voices
    CACHE.mkdir(exist_ok=True)
    tales = [load_tale(key) for key in TALE_KEYS]
    everything = CardIdentifier({i * 100 + c.number: c.text for i, tale in enumerate(tales) for c in tale.cards})
    recognizer = PocketSphinxRecognizer()
    readings: list[Reading] = []
    for voice in voices:
        for i, tale in enumerate(tales):
            own = CardIdentifier({card.number: card.text for card in tale.cards})
            for card in tale.cards:
                pcm = read_pcm(synthesize(card.text, CACHE, voice))
                recognizer.reset()
                timed = stream(recognizer, pcm)
                for pool, identifier, truth in (("tale", own, card.number), ("all", everything, i * 100 + card.number)):
                    readings.append(Reading(voice, pool, *follow(identifier, truth, timed, seconds(pcm))))
                print(f"{voice} {tale.key} {card.number}: {' | '.join(h.text for _, h in timed if h.final)}",
                      file=sys.stderr)
    for pool, label in (("tale", "the card's own tale (13 cards)"), ("all", "all 52 cards")):
        print(f"Against {label}:")
        for voice in voices:
            report(voice, [r for r in readings if r.pool == pool and r.voice == voice])
        report("all voices", [r for r in readings if r.pool == pool])
    return 0


if __name__ == "__main__":
    sys.exit(main())
