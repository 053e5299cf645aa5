"""A real human voice for spoken commands: the professional recordings of Debian's
`asterisk-core-sounds-en-wav` (Allison Smith's US English prompts for the Asterisk telephone
exchange, 8 kHz telephone quality). Its letters/, phonetic/ (the spelling alphabet) and digits/
folders say one letter, spelling word or number each: a grid position is a letter and a number
joined with a short pause, as a player says "c one". Its whole prompts ("please try again") are
speech that is no command."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.speech.audio import RATE, read_pcm

SOUNDS = Path("/usr/share/asterisk/sounds/en_US_f_Allison")
VOICE = "allison"
#: the pause between a letter and its number, and the silence around an utterance (seconds)
BETWEEN, AROUND = 0.15, 0.3
#: whole prompts that are no command of any game
PROMPTS = ("please-try-again", "im-sorry", "one-moment-please", "goodbye", "hello-world", "demo-congrats",
           "vm-goodbye", "auth-thankyou")


def available() -> bool:
    return (SOUNDS / "letters" / "a.wav").is_file() and shutil.which("sox") is not None


def position(letter: str, number: int, folder: Path, alphabet: bool = False) -> bytes:
    """A grid position said by the human voice at 16 kHz: "c one", or "charlie one" with the
    spelling alphabet."""
    first = SOUNDS / ("phonetic" if alphabet else "letters") / (f"{letter}_p.wav" if alphabet else f"{letter}.wav")
    return _joined([first, SOUNDS / "digits" / f"{number}.wav"], folder, f"{'nato-' if alphabet else ''}{letter}{number}")


def prompt(name: str, folder: Path) -> bytes:
    """One of the voice's whole prompts (PROMPTS) at 16 kHz."""
    return _joined([SOUNDS / f"{name}.wav"], folder, name)


def _joined(parts: list[Path], folder: Path, name: str) -> bytes:
    out = folder / f"{VOICE}-{name}.wav"
    if not out.exists():
        gap = folder / "allison-gap.wav"
        subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", "-b", "16", str(gap), "trim", "0", str(BETWEEN)], check=True)
        joined = [str(item) for part in parts for item in (part, gap)][:-1]
        partial = folder / f"{VOICE}-{name}.part.wav"
        subprocess.run(["sox", "-D", *joined, "-r", str(RATE), str(partial), "pad", str(AROUND), str(AROUND)], check=True)
        partial.rename(out)
    return read_pcm(out)
