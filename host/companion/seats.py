"""Who holds each seat of one game's phones, and how a phone takes one.

A seat is a private link: a random key per player and game, saved with the game so that every
link still works after `resume`. A phone takes a seat on the join page with the room code, which
the laptop says and prints: 4 digits drawn with `secrets`, new each time the pages are served
(`play` or `resume`; the seats already taken keep their links, so only a phone still to join
needs the new code). Digits, because they are the least ambiguous characters spoken aloud (no
"B"/"D"/"P") and typed (no "0"/"O", "1"/"l"), on a phone's number pad too. Wrong codes are
limited, from one address and in all, so that 10,000 codes cannot be tried from the network
in the length of a party (WRONG_FROM_ONE, WRONG_IN_ALL).

The phone that takes a seat is remembered by a key of its own (the join page's `phone` field,
kept in a cookie): if the answer to its join was lost, the same phone gets the same link again;
another phone is refused. `link NAME` at the laptop gives the seat a new key and forgets the
phone: the old link stops working, and only a phone with the room code can take the seat again.
"""
from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass

from games.language import _
from host.companion.guard import Bucket, Buckets
from host.storage.store import GameStore, StoreError

#: the room code's characters and length
CODE_ALPHABET, CODE_LENGTH = "0123456789", 4
#: wrong room codes from one address: 5 at once, then one a minute
WRONG_FROM_ONE = (5, 1 / 60)
#: wrong room codes from everyone together: 20 at once, then one every 6 s (10,000 codes take about
#: 8 hours on average to hit)
WRONG_IN_ALL = (20, 1 / 6)
#: a phone's key, as the join page makes it
PHONE_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")


def new_token() -> str:
    """A private link's key: 192 random bits."""
    return secrets.token_urlsafe(24)


def new_phone_key() -> str:
    return secrets.token_urlsafe(18)


def spoken_code(code: str) -> str:
    """The room code as it is said and printed: one digit at a time ("4 7 2 9")."""
    return " ".join(code)


@dataclass
class JoinRefused(Exception):
    """A phone cannot take the seat it asked for: an HTTP status and the page's words."""

    status: int
    message: str


class Seats:
    """The seats of one game. The session's thread renews; the server's thread reads and claims
    (with a saved-games connection of its own: an SQLite connection stays on its thread)."""

    def __init__(self, store: GameStore, game_id: int, players: list[str]) -> None:
        self.store, self.game_id = store, game_id
        self.code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        saved = store.seats(game_id, players, new_token)
        self._lock = threading.Lock()
        #: key -> player; replaced whole under the lock, never changed in place
        self._tokens = {seat.token: player for player, seat in saved.items()}
        #: player -> whether taken, and by which phone ('' for a seat taken before phones had keys)
        self._taken = {player: seat.claimed for player, seat in saved.items()}
        self._phones = {player: seat.phone for player, seat in saved.items()}
        #: old key -> player, for links renewed since the pages were served
        self._retired: dict[str, str] = {}
        self._wrong_from = Buckets(*WRONG_FROM_ONE)
        self._wrong_all = Bucket(*WRONG_IN_ALL)
        self._server_store: GameStore | None = None

    # -- reading (any thread)
    def player(self, token: str) -> str | None:
        """The player whose key `token` is, compared in constant time."""
        found = None
        for known, player in self._tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = player
        return found

    def renewed(self, token: str) -> str | None:
        """The player whose link `token` was before `link NAME` renewed it."""
        return next((player for old, player in self._retired.items() if secrets.compare_digest(old.encode(), token.encode())), None)

    def taken(self, player: str) -> bool:
        with self._lock:
            return self._taken.get(player, False)

    def board(self, phone: str) -> dict[str, bool | None]:
        """Each player, in seat order, and whether their seat is taken: True by another phone,
        None by the phone `phone` (which may take it again), False not yet."""
        with self._lock:
            return {player: None if taken and self._phones[player] and secrets.compare_digest(self._phones[player].encode(), phone.encode())
                    else taken for player, taken in self._taken.items()}

    # -- the server's thread
    def claim(self, player: object, code: object, phone: str, peer: str) -> tuple[str, bool]:
        """The key of `player`'s seat for the phone `phone` (from address `peer`), and whether
        the seat was free until now; JoinRefused says why not."""
        if not self._wrong_all.ready() or not self._wrong_from.ready(peer):
            raise JoinRefused(429, _("Too many wrong room codes were tried. Wait a minute, then"
                                     " enter the room code the laptop says (at the laptop, 'phones' says it again)."))
        given = re.sub(r"\s", "", code) if isinstance(code, str) else ""
        if not secrets.compare_digest(given.encode(), self.code.encode()):
            self._wrong_all.take()
            self._wrong_from.take(peer)
            raise JoinRefused(403, _("That is not this game's room code: it is 4 digits that the laptop"
                                     " says and prints (at the laptop, 'phones' says it again). Try again."))
        if not isinstance(player, str) or player not in self._taken:
            raise JoinRefused(404, _("There is no player of that name in this game."))
        with self._lock:
            token = next(token for token, name in self._tokens.items() if name == player)
            if self._taken[player]:
                if self._phones[player] and secrets.compare_digest(self._phones[player].encode(), phone.encode()):
                    return token, False  # the same phone again: its answer was lost
                raise JoinRefused(409, _("{name} has already joined from another phone. If that was not {name},"
                                         " ask at the laptop for 'link {name}', which frees the seat.").format(name=player))
            try:
                self._server_seats().claim_seat(self.game_id, player, phone)
            except StoreError as error:
                raise JoinRefused(503, _("The laptop could not save your seat just now, so you have not"
                                         " joined yet. Try again in a moment.")) from error
            self._taken[player], self._phones[player] = True, phone
        return token, True

    def _server_seats(self) -> GameStore:
        if self._server_store is None:
            self._server_store = GameStore(self.store.path)
        return self._server_store

    def close(self) -> None:
        """On the server's thread, as it stops."""
        if self._server_store is not None:
            self._server_store.__exit__()
            self._server_store = None

    # -- the session's thread
    def renew(self, player: str) -> None:
        """A new key for `player`'s seat, saved, the seat free again and its phone forgotten."""
        token = new_token()
        self.store.renew_seat(self.game_id, player, token)
        with self._lock:
            old = [known for known, name in self._tokens.items() if name == player]
            self._retired = {**self._retired, **{known: player for known in old}}
            self._tokens = {**{known: name for known, name in self._tokens.items() if name != player}, token: player}
            self._taken[player], self._phones[player] = False, ""
