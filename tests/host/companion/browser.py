"""A real browser (Debian's chromium through chromium-driver) on the companion's pages, and the
storyhost process serving them."""
from __future__ import annotations

import hashlib
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from host.storage.catalogs import DEFAULT, translations
from tests.host.cli_helpers import ROOT, RunningStoryhost, storyhost_env

#: without the network flags, chromium's background traffic misbehaves on a closed network
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
#: axe-core 4.4.3 as axe-core-python 0.1.0 bundles it (pinned in pyproject.toml)
AXE_SHA256 = "697ea6c7edff0fe289b7bbecf1ff7b9015249bc834b409a348cd060df80aeba0"
WAIT = 20.0


def start_browser() -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='storyhost-chromium-')}")
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """One chromium for the whole module (starting one takes about a second)."""
    driver = start_browser()
    yield driver
    driver.quit()


def axe_script() -> str:
    script = resources.files("axe_core_python").joinpath("axe.min.js").read_bytes()
    assert hashlib.sha256(script).hexdigest() == AXE_SHA256, "axe.min.js is not the pinned axe-core"
    return script.decode("utf-8")


def axe_violations(driver: WebDriver) -> list[str]:
    """axe-core's violations on the page in view, one line each (none: an empty list)."""
    driver.execute_script(axe_script())
    result: dict[str, Any] = driver.execute_async_script(
        "var done = arguments[arguments.length - 1]; axe.run(document).then(done, function (e) { done({error: String(e)}); });"
    )
    assert "error" not in result, result
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: {v['nodes'][0]['html']})" for v in result["violations"]]


def axe_violations_without_javascript(driver: WebDriver) -> list[str]:
    """axe-core's violations on a page loaded with its scripts off: they are let run for axe's
    promises only (the page's own scripts, skipped while it loaded, stay unrun)."""
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    try:
        return axe_violations(driver)
    finally:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def room_code(line: str) -> str:
    """The room code in the line that says where phones join ("... with room code 4 7 2 9; ...",
    in any language): its four digits, said apart."""
    found = re.search(r"(?<![\d.:])(\d) (\d) (\d) (\d)(?![\d.])", line)
    assert found, line
    return "".join(found.groups())


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


