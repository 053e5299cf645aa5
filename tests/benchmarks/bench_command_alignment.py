"""How much Whisper's free words for one short command depend on where the utterance begins: each
command, spoken by a voice, decoded as the host decodes a command utterance (beam WHOLE_BEAM, a
window of at least MIN_WINDOW) after 15 lead-ins of silence from 150 to 430 ms, as a voice
detector's cut may leave; each different transcription with how often it came, and how well it
fits the command (`nlp.commands.alike`, as the host's loose pass weighs it).

    .venv/bin/python tests/benchmarks/bench_command_alignment.py --language es \\
        "carta cuatro" "vota Leo cuatro" "colocadas"

Measured on 2026-12-03 with espeak-ng's Spanish voice: "carta cuatro" came out as "(¡)Catacuato(!)"
9 times (fits 0.90), "Katakwao" once (0.74) and "Cut, cut, wow" 5 times (0.61), which the live
Spanish playthrough meets as "Cut, Cut, Waffle"; "vota Leo cuatro" 8 ways (0.55 to 0.85).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.speech.whisper_decoding import MIN_WINDOW, WHOLE_BEAM, load, transcribe  # noqa: E402
from models import check_before_loading, locate_whisper  # noqa: E402
from nlp.commands import alike, spoken  # noqa: E402
from tests.speech.audio import RATE, read_pcm, synthesize  # noqa: E402

CACHE = Path(tempfile.gettempdir()) / "storyhost-bench-command-alignment"
LEAD_INS = range(150, 450, 20)  # milliseconds of silence before the speech


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="+")
    parser.add_argument("--language", default="es")
    parser.add_argument("--voice", help="a voice of tests.speech.audio.synthesize (default espeak:LANGUAGE)")
    options = parser.parse_args(argv)
    found = locate_whisper(language=options.language)  # the language's default, as a game in it hears
    check_before_loading(found)
    model = load(found.path, 2, options.language)
    CACHE.mkdir(exist_ok=True)
    for command in options.commands:
        phrase = spoken(command)
        path = synthesize(command, CACHE, options.voice or f"espeak:{options.language}", pad=0.0)
        speech = np.frombuffer(read_pcm(path), "<i2").astype(np.float32) / 32768
        heard: Counter[str] = Counter()
        for lead_in in LEAD_INS:
            audio = np.concatenate([np.zeros(lead_in * RATE // 1000, np.float32), speech, np.zeros(RATE * 6 // 10, np.float32)])
            heard[" ".join(word.text for word in transcribe(model, audio, 0.0, WHOLE_BEAM, None, MIN_WINDOW))] += 1
        print(f"{command!r}: {len(heard)} transcriptions: " + "; ".join(
            f"{text!r} ×{count} (fits {alike(spoken(text), phrase, options.language):.2f})"
            for text, count in heard.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
