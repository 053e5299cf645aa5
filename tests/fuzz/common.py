"""What the fuzz tests share: bounded, reproducible Hypothesis settings, real games in a real
saved-games file, in each language a game is played in, and the rule every case must keep (taken,
or refused in one line with nothing changed)."""
from __future__ import annotations

import io
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.base import Match
from nlp.referee import LANGUAGES as TERM_RULES
from host.cli.catalog import make
from host.storage.catalogs import languages
from host.storage.decks import load_opening_cards, load_tale
from host.session.inputs import ScriptSource
from host.commands import HOST_COMMANDS, command_named
from host.session.session import Session, SessionConfig, TextOutput
from host.session.wording import normalise, written_action
from host.storage.store import GameStore

#: reproducible in CI: a fixed derandomized search, no example database, no time limit per case
FUZZ = settings(
    max_examples=60, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)

#: what must never reach a terminal raw: C0 controls (but tab), DEL and C1 controls
RAW_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
#: a word that is no player's name or command, typed where a secret (a term, a vote) goes
MARKER = "zqxvirt"

PLAYERS = {"stories": ["Nina", "Sabine", "Stephan"], "storytelling": ["Marc", "Lea"], "dixit": ["Ana", "Bo", "Cy", "Di"]}
#: words a player might write as terms, in each language Stories! is played in
TERMS = {"en": ["igloo", "penguin", "walrus", "sled", "blizzard", "violin", "harbor", "lantern", "parrot", "castle",
                "ladder", "pepper", "meadow", "kettle", "sandal"],
         "es": ["iglú", "pingüino", "morsa", "trineo", "ventisca", "violín", "puerto", "farol", "loro", "castillo",
                "escalera", "pimienta", "prado", "tetera", "sandalia"]}
#: the languages each game is played in: every language storyhost speaks, Stories! where its term rules are written
LANGUAGES = {game: tuple(code for code in languages() if game != "stories" or code in TERM_RULES)
             for game in ("stories", "storytelling", "dixit")}


def settings_for(game: str, seed: int, language: str = "en") -> dict[str, object]:
    players = PLAYERS[game]
    if game == "stories":
        cards = [asdict(card) for card in load_opening_cards(language=language)]
        return {"players": players, "seed": seed, "timer_seconds": 60, "cards": cards, "language": language}
    if game == "storytelling":
        return {"players": players, "seed": seed, "tale": asdict(load_tale("saint-george")), "advanced": False,
                "clock_steps": 12, "track_length": 16, "storyteller": "host", "language": language}
    return {"players": players, "contando": False, "deck_size": 84, "language": language}


@dataclass
class Table:
    """One game played through the real Session into a real saved-games file."""

    store: GameStore
    session: Session
    printed: list[str] = field(default_factory=list)
    language: str = "en"

    @classmethod
    def open(cls, folder: Path, game: str, seed: int, language: str = "en") -> Table:
        """The table in `language`, which must be the active catalog's (`speaking`)."""
        store = GameStore(folder / "games.sqlite3")
        game_settings = settings_for(game, seed, language)
        game_id = store.create(game, game_settings)
        printed: list[str] = []
        match = Match(make(game, game_settings))
        session = Session(SessionConfig(store=store, game_id=game_id, match=match,
                                        output=TextOutput(write=printed.append)))
        session.source = ScriptSource(io.BytesIO(), echo=printed.append)
        return cls(store, session, printed, language)

    def advance(self, rng: random.Random, moves: int) -> None:
        """Play `moves` random legal moves, typed as the table types them ('voto Bo 3'; a free text
        gets a plausible term or clue)."""
        for _ in range(moves):
            state = self.session.state
            choices = state.legal_actions()
            if not choices or state.is_over():
                return
            action = rng.choice(choices).action
            line = written_action(state, action).replace("<term>", rng.choice(TERMS.get(self.language, TERMS["en"])))
            self.session.handle(line.replace("<clue>", "A quiet morning"))

    def saved(self) -> list[object]:
        return list(self.store.actions(self.session.game_id))


def host_command(session: Session, line: str) -> bool:
    """Whether the line is a host command, typed by its name or its word in the table's language."""
    return command_named(normalise(line, session.adapter.written).partition(" ")[0]) is not None


def one_line_or_taken(table: Table, line: str) -> None:
    """The rule for one typed line: taken (saved as played), or refused in one line with the game,
    the saved log and the public view exactly as they were."""
    session = table.session
    log, view, saved = list(session.match.log), session.state.view(None), table.saved()
    undo_asked = session.undo_asked is not None  # a line that is no answer is said to keep the move first
    table.printed.clear()
    session.handle(line)
    assert table.saved() == session.match.log, "what is saved is what was played"
    for printed in table.printed:
        assert not RAW_CONTROL.search(printed), f"a raw control character reached the screen: {printed!r}"
    if session.match.log != log:
        return
    assert session.state.view(None) == view and table.saved() == saved
    if normalise(line, session.adapter.written) and not host_command(session, line):
        refusal = table.printed[1:] if undo_asked and len(table.printed) > 1 else table.printed
        assert len(refusal) == 1, f"a refusal is one line: {table.printed!r}"
        assert len(refusal[0]) <= 400, f"a refusal is short: {len(refusal[0])} characters"


#: pieces of a typed line: commands (in English and in the active catalog's language), names,
#: numbers, plausible words and hostile text
def line_strategy(game: str, language: str = "en") -> st.SearchStrategy[str]:
    state = make(game, settings_for(game, 1, language))()
    verbs = sorted({*state.verbs, *(verb.said for verb in state.verbs.values()),
                    *(c.name for c in HOST_COMMANDS), *(c.word for c in HOST_COMMANDS)})
    token = st.one_of(
        st.sampled_from(verbs), st.sampled_from(PLAYERS[game]), st.sampled_from(TERMS.get(language, TERMS["en"])),
        st.integers(-3, 90).map(str), st.sampled_from(["A1", "B3", "D4", "row", "left", "up", "normal", "quirky"]),
        st.just(MARKER), st.text(min_size=1, max_size=12),
        st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "e\u0301", "\u202e", "\x00", "#", "é", "\r", "\u2028"]),
    )
    words = st.lists(token, min_size=0, max_size=6).map(" ".join)
    return st.one_of(words, words, st.text(max_size=40), st.builds(lambda count, piece: piece * count, st.integers(700, 4000), st.sampled_from(["ab", "\x1b[2J", "z "])))
