"""The companion's guard, each rule alone: which connection makes room, which Host and Origin
headers pass, the rates; and how an address is said and typed."""
from __future__ import annotations

from typing import Any

import pytest

from host.companion.addresses import Address, AddressError, choose
from host.companion.guard import Bucket, Connections, host_allowed


class Transport:
    def __init__(self) -> None:
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


class Connection:
    """What `Connections` reads of aiohttp's handler of one connection."""

    def __init__(self, peer: str, since: float) -> None:
        self.peer, self.since, self.seated, self.busy = peer, since, False, 0
        self.transport = Transport()


def admitted(connections: Connections, peer: str, since: float) -> Any:
    connection = Connection(peer, since)
    return connection if connections.admit(connection) else None  # type: ignore[arg-type]


def test_the_longest_idle_connection_without_a_seat_makes_room() -> None:
    connections = Connections(cap=3, per_address=2)
    phone = admitted(connections, "10.0.0.2", 1.0)
    connections.seat(phone)  # a player's page: never closed to make room
    table = admitted(connections, "10.0.0.3", 2.0)
    connections.busy(table, +1)  # a table page's WebSocket: busy, closed only when nothing idle is left
    idle = admitted(connections, "10.0.0.4", 3.0)
    newcomer = admitted(connections, "10.0.0.5", 4.0)
    assert newcomer is not None and idle.transport.aborted and not table.transport.aborted
    later = admitted(connections, "10.0.0.6", 5.0)
    assert later is not None and newcomer.transport.aborted  # the newcomer was the idle one: it made room
    connections.busy(later, +1)  # nothing idle left: the table page, busy the longest, goes
    assert admitted(connections, "10.0.0.7", 6.0) is not None and table.transport.aborted
    assert not phone.transport.aborted
    assert connections.count == 3 and connections.evicted == 3 and connections.refused == 0


def test_one_address_gets_its_share_and_seats_are_kept() -> None:
    connections = Connections(cap=10, per_address=2)
    first, second = admitted(connections, "10.0.0.9", 1.0), admitted(connections, "10.0.0.9", 2.0)
    assert admitted(connections, "10.0.0.9", 3.0) is not None and first.transport.aborted  # its own oldest goes
    connections.seat(second)
    third = next(iter(connections.by_peer["10.0.0.9"].keys() - {second}))
    connections.seat(third)
    assert admitted(connections, "10.0.0.9", 4.0) is None  # both seated: the newcomer is refused
    assert admitted(connections, "10.0.0.8", 4.0) is not None  # others are not
    assert connections.refused == 1


@pytest.mark.parametrize("value, allowed", [
    ("192.168.1.20:8765", True), ("[fd00::2]:8765", True), ("LOCALHOST:8765", True),
    ("192.168.1.20:8766", False), ("192.168.1.20", False), ("evil.example:8765", False), ("[fd00::3]:8765", False),
    ("", False), (None, False), ("192.168.1.20:8765:8765", False),
])
def test_the_host_header_names_a_served_address(value: str | None, allowed: bool) -> None:
    assert host_allowed(value, {"192.168.1.20", "[fd00::2]", "localhost"}, 8765) == allowed


def test_a_bucket_lets_a_burst_through_then_a_rate() -> None:
    bucket = Bucket(burst=3, rate=0.0)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert not bucket.ready()


def test_an_address_is_given_as_typed_and_spoken() -> None:
    wifi, six = Address("192.168.1.20", "wlan0"), Address("fd00::2", "wlan0")
    assert (wifi.url(8765), wifi.typed(8765)) == ("http://192.168.1.20:8765/", "192.168.1.20:8765")
    assert wifi.spoken(8765) == "192 dot 168 dot 1 dot 20, colon 8765"
    assert (six.url(8765), six.typed(8765)) == ("http://[fd00::2]:8765/", "[fd00::2]:8765")
    assert six.spoken(8765) == "open bracket fd00 colon colon 2 close bracket, colon 8765"


def test_host_must_be_an_address_of_this_computer() -> None:
    for wanted in ("192.0.2.123", "laptop.local", "0.0.0.0"):
        with pytest.raises(AddressError, match=f"This computer has no address '{wanted}': give --host one of its addresses"):
            choose(wanted)
    assert choose("127.0.0.1") == ([], [Address("127.0.0.1", "lo")])  # this laptop alone
