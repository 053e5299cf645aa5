"""Every test's preferences in a folder of its own, never the tester's: a game played at this
computer remembers its language, which tick, transcribe, rules and storyhost's messages follow."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def own_preferences(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path_factory.mktemp("preferences")))
