"""The phones' address on a laptop whose host name resolves to 127.0.1.1 (Debian, Ubuntu): a
"laptop" network namespace with a veth pair standing in for its Wi-Fi (the default route) and a
second one for another network, and a "phone" namespace at their other ends. storyhost runs in
the laptop's namespace; the phone opens what it prints.

Needs root and iproute2 (`ip netns`), as CI has; elsewhere the test is skipped.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.host.cli_helpers import ROOT, storyhost_env

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None, reason="needs root and iproute2")

LAPTOP, PHONE = f"shl{os.getpid()}", f"shp{os.getpid()}"
#: the laptop's ends of the veth pairs (the phone's are the same name and "p")
WIFI_LINK, OTHER_LINK = f"wifi{os.getpid() % 10000}", f"other{os.getpid() % 10000}"
WIFI, OTHER = "10.77.0.1", "10.88.0.1"
WIFI6 = "fd77::1"


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def namespaces() -> Iterator[None]:
    hosts = Path("/etc/netns") / LAPTOP / "hosts"
    try:
        ip("netns", "add", LAPTOP)
        ip("netns", "add", PHONE)
        for name, net in ((WIFI_LINK, "10.77.0"), (OTHER_LINK, "10.88.0")):
            ip("link", "add", name, "type", "veth", "peer", "name", f"{name}p")
            ip("link", "set", name, "netns", LAPTOP)
            ip("link", "set", f"{name}p", "netns", PHONE)
            ip("-n", LAPTOP, "addr", "add", f"{net}.1/24", "dev", name)
            ip("-n", PHONE, "addr", "add", f"{net}.2/24", "dev", f"{name}p")
            ip("-n", LAPTOP, "link", "set", name, "up")
            ip("-n", PHONE, "link", "set", f"{name}p", "up")
        ip("-n", LAPTOP, "addr", "add", f"{WIFI6}/64", "dev", WIFI_LINK, "nodad")
        ip("-n", PHONE, "addr", "add", "fd77::2/64", "dev", f"{WIFI_LINK}p", "nodad")
        for namespace in (LAPTOP, PHONE):
            ip("-n", namespace, "link", "set", "lo", "up")
        ip("-n", LAPTOP, "route", "add", "default", "via", "10.77.0.2")  # the Wi-Fi is the way out
        hosts.parent.mkdir(parents=True, exist_ok=True)  # `ip netns exec` mounts it over /etc/hosts
        hosts.write_text(f"127.0.0.1 localhost\n127.0.1.1 {socket.gethostname()}\n")
        yield
    finally:
        for namespace in (LAPTOP, PHONE):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        shutil.rmtree(hosts.parent, ignore_errors=True)


def in_namespace(namespace: str, *command: str, **options: object) -> subprocess.Popen[str]:
    return subprocess.Popen(["ip", "netns", "exec", namespace, *command], text=True, **options)  # type: ignore[call-overload]


def storyhost(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """storyhost in the laptop's namespace, its standard input a pipe."""
    code = "import sys; from host.cli.main import main; sys.exit(main())"
    return in_namespace(LAPTOP, sys.executable, "-c", code, *args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, env=storyhost_env(tmp_path), cwd=ROOT)


def printed_until(process: subprocess.Popen[str], text: str) -> list[str]:
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if text in line:
            return lines
    raise AssertionError("storyhost ended:\n" + "\n".join(lines))


def phone_opens(url: str) -> str:
    """What the phone's browser gets at `url` (an error's name if it gets nothing)."""
    fetch = ("import sys, urllib.request\ntry:\n    print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())\n"
             "except OSError as error:\n    print(type(error).__name__, error)")
    process = in_namespace(PHONE, sys.executable, "-c", fetch, url, stdout=subprocess.PIPE)
    out, _ = process.communicate(timeout=30)
    return str(out)


def test_phones_open_the_printed_address(namespaces: None, tmp_path: Path) -> None:
    resolved = subprocess.run(["ip", "netns", "exec", LAPTOP, sys.executable, "-c",
                               "import socket; print(socket.gethostbyname(socket.gethostname()))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    assert resolved == "127.0.1.1"  # the laptop as Debian sets it up: its name is no address for phones
    host = storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--companion", "--port", "0")
    try:
        lines = printed_until(host, "End of the QR code.")
        joined = next(line for line in lines if line.startswith("Phones join at"))
        port = joined.split(f"http://{WIFI}:", 1)[1].split("/", 1)[0]  # the default route's address first
        assert f"(type {WIFI}:{port})" in joined
        others = next(line for line in lines if line.startswith("If a phone cannot open it"))
        assert others == f"If a phone cannot open it, try http://[{WIFI6}]:{port}/ ({WIFI_LINK}), http://{OTHER}:{port}/ ({OTHER_LINK})."
        served = next(line for line in lines if line.startswith("Served on"))
        assert served.startswith(f"Served on {WIFI_LINK} ({WIFI}, {WIFI6}), {OTHER_LINK} ({OTHER}) and loopback")
        assert "127.0.1.1" not in "\n".join(lines)
        assert "Join Dixit, game 1" in phone_opens(f"http://{WIFI}:{port}/")
        assert "Join Dixit, game 1" in phone_opens(f"http://[{WIFI6}]:{port}/")
        assert "Join Dixit, game 1" in phone_opens(f"http://{OTHER}:{port}/")
    finally:
        host.kill()
        host.wait()


def test_host_chooses_one_address_and_binds_only_it(namespaces: None, tmp_path: Path) -> None:
    host = storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--companion", "--port", "0", "--host", OTHER)
    try:
        lines = printed_until(host, "End of the QR code.")
        joined = next(line for line in lines if line.startswith("Phones join at"))
        port = joined.split(f"http://{OTHER}:", 1)[1].split("/", 1)[0]
        assert not [line for line in lines if line.startswith("If a phone cannot open it")]
        assert next(line for line in lines if line.startswith("Served on")).startswith(f"Served on {OTHER_LINK} ({OTHER}) and loopback")
        assert "Join Dixit, game 1" in phone_opens(f"http://{OTHER}:{port}/")
        assert phone_opens(f"http://{WIFI}:{port}/").startswith("URLError")  # not served, so not bound
    finally:
        host.kill()
        host.wait()
    refused = storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--companion", "--host", "10.99.0.1")
    out, _ = refused.communicate(timeout=60)
    assert refused.returncode == 2
    assert out.splitlines() == [
        f"This computer has no address '10.99.0.1': give --host one of its addresses ({WIFI}, {WIFI6}, {OTHER}), or leave it out."
    ]
