"""Word error rate of Whisper forced to Spanish on real Spanish speech, against the same model's
English figure (issue 22).

    .venv/bin/python tests/benchmarks/bench_asr_es.py [--every N] [--model NAME|PATH] [--text PATH]
                                                   [--mexican DIR]

- Colombian Spanish: Debian's `asterisk-prompt-es-co` (human prompts recorded by Avatar Ltda.,
  GSM, 8 kHz, in /usr/share/asterisk/sounds/es). The package has no transcriptions: those of
  Asterisk's core Spanish prompts (`core-sounds-es.txt.gz` of Debian's asterisk-core-sounds-es,
  which conflicts with the Colombian package: extract it with `apt-get download
  asterisk-core-sounds-es` and `dpkg-deb -x`, and give --text) name the same prompts, but they
  were written for another recording (Mexican Spanish), so where the Colombian voice says a prompt
  in other words, the difference counts as errors: this figure is an upper bound.
- Mexican Spanish (--mexican DIR: es_MX_f_Allison of asterisk-core-sounds-es-gsm, extracted the
  same way): the recordings those transcriptions were written for.
- English: the same model forced to English on asterisk-core-sounds-en-wav (bench_asr.py's set).
Every Nth prompt (default 2) of five words or more without digits or sound effects, each streamed
on its own; words compared without accents (the transcriptions write none), digits Whisper
writes read as Spanish words. The stream's finals and the confirmations are both reported.

Measured (2 December 2026, base, --every 2, the machine loaded 12-14 by other work): Colombian
41 prompts, 422 words, stream 0.685, confirmations 0.652 (mostly other wording than the
transcriptions': "ese agente ya ha entrado al sistema" for "ese agente ya ha sido autenticado");
Mexican 80 prompts, 1,020 words, stream 0.244, confirmations 0.220; English 79 prompts, 841
words, stream 0.080, confirmations 0.089. All telephone speech (8 kHz).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.speech.registry import open_recognizer  # noqa: E402
from nlp.commands import fold  # noqa: E402
from tests.benchmarks.bench_asr import Errors, asterisk, real_speech_errors  # noqa: E402

COLOMBIAN = Path("/usr/share/asterisk/sounds/es")  # Debian asterisk-prompt-es-co
SPANISH_TEXT = Path("/usr/share/doc/asterisk-core-sounds-es/core-sounds-es.txt.gz")  # asterisk-core-sounds-es
#: digits as Spanish words (the prompts' numbers are small)
DIGITS = dict(zip("0123456789", "cero uno dos tres cuatro cinco seis siete ocho nueve".split()))


def spanish_word(word: str) -> str:
    return DIGITS.get(word, fold(word))


def as_wav(recordings: list[tuple[Path, list[str]]], folder: Path) -> list[tuple[Path, list[str]]]:
    """The GSM prompts as 16 kHz WAV (libsndfile reads no headerless GSM), words folded."""
    out = []
    for path, words in recordings:
        wav = folder / f"{path.parent.name}-{path.stem}.wav"
        subprocess.run(["sox", "-V1", str(path), "-r", "16000", str(wav)], check=True)
        out.append((wav, [fold(word) for word in words]))
    return out


def line(name: str, count: int, errors: Errors) -> str:
    confirmed = errors.rate(True)
    return (f"{name}: {count} prompts, {errors.words} words, word error rate: stream "
            f"{errors.stream / errors.words:.3f} ({errors.stream}/{errors.words})"
            + ("" if confirmed is None else f", confirmations {confirmed:.3f} ({errors.confirmed}/{errors.words})"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=2, metavar="N", help="every Nth prompt (default 2)")
    parser.add_argument("--model", default="base", help="the Whisper model, a multilingual one (default base)")
    parser.add_argument("--text", type=Path, default=SPANISH_TEXT, help="core-sounds-es.txt.gz")
    parser.add_argument("--mexican", type=Path, default=None, help="the es_MX_f_Allison folder of GSM prompts")
    args = parser.parse_args(argv)
    model = Path(args.model)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        sets = {"Colombian Spanish (asterisk-prompt-es-co)": (COLOMBIAN, "es")}
        if args.mexican is not None:
            sets["Mexican Spanish (asterisk-core-sounds-es-gsm)"] = (args.mexican, "es")
        for name, (prompts, language) in sets.items():
            recordings = as_wav(asterisk(args.every, prompts, args.text, ".gsm"), Path(folder))
            if not recordings:
                print(f"{name}: skipped, install the prompts and give --text (see the docstring)")
                continue
            recognizer = open_recognizer("whisper", model, confirming=model, language=language)
            errors = real_speech_errors(recognizer, recordings, spelled=spanish_word)
            results.append(line(name, len(recordings), errors))
            print(results[-1])
            for heard in errors.heard:
                print(f"    heard (stream | confirmations): {heard}")
        english = asterisk(args.every)
        if english:
            recognizer = open_recognizer("whisper", model, confirming=model, language="en")
            results.append(line("English (asterisk-core-sounds-en-wav)", len(english), real_speech_errors(recognizer, english)))
            print(results[-1])
        else:
            print("English: skipped, install Debian's asterisk-core-sounds-en-wav and asterisk-core-sounds-en")
    print(f"\nmodel {args.model}, one prompt in {args.every}:")
    for result in results:
        print(f"- {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
