"""Typed command lines for each game in each of its languages, through the real Session and a
real saved-games file: each is taken, or refused in one line with nothing changed; nothing raw
reaches the screen; a line typed while typing is hidden (terms, votes) never comes back on the
shared screen."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.language import speaking
from host.storage.catalogs import translations
from tests.fuzz.common import FUZZ, LANGUAGES, MARKER, Table, line_strategy, one_line_or_taken


@pytest.mark.slow
@pytest.mark.parametrize(("game", "language"), [(game, language) for game, languages in LANGUAGES.items()
                                                for language in languages])
def test_any_typed_line_is_taken_or_refused_in_one_line(game, language):
    with speaking(translations(language)):
        strategy = line_strategy(game, language)

    @FUZZ
    @given(seed=st.integers(0, 2**16), moves=st.integers(0, 40), lines=st.lists(strategy, min_size=1, max_size=4))
    def case(seed: int, moves: int, lines: list[str]) -> None:
        with tempfile.TemporaryDirectory() as folder, speaking(translations(language)):
            table = Table.open(Path(folder), game, seed, language)
            try:
                table.advance(random.Random(seed), moves)
                for line in lines:
                    hidden = table.session.state.secret_input()
                    one_line_or_taken(table, line)
                    if hidden:
                        assert not any(MARKER in printed for printed in table.printed), table.printed
            finally:
                table.store.__exit__()

    case()
