"""Joining in a real browser: the room code before a seat, the laptop told who joined, a seat
whose answer was lost taken again by the same phone and by no other, a renewed link's page in
words (axe-core clean), wrong codes limited; and open pages after the host is killed and resumed."""
from __future__ import annotations

import http.client
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import Host, Pages, axe_violations, free_port, start_browser, status_of

pytestmark = pytest.mark.slow

LOST_ANSWER = """var done = arguments[arguments.length - 1];
var form = new URLSearchParams({player: arguments[0], code: arguments[1], phone: document.querySelector("input[name=phone]").value});
fetch("/join", {method: "POST", body: form}).then(function (r) { done(r.status + " " + r.url); });"""


def claim(driver: WebDriver, player: str, code: str) -> str:
    """POST the join form as the join page in view would: the status and the address it leads to."""
    return str(driver.execute_async_script(LOST_ANSWER, player, code))


def test_the_room_code_and_taking_a_seat_again(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    other = start_browser()  # another phone
    try:
        pages = Pages(browser, host.base, host.code)
        pages.table()
        bo = pages.show("Bo")
        bo.get(host.base + "/")
        assert axe_violations(bo) == []
        wrong = "0000" if host.code != "0000" else "1111"
        bo.find_element(By.ID, "code").send_keys(wrong)
        bo.find_element(By.XPATH, "//button[normalize-space()='I am Bo']").click()
        pages.wait_text("Bo", "That is not this game's room code")
        assert bo.find_element(By.ID, "problem").get_attribute("role") == "alert"
        assert axe_violations(bo) == []
        assert "Bo joined." not in host.printed()
        bo.find_element(By.ID, "code").send_keys(" ".join(host.code))  # as it is said: spaces are ignored
        bo.find_element(By.XPATH, "//button[normalize-space()='I am Bo']").click()
        pages.wait("Bo", lambda: "/p/" in bo.current_url)
        host.wait_for("Bo joined.")
        pages.wait_text("table", "Bo joined.")  # the table page hears it too

        cy = pages.show("Cy")  # Cy's phone joins, and the answer is lost on the way
        cy.get(host.base + "/")
        status, link = claim(cy, "Cy", host.code).split(" ", 1)
        assert status == "200" and "/p/" in link
        host.wait_for("Cy joined.")
        cy.get(host.base + "/")  # the same phone asks again
        cy.find_element(By.ID, "code").send_keys(host.code)
        cy.find_element(By.XPATH, "//button[normalize-space()='I am Cy (again, on this phone)']").click()
        pages.wait("Cy", lambda: "/p/" in cy.current_url)
        assert cy.current_url == link
        assert host.printed().count("Cy joined.") == 1

        other.get(host.base + "/")  # another phone: Cy's seat is not offered, and cannot be taken
        assert "Cy has joined." in other.find_element(By.TAG_NAME, "body").text
        assert not other.find_elements(By.XPATH, "//button[contains(., 'I am Cy')]")
        assert claim(other, "Cy", host.code).startswith("409 ")
        assert "Cy has already joined from another phone" in other.execute_async_script(
            LOST_ANSWER.replace("done(r.status + \" \" + r.url)", "r.text().then(done)"), "Cy", host.code)

        pages.connected("Cy")
        host.type("link Cy")  # Cy's phone was lost: the seat is free again, for a phone with the room code
        host.wait_for(f"Cy's link was renewed; Cy, join again at ")
        pages.wait_text("Cy", "This link no longer works: the laptop made a new link for this seat.")
        assert cy.find_element(By.LINK_TEXT, "Open the join page").get_attribute("href") == host.base + "/"
        cy.get(link)
        assert cy.find_element(By.TAG_NAME, "h1").text == "This link no longer works"
        assert "The laptop made a new private link for Cy (with 'link Cy')" in cy.find_element(By.TAG_NAME, "body").text
        assert "403" not in cy.find_element(By.TAG_NAME, "body").text and status_of(link) == 403
        assert axe_violations(cy) == []
        other.get(host.base + "/")
        assert claim(other, "Cy", "").startswith("403 ")  # without the room code: nothing
        before = len(host.lines)
        status, new = claim(other, "Cy", host.code).split(" ", 1)
        assert status == "200" and new != link
        host.wait_for("Cy joined.", before)  # the phone is answered before the laptop prints it
        assert host.printed().count("Cy joined.") == 2
    finally:
        other.quit()
        host.close()


def test_wrong_room_codes_are_limited(tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    try:
        port = int(host.base.rsplit(":", 1)[1])
        wrong = "0000" if host.code != "0000" else "1111"

        def try_code(code: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.5", 0))
            connection.request("POST", "/join", f"player=Ana&code={code}", {"Content-Type": "application/x-www-form-urlencoded"})
            status = connection.getresponse().status
            connection.close()
            return status

        assert [try_code(wrong) for _ in range(5)] == [403] * 5
        assert try_code(host.code) == 429  # even the right one, for a minute: no guessing in a burst
        assert "Ana joined." not in host.printed()
    finally:
        host.close()


def test_open_pages_after_kill_and_resume(browser: WebDriver, tmp_path: Path) -> None:
    port = free_port()
    host = Host(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1", port=port)
    try:
        pages = Pages(browser, host.base, host.code)
        for player in ("Ana", "Bo", "Cy"):
            pages.join(player)
        pages.table()
        host.type("storyteller Ana", "clue Two of a kind", "shown", "vote Bo 4", "undo", "yes")
        for name in pages.tabs:  # many announcements: the pages have seen high numbers
            pages.wait(name, lambda: "Taking back Bo's vote." in pages.driver.find_element(By.ID, "announcements").text)
        host.kill()
        pages.wait_text("Bo", "Connection to the host lost")
        host = Host(tmp_path, "resume", "1", port=port)
        for name in pages.tabs:
            pages.connected(name)
        host.type("vote Cy 2")
        for name in pages.tabs:  # the new server's numbers start at 1 again: every page shows its lines all the same
            pages.wait(name, lambda: "Cy has voted (1 of 2)." in pages.driver.find_element(By.ID, "announcements").text)
    finally:
        host.close()