class Host(RunningStoryhost):
    """`storyhost ARGS --companion` in a subprocess, its standard input a pipe, its output kept;
    `language`: the game's (ARGS choose it), in which it says where phones join."""

    def __init__(self, data: Path, *args: str, port: int = 0, language: str = DEFAULT) -> None:
        super().__init__((*args, "--companion", "--port", str(port)), storyhost_env(data), stderr=subprocess.STDOUT)
        joins = translations(language).gettext(
            "Phones join at {address} (type {typed}) with room code {code}; the table page is at {table}.")
        joined = self.wait_for(joins.partition("{address}")[0])
        found = re.search(r":(\d+)/", joined)
        assert found, joined
        self.base = f"http://127.0.0.1:{found.group(1)}"
        self.code = room_code(joined)

    def wait_for(self, text: str, after: int = 0) -> str:
        """The first printed line from number `after` on that holds `text`."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            for line in self.lines[after:]:
                if text in line:
                    return line
            if self.process.poll() is not None and not any(text in line for line in self.lines[after:]):
                time.sleep(0.2)
                if not any(text in line for line in self.lines[after:]):
                    break
            time.sleep(0.05)
        raise AssertionError(f"no line with {text!r}; output:\n" + "\n".join(self.lines))

    def printed(self) -> str:
        """What the host printed (and so said: every spoken line is printed), but for the
        typed lines the script source echoes."""
        return "\n".join(line for line in self.lines if not line.startswith("> "))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.type("quit")
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _holds(condition: Any) -> bool:
    """Whether `condition()` holds; not while a page is between two documents (a form posted)."""
    try:
        return bool(condition())
    except WebDriverException:  # no such element, a stale one, a node of the document gone
        return False


class Pages:
    """One browser tab per screen: a player's page or the table's."""

    def __init__(self, driver: WebDriver, base: str, code: str = "", language: str = DEFAULT) -> None:
        """`code`: the room code, to join with; `language`: the game's, which the pages speak."""
        self.driver, self.base, self.code = driver, base, code
        self.said = translations(language).gettext
        self.tabs: dict[str, str] = {}
        self.links: dict[str, str] = {}

    def _tab(self, name: str) -> None:
        if name not in self.tabs:
            if self.tabs:
                self.driver.switch_to.new_window("tab")
            self.tabs[name] = self.driver.current_window_handle
            self.driver.switch_to.window(self.tabs[name])  # scripts on, as a tab of an earlier test may have left them
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        self.driver.switch_to.window(self.tabs[name])

    def join(self, player: str) -> str:
        """Open the join page in a new tab, enter the room code, press 'I am PLAYER'; the private
        link it leads to."""
        assert self.code, "give Pages the room code (Host.code)"
        self._tab(player)
        self.driver.get(self.base + "/")
        self.driver.find_element(By.ID, "code").send_keys(self.code)
        self.driver.find_element(By.XPATH, f"//button[normalize-space()=\"{self.said('I am {name}').format(name=player)}\"]").click()
        self.wait(player, lambda: "/p/" in self.driver.current_url)
        self.links[player] = self.driver.current_url
        self.connected(player)
        return self.links[player]

    def without_javascript(self, name: str) -> WebDriver:
        """A tab of its own for `name` in which the pages' scripts do not run (the test's own,
        such as axe-core, still do)."""
        self._tab(name)
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        return self.driver

    def table(self) -> None:
        self._tab("table")
        self.driver.get(self.base + "/table")
        self.connected("table")

    def show(self, name: str) -> WebDriver:
        self._tab(name)
        return self.driver

    def connected(self, name: str) -> None:
        self.wait_text(name, self.said("Connected to the host."))

    def text(self, name: str) -> str:
        """What the page shows, its lines joined by spaces."""
        self._tab(name)
        return " ".join(self.driver.find_element(By.TAG_NAME, "body").text.split())

    def source(self, name: str) -> str:
        """The page's whole document as it is now, hidden parts and embedded data included."""
        self._tab(name)
        return str(self.driver.page_source)

    def wait(self, name: str, condition: Any) -> None:
        self._tab(name)
        deadline = time.monotonic() + WAIT
        while not _holds(condition):
            if time.monotonic() > deadline:
                raise AssertionError(f"{name}'s page never got there:\n{self.driver.find_element(By.TAG_NAME, 'body').text}")
            time.sleep(0.05)

    def wait_text(self, name: str, text: str) -> None:
        """Wait until the page shows `text` (lines and spaces alike: a layout may break a line)."""
        self.wait(name, lambda: text in " ".join(self.driver.find_element(By.TAG_NAME, "body").text.split()))

    def send(self, player: str, verb: str, text: str) -> None:
        """Type `text` into the page's field for `verb` (a term, a clue) and send it, as a player
        would; again from the start if the page draws its moves anew meanwhile."""

        def sent() -> bool:
            field = self.driver.find_element(By.CSS_SELECTOR, f"form[data-verb='{verb}'] input[type=text]")
            field.clear()
            field.send_keys(text)
            field.find_element(By.XPATH, "./ancestor::form//button").click()
            return True

        self.wait(player, sent)

    def press(self, player: str, verb: str, value: str = "") -> None:
        """Press the button of `player`'s move `verb` that sends `value`, once it is offered (again
        if the page draws its moves anew between finding and pressing it)."""

        def pressed() -> bool:
            for form in self.driver.find_elements(By.CSS_SELECTOR, f"form[data-verb='{verb}']"):
                if form.find_element(By.CSS_SELECTOR, "input[name=text]").get_attribute("value") == value:
                    form.find_element(By.TAG_NAME, "button").click()
                    return True
            return False

        self.wait(player, pressed)

    def offered(self, player: str) -> set[tuple[str, str]]:
        """The (verb, value) of every button on `player`'s page now."""
        self._tab(player)
        return {
            (str(form.get_attribute("data-verb")), str(form.find_element(By.CSS_SELECTOR, "input[name=text]").get_attribute("value")))
            for form in self.driver.find_elements(By.CSS_SELECTOR, "#asks form[data-verb]")
        }

    def reply(self, player: str, text: str) -> None:
        """Wait for a message for `player` on their page."""
        self.wait(player, lambda: text in self.driver.find_element(By.ID, "replies").text)
