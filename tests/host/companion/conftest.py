from tests.host.companion.browser import browser  # noqa: F401 (the fixture)
