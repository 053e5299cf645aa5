from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import start_browser


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """One chromium for the whole module (starting one takes about a second)."""
    driver = start_browser()
    yield driver
    driver.quit()
