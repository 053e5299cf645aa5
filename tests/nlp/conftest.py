import pytest

from nlp import TermReferee, load_referee


@pytest.fixture(scope="session")
def referee() -> TermReferee:
    return load_referee()
