"""How the host talks, remembered between games: verbosity and speech rate.

Kept as JSON in the user's config folder ($STORYHOST_CONFIG_DIR, else platformdirs'). A file
that cannot be read is reported once and replaced by the defaults: a preference is never worth
stopping a game for.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs

from host.speaker import DEFAULT_RATE, MAX_RATE, MIN_RATE

VERBOSITIES = ("brief", "normal", "detailed")
RATE_STEP = 25  # words a minute per "slower" or "faster"


@dataclass
class Preferences:
    #: brief: the news only; normal: the news and what to do next; detailed: also the state of
    #: the game after every move and the phrases to say after a misunderstanding
    verbosity: str = "normal"
    rate: int = DEFAULT_RATE

    def slower(self) -> int:
        self.rate = max(MIN_RATE, self.rate - RATE_STEP)
        return self.rate

    def faster(self) -> int:
        self.rate = min(MAX_RATE, self.rate + RATE_STEP)
        return self.rate


def config_path() -> Path:
    configured = os.environ.get("STORYHOST_CONFIG_DIR")
    folder = Path(configured) if configured else Path(platformdirs.user_config_dir("storyhost"))
    return folder / "preferences.json"


def load() -> tuple[Preferences, str | None]:
    """The saved preferences, and a sentence when the file was there but unusable."""
    path = config_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Preferences(), None
    except (OSError, ValueError) as error:
        return Preferences(), f"Could not read the preferences in {path} ({error}); using the defaults."
    preferences = Preferences()
    if data.get("verbosity") in VERBOSITIES:
        preferences.verbosity = data["verbosity"]
    if isinstance(data.get("rate"), int) and MIN_RATE <= data["rate"] <= MAX_RATE:
        preferences.rate = data["rate"]
    return preferences, None


def save(preferences: Preferences) -> str | None:
    """Write them (atomically); a sentence when that failed."""
    path = config_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(asdict(preferences), indent=2) + "\n", encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        return f"Could not save the preferences in {path} ({error.strerror}); they last until the game ends."
    return None
