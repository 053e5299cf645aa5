"""Benchmark of recognising the Storytelling card being read in Spanish, Catalan and German.

    nice -n 10 .venv/bin/python tests/benchmarks/bench_cards_languages.py [--languages es ca de] [--stream]

Every card of every tale, told in the language, is read by espeak-ng's voice of that language
(and, for Catalan, festival's upc_ca_ona_hts too) and heard by Whisper forced to the language (its
default model, multilingual base). By default the first quarter, half, three quarters and the
whole of each reading are each decoded whole (`WhisperRecognizer.decode`), and nlp.cards
identifies the card from each; with --stream the reading is streamed in 30 ms chunks as the host
hears it and identified after every hypothesis (all final hypotheses so far plus the current
one, as host.adapters.card_reading does), which takes several times longer. Candidates are the
13 cards of the card's tale, then all 52 cards of that language. Printed per language and voice:
the cards whose best guess at the end of the reading is the card read (target: 95 % or more),
those that became sure of it and when (the share of the card's audio heard: median and p95), and
readings ever sure of a wrong card. Audio is cached in the temporary folder, so reruns only
recognise.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.decks import TALE_KEYS  # noqa: E402
from host.speech.recognizer import Hypothesis  # noqa: E402
from host.speech.whisper_recognizer import WhisperRecognizer  # noqa: E402
from host.storage.decks import load_tale  # noqa: E402
from models import locate_whisper  # noqa: E402
from nlp.cards import CardIdentifier  # noqa: E402
from tests.benchmarks.bench_cards import Reading, follow, report  # noqa: E402
from tests.speech.audio import CATALAN, read_pcm, seconds, stream, synthesize  # noqa: E402

#: the voices reading each language's cards
VOICES = {"es": ("espeak:es",), "ca": ("espeak:ca", CATALAN), "de": ("espeak:de",)}
CACHE = Path(tempfile.gettempdir()) / "storyhost-bench-cards-languages"
PARTS = (0.25, 0.5, 0.75, 1.0)  # of a reading, decoded whole


def prefixes(recognizer: WhisperRecognizer, pcm: bytes) -> list[tuple[float, Hypothesis]]:
    """Each of PARTS of `pcm` decoded whole, as a partial hypothesis at the time it ends (the
    whole reading as the final one)."""
    timed = []
    for part in PARTS:
        cut = int(len(pcm) * part) // 2 * 2
        words = recognizer.decode(pcm[:cut])
        timed.append((seconds(pcm[:cut]), Hypothesis(words, part == 1.0)))
    return timed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=list(VOICES), choices=list(VOICES))
    parser.add_argument("--voices", nargs="+", help="only these voices, e.g. ona espeak:de")
    parser.add_argument("--stream", action="store_true", help="stream each reading as the host hears it")
    options = parser.parse_args()
    languages = options.languages
    voices = {language: [voice for voice in VOICES[language] if not options.voices or voice in options.voices]
              for language in languages}
    CACHE.mkdir(exist_ok=True)
    for language in languages:
        tales = [load_tale(key).told_in(language) for key in TALE_KEYS]
        everything = CardIdentifier(
            {i * 100 + card.number: card.text for i, tale in enumerate(tales) for card in tale.cards}, language
        )
        recognizer = WhisperRecognizer(locate_whisper(language=language).path, language=language)
        readings: list[Reading] = []
        started, audio = time.perf_counter(), 0.0
        for voice in voices[language]:
            for i, tale in enumerate(tales):
                own = CardIdentifier({card.number: card.text for card in tale.cards}, language)
                for card in tale.cards:
                    pcm = read_pcm(synthesize(card.text, CACHE, voice))
                    recognizer.reset()
                    timed = stream(recognizer, pcm) if options.stream else prefixes(recognizer, pcm)
                    audio += seconds(pcm)
                    for pool, identifier, truth in (("tale", own, card.number), ("all", everything, i * 100 + card.number)):
                        readings.append(Reading(voice, pool, *follow(identifier, truth, timed, seconds(pcm))))
                    print(f"{language} {voice} {tale.key} {card.number}: {' | '.join(h.text for _, h in timed if h.final)}",
                          file=sys.stderr)
        print(f"{language}: {audio:.0f} s of readings recognised in {time.perf_counter() - started:.0f} s")
        for pool, label in (("tale", "the card's own tale (13 cards)"), ("all", f"all 52 cards in {language}")):
            print(f" Against {label}:")
            for voice in voices[language]:
                report(voice, [r for r in readings if r.pool == pool and r.voice == voice])
    return 0


if __name__ == "__main__":
    sys.exit(main())
