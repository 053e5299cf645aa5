"""The addresses phones can open, found as network tools find them, and the sockets that serve them.

The kernel says which interfaces have which addresses (psutil reads them with getifaddrs) and which
interface the default route leaves by (/proc/net/route and /proc/net/ipv6_route on Linux). The
host name is never resolved: Debian and Ubuntu map it to 127.0.1.1, which no phone can open.

The likeliest address comes first: the default route's interface, then physical interfaces (a
Wi-Fi or Ethernet card) before virtual ones (bridges, VPNs, containers), IPv4 before IPv6. A
link-local IPv6 address (fe80::) is left out: a browser cannot open it without a zone, which no
phone's address bar takes. Loopback is always served too, for a browser on this laptop, and only
what is listed is bound: never 0.0.0.0.
"""
from __future__ import annotations

import errno
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

import psutil

from games.language import _, p_

#: RTF_UP and RTF_REJECT in the kernel's route flags (/proc/net/route, /proc/net/ipv6_route)
ROUTE_UP, ROUTE_REJECT = 0x1, 0x200
#: tries at one free port for every address when the port is 0 (another program may take it between two binds)
PORT_TRIES = 5
#: seconds the kernel keeps a new connection that has sent nothing before handing it to the
#: server (Linux's TCP_DEFER_ACCEPT): connections opened only to be held cost nothing meanwhile
DEFER_ACCEPT = 5
#: connections the kernel may keep waiting (so deferred, held ones, too; it caps this at somaxconn)
LISTEN_BACKLOG = 1024


class AddressError(ValueError):
    """--host names no address of this computer (or the port cannot be had); the message says what to do."""


@dataclass(frozen=True)
class Address:
    """One address of this computer and the interface it is on."""

    ip: str
    interface: str

    @property
    def version(self) -> int:
        return ipaddress.ip_address(self.ip).version

    def host(self) -> str:
        """The address as a URL's host: an IPv6 address in brackets."""
        return f"[{self.ip}]" if self.version == 6 else self.ip

    def url(self, port: int) -> str:
        return f"http://{self.host()}:{port}/"

    def typed(self, port: int) -> str:
        """What to type in a phone's address bar (browsers add http://)."""
        return f"{self.host()}:{port}"

    def spoken(self, port: int) -> str:
        """The typed form read out so that it is easy to type: each separator named."""
        if self.version == 4:
            dot = p_("spoken address", "dot")
            return _("{address}, colon {port}").format(address=f" {dot} ".join(self.ip.split(".")), port=port)
        colon = p_("spoken address", "colon")
        spoken = _("open bracket {address} close bracket, colon {port}").format(address=f" {colon} ".join(self.ip.split(":")), port=port)
        return " ".join(spoken.split())


def _default_interfaces() -> set[str]:
    """The interfaces that routes to anywhere (0.0.0.0/0, ::/0) leave by; none when unknown."""
    found = set()
    try:
        for row in Path("/proc/net/route").read_text().splitlines()[1:]:
            fields = row.split()
            if len(fields) > 7 and fields[1] == "00000000" and fields[7] == "00000000" and int(fields[3], 16) & ROUTE_UP:
                found.add(fields[0])
    except OSError:
        pass
    try:
        for row in Path("/proc/net/ipv6_route").read_text().splitlines():
            fields = row.split()
            flags = int(fields[8], 16) if len(fields) > 9 else 0
            if fields and fields[0] == "0" * 32 and fields[1] == "00" and flags & ROUTE_UP and not flags & ROUTE_REJECT:
                found.add(fields[9])
    except (OSError, ValueError):
        pass
    return found


def _physical(interface: str) -> bool:
    """A network card (Wi-Fi, Ethernet), not a bridge, a VPN or a container's interface."""
    return "/virtual/" not in os.path.realpath(f"/sys/class/net/{interface}")


def _interface_addresses() -> list[Address]:
    """Every address of every interface that is up, loopback included."""
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    found = []
    for interface, entries in psutil.net_if_addrs().items():
        if interface not in up:
            continue
        for entry in entries:
            if entry.family in (socket.AF_INET, socket.AF_INET6):
                found.append(Address(entry.address.split("%", 1)[0], interface))
    return found


