"""What a session plays, and what it can do besides taking typed commands."""
from __future__ import annotations

from dataclasses import dataclass, field

from games.base import Match
from host.adapters.base import GameAdapter
from host.adapters.listening import Listener
from host.session.output import PrivateChannel, TextOutput
from host.storage.preferences import Preferences
from host.storage.store import GameStore
from host.voice.control import VoiceControl


@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    """The game, where it is saved, the shared channel; and each capability, off unless given."""

    store: GameStore
    game_id: int
    match: Match
    output: TextOutput
    #: verbosity and speech rate ('verbosity', 'rate' change and save them)
    preferences: Preferences = field(default_factory=Preferences)
    #: what listens, times or answers for the game (`GameAdapter.listeners`): a story's referee
    #: and its clock, a card read aloud, the grid on request
    listeners: tuple[Listener, ...] = ()
    #: spoken commands, and the microphone open all game
    voice: VoiceControl | None = None
    #: commands of the game not offered in help or hints (a Storytelling card is chosen by
    #: 'read' only when a person is the storyteller)
    without: frozenset[str] = frozenset()
    #: each player's own screen (a phone), beside the shared channel
    private: PrivateChannel | None = None
    #: what the host does for this game (None: the one registered for it)
    adapter: GameAdapter | None = None
