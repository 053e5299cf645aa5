"""How the host talks, remembered between games: verbosity, speech rate and language.

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

from games.base import join_names
from games.language import N_, _
from host.storage.catalogs import DEFAULT as DEFAULT_LANGUAGE
from host.storage.catalogs import languages
from host.storage.files import FileRefused, read_json
from host.audio.speaker import DEFAULT_RATE, MAX_RATE, MIN_RATE

VERBOSITIES = ("brief", "normal", "detailed")
RATE_STEP = 25  # words a minute per "slower" or "faster"
MAX_PREFERENCES_BYTES = 64 * 1024
#: each preference as a trouble names it
UNUSABLE = {"verbosity": N_("verbosity"), "rate": N_("rate"), "language": N_("language")}


@dataclass
class Preferences:
    #: brief: the news only; normal: the news and what to do next; detailed: also the state of
    #: the game after every move and the phrases to say after a misunderstanding
    verbosity: str = "normal"
    rate: int = DEFAULT_RATE
    #: the language of new games (`--language` changes it), one storyhost speaks
    language: str = DEFAULT_LANGUAGE

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
    """The saved preferences, and a sentence when the file was there but unusable (not JSON,
    not an object, or a value of the wrong kind): what is unusable is replaced by the default."""
    path = config_path()
    try:
        data = read_json(path, MAX_PREFERENCES_BYTES)
    except FileRefused as refused:
        if not path.exists() and not path.is_symlink():
            return Preferences(), None
        return Preferences(), _("Could not read the preferences in {refused}; using the defaults.").format(refused=refused)
    if not isinstance(data, dict):
        return Preferences(), _("The preferences in {file} are not a JSON object; using the defaults.").format(file=path)
    preferences = Preferences()
    wrong = []
    if "verbosity" in data:
        if data["verbosity"] in VERBOSITIES:
            preferences.verbosity = data["verbosity"]
        else:
            wrong.append("verbosity")
    if "rate" in data:
        rate = data["rate"]
        if isinstance(rate, int) and not isinstance(rate, bool) and MIN_RATE <= rate <= MAX_RATE:
            preferences.rate = rate
        else:
            wrong.append("rate")
    if "language" in data:
        if data["language"] in languages():
            preferences.language = data["language"]
        else:
            wrong.append("language")
    if wrong:
        unusable = join_names([_(UNUSABLE[key]) for key in wrong])
        return preferences, _("The preferences in {file} have an unusable {settings}; using the default instead.").format(
            file=path, settings=unusable)
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
        return _("Could not save the preferences in {file} ({reason}); they last until the game ends.").format(
            file=path, reason=error.strerror)
    return None
