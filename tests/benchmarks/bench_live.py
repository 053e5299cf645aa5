"""Live round figures: launch to listening, and the peak memory of a whole live story.

Runs `storyhost play stories --speech` against a private PulseAudio with a virtual microphone
(tests/audio/pulse.py), tells a festival-voice story into it and prints:
- launch to ready: from starting the process to the first announcement (language resources,
  recognizer and voice loaded);
- start to listening: from typing 'start' to the host announcing the story has begun (it opens
  the microphone as it does);
- peak memory (maximum resident set size) of the storyhost process over the round.

Run: .venv/bin/python tests/benchmarks/bench_live.py [--runs N] [--asr KIND ...]
(default: every English recognizer installed, one after the other, side by side).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.speech.registry import names  # noqa: E402
from tests.audio.pulse import PulseAudio  # noqa: E402
from tests.audio.test_live_round import NARRATION, SETUP, LiveHost, festival  # noqa: E402
from tests.benchmarks.bench_asr import english_kinds  # noqa: E402

TARGETS = {"launch to listening": 3.0, "peak memory MB": 800}  # issue 19


def one_round(pulse: PulseAudio, folder: Path, narration: Path, asr: str) -> dict[str, float]:
    feeder = pulse.feeder()
    launched = time.monotonic()
    host = LiveHost(pulse, folder, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2",
                    "--timer", "60", "--speech", "--input", "pulse", "--asr", asr)
    host.wait_for("Nina, choose normal or quirky", 60)
    ready = time.monotonic() - launched
    host.type(*SETUP)
    host.wait_for("Everyone has written 5 terms", 30)
    started = time.monotonic()
    host.type("start")
    host.wait_for("The timer runs 60 seconds", 30)
    started_listening = time.monotonic() - started  # the microphone opens as 'start' is applied
    time.sleep(8)
    feeder.play_file(narration)
    host.wait_for("Stop!", 60)
    host.type("confirm")
    host.wait_for("Points for this story", 30)
    host.finish()
    feeder.stop()
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB -> MiB, largest child so far
    return {"launch to ready s": ready, "start to listening s": started_listening, "peak memory MB": peak}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--asr", nargs="+", choices=names(), help="recognizers (default: every English one installed)")
    args = parser.parse_args()
    kinds = args.asr or english_kinds()
    if len(kinds) > 1:  # ru_maxrss of children is the largest child's: one process per recognizer
        for kind in kinds:
            subprocess.run([sys.executable, __file__, "--runs", str(args.runs), "--asr", kind], check=False)
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        narration = festival(NARRATION, folder / "story.wav")
        with PulseAudio(folder / "pulse") as pulse:
            results = [one_round(pulse, folder / f"data{run}", narration, kinds[0]) for run in range(args.runs)]
    print(f"{kinds[0]}: live Stories! round, {args.runs} runs, {os.cpu_count()} cores")
    for key in results[0]:
        values = [result[key] for result in results]
        print(f"{key:>22}: median {statistics.median(values):.2f}, max {max(values):.2f}")
    launch = max(r["launch to ready s"] + r["start to listening s"] for r in results)
    peak = max(r["peak memory MB"] for r in results)
    print(f"| launch to listening (worst run, ready + start), {kinds[0]} | <= {TARGETS['launch to listening']} s | "
          f"{launch:.2f} s {'met' if launch <= TARGETS['launch to listening'] else 'MISSED'} |")
    print(f"| peak memory of a live round, {kinds[0]} | <= {TARGETS['peak memory MB']} MB | "
          f"{peak:.0f} MB {'met' if peak <= TARGETS['peak memory MB'] else 'MISSED'} |")


if __name__ == "__main__":
    main()