def reachable() -> list[Address]:
    """The addresses a phone on a network of this computer may open, the likeliest first."""
    default = _default_interfaces()
    candidates = []
    for address in _interface_addresses():
        ip = ipaddress.ip_address(address.ip)
        if not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified and not ip.is_multicast:
            candidates.append(address)
    return sorted(candidates, key=lambda a: (a.interface not in default, not _physical(a.interface), a.version, a.interface))


def loopback() -> list[Address]:
    """This computer's own addresses (127.0.0.1, ::1), for a browser on the laptop."""
    own = [address for address in _interface_addresses() if ipaddress.ip_address(address.ip).is_loopback]
    return sorted({a.ip: a for a in own if a.ip in ("127.0.0.1", "::1")}.values(), key=lambda a: a.version)


def choose(host: str | None) -> tuple[list[Address], list[Address]]:
    """The addresses to offer phones, the likeliest first, and the loopback ones served beside
    them. With `host` (--host), that address alone (AddressError if this computer has none such);
    a loopback `host` serves this laptop alone."""
    found, own = reachable(), loopback() or [Address("127.0.0.1", "lo")]
    if host is None:
        return found, own
    try:
        wanted = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        wanted = None
    if wanted is not None:
        match = next((a for a in [*found, *own] if ipaddress.ip_address(a.ip) == wanted), None)
        if match is None and wanted.is_loopback and wanted.version == 4:
            match = Address(str(wanted), "lo")  # all of 127.0.0.0/8 is this computer's
        if match is not None:
            return ([], [match]) if wanted.is_loopback else ([match], own)
    choices = ", ".join(a.ip for a in found) or _("none but loopback (127.0.0.1)")
    raise AddressError(_("This computer has no address {host}: give --host one of its addresses ({choices}), or leave it out.").format(
        host=repr(host), choices=choices))


class Served:
    """The phones' port bound on every served address, before anything is created or played (a
    refused port leaves no game behind)."""

    def __init__(self, port: int, host: str | None = None) -> None:
        """AddressError if an address or the port cannot be had."""
        self.addresses, self.loopback = choose(host)
        self.sockets: list[socket.socket] = []
        for attempt in range(PORT_TRIES):
            try:
                self.port = self._bind(port)
                return
            except OSError as error:
                self.close()
                if port or error.errno != errno.EADDRINUSE or attempt == PORT_TRIES - 1:
                    why = _("it is in use") if error.errno == errno.EADDRINUSE else os.strerror(error.errno or 0).lower()
                    raise AddressError(_("The phones' pages cannot be served on port {port}: {why}. Choose another with"
                                         " --port (0: any free port).").format(port=port, why=why)) from error

    def _bind(self, port: int) -> int:
        """Bind every address on `port` (0: the first one's free port for all); an address the
        kernel will not have yet (an IPv6 address still being checked) is left out, unless --host
        named it."""
        bound: list[Address] = []
        for address in [*self.addresses, *self.loopback]:
            family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
            try:
                self.sockets.append(socket.create_server((address.ip, port), family=family, backlog=LISTEN_BACKLOG))
                if hasattr(socket, "TCP_DEFER_ACCEPT"):
                    self.sockets[-1].setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, DEFER_ACCEPT)
            except OSError as error:
                if error.errno != errno.EADDRNOTAVAIL or len(self.addresses) + len(self.loopback) == 1:
                    raise
                continue
            bound.append(address)
            port = int(self.sockets[-1].getsockname()[1])  # port 0: the others take the first one's
        self.addresses = [a for a in self.addresses if a in bound]
        self.loopback = [a for a in self.loopback if a in bound]
        return port

    def hosts(self) -> set[str]:
        """The names a request's Host header may give: every served address, and localhost."""
        return {a.host() for a in [*self.addresses, *self.loopback]} | ({"localhost"} if self.loopback else set())

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.sockets = []

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
