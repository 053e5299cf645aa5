"""Where replies go: to the phone that sent a move, or to the table; a player's secrets only to
that player; refusals of secret moves told to the table without the secret, and without repeating."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from games.base import Action, Event, GameState, GuessRefused, IllegalAction, SecretRefused
from games.language import _, n_
from host.session.output import NOTED, PrivateChannel, TextOutput
from host.storage.preferences import Preferences


@dataclass
class Refusals:
    """Moves refused for players with phones, told to the table without repeating: the first at
    once, those that follow it within QUIET seconds of each other as one count when they stop."""

    QUIET = 3.0
    #: player -> (what was refused, refusals not told yet, when the last came)
    pending: dict[str, tuple[str, int, float]] = field(default_factory=dict)

    def add(self, player: str, what: str) -> str | None:
        """A refusal of `player`'s `what` (a move's noun: "term"): the line to say now, if any."""
        now = time.monotonic()
        if player in self.pending:
            count = self.pending[player][1]
            self.pending[player] = (what, count + 1, now)
            return None
        self.pending[player] = (what, 0, now)
        return _("{player}: one {move} was refused; see your phone.").format(player=player, move=what)

    def due(self) -> float | None:
        """Seconds until a count is to be told, None when none is waiting."""
        if not self.pending:
            return None
        return max(0.0, min(last for _what, _count, last in self.pending.values()) + self.QUIET - time.monotonic())

    def told(self, all_now: bool = False) -> list[str]:
        """The counts whose refusals stopped coming (`all_now`: every count), to say now."""
        lines = []
        for player, (what, count, last) in list(self.pending.items()):
            if all_now or time.monotonic() - last >= self.QUIET:
                del self.pending[player]
                if count:
                    lines.append(n_("{player}: one more {move} was refused; see your phone.",
                                    "{player}: {count} more {move}s were refused; see your phone.", count).format(
                        player=player, move=what, count=count))
        return lines


@dataclass
class Replies:
    """The replies to moves and commands, each to its addressee (`to`: the player whose phone
    sent it; None: the table)."""

    out: TextOutput
    private: PrivateChannel | None
    preferences: Preferences
    refusals: Refusals = field(default_factory=Refusals)
    #: why a secret move typed at the shared screen was refused, kept for its player's 'private'
    held: dict[str, list[str]] = field(default_factory=dict)

    def reply(self, line: str, to: str | None) -> None:
        """A reply to one command: on the phone of `to`, who sent it, or else at the table."""
        if to is None or self.private is None:
            self.out.note(line)
        else:
            self.private.tell(to, [line])

    def tell_privately(self, events: list[Event], to: str | None) -> bool:
        """Each private event to its player's phone; whether one went to `to`'s, which sent the move."""
        told = False
        for event in events:
            if event.to is not None and self.private is not None and self.private.has(event.to):
                self.private.tell(event.to, [event.text])
                told = told or event.to == to
        return told

    def refused(self, state: GameState, action: Action, refusal: IllegalAction, to: str | None, noun: str) -> None:
        """A guess at a secret refused (a tick of a term not written), typed or said at the
        table: answered "Noted.", as the same move is when legal, and its reason kept for its
        player alone (their phone, or 'private NAME'). A secret move refused for a player with
        a phone: the reason, with what they wrote, on their phone; the table hears only that
        something was refused. Any other refusal goes to whoever sent the move (`to`: a phone).
        `noun` names the move ("erasure")."""
        player = action.player
        screen = self.private if player is not None and self.has_screen(player) else None
        if isinstance(refusal, GuessRefused) and to is None and player is not None:
            if screen is not None:
                screen.tell(player, [refusal.private])
            else:
                self.held.setdefault(player, []).append(refusal.private)
            self.reply(_(NOTED), None)
            return
        if player is None or screen is None or not state.secret_input():
            self.reply(self.reason(refusal) if to is None else _("Refused: {reason}").format(reason=refusal), to)
            return
        written = " ".join(action.args)
        reason = refusal.private if isinstance(refusal, SecretRefused) else str(refusal)
        screen.tell(player, [_("Refused: '{written}'. {reason}").format(written=written, reason=reason) if written
                             else _("Refused: {reason}").format(reason=reason)])
        line = self.refusals.add(player, noun)
        if line is not None:
            self.out.shared([line])

    def reason(self, refusal: IllegalAction) -> str:
        """A refusal as the table reads it: in a few words when the host speaks briefly."""
        brief = refusal.brief if isinstance(refusal, SecretRefused) else None
        return brief if brief and self.preferences.verbosity == "brief" else str(refusal)

    def has_screen(self, player: str) -> bool:
        """Whether `player` has a screen of their own (a phone)."""
        return self.private is not None and self.private.has(player)

