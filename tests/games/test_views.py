"""Every game's view is typed all the way down: `view` of each registered game (and of the toy
game) is annotated with a frozen dataclass of its own, whose fields, and theirs, are dataclasses,
tuples, typed mappings, enums and plain values: no dict, no Any, so the host reads fields that
mypy checks (tests/test_types.py) and never keys of a dict."""
from __future__ import annotations

import dataclasses
import enum
import inspect
import subprocess
import sys
import textwrap
import types
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from games.base import GameState, GameView
from games.registry import registered
from tests.games import toy

ROOT = Path(__file__).resolve().parents[2]
PLAIN = (str, int, bool, float, type(None))


def _states(spec_make: typing.Callable[..., GameState]) -> Iterator[type[GameState]]:
    """The concrete state classes a spec's `make` may build: its return type and its subclasses."""
    made: type[GameState] = typing.get_type_hints(spec_make)["return"]
    family = [made]
    while family:
        cls = family.pop()
        family.extend(cls.__subclasses__())
        if not inspect.isabstract(cls):
            yield cls


def untyped_parts(hint: object, where: str) -> list[str]:
    """Where in `hint` a dict, Any or an unchecked type hides (empty: typed all the way down)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is typing.Any or hint is dict or origin is dict:
        return [f"{where}: {hint}"]
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        return [part for arg in args if arg is not Ellipsis for part in untyped_parts(arg, where)]
    if origin is Mapping:
        return [part for arg in args for part in untyped_parts(arg, where)]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not hint.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{where}: {hint.__name__} is not frozen"]
        return [part for name, field in typing.get_type_hints(hint).items()
                for part in untyped_parts(field, f"{where}.{name}")]
    if isinstance(hint, type) and (issubclass(hint, enum.Enum) or hint in PLAIN):
        return []
    return [f"{where}: {hint}"]


@pytest.mark.parametrize("spec", [*registered().values(), toy.SPEC], ids=lambda spec: spec.name)
def test_every_view_is_a_frozen_dataclass_typed_all_the_way_down(spec) -> None:
    states = list(_states(spec.make))
    assert states
    for state in states:
        returned = typing.get_type_hints(state.view)["return"]
        assert isinstance(returned, type) and issubclass(returned, GameView) and returned is not GameView, state
        assert untyped_parts(returned, returned.__name__) == []


@dataclasses.dataclass(frozen=True)
class Inner:
    loose: dict[str, typing.Any]


@dataclasses.dataclass(frozen=True)
class Loose(GameView):
    """What the check must refuse: a dict deep inside, and Any."""

    fine: Mapping[str, int]
    nested: tuple[Inner, ...] | None
    anything: typing.Any


def test_the_check_finds_a_dict_or_any_anywhere() -> None:
    assert untyped_parts(Loose, "Loose") == ["Loose.nested.loose: dict[str, typing.Any]", "Loose.anything: typing.Any"]


@pytest.mark.slow
def test_mypy_refuses_a_misspelt_field_and_a_key(tmp_path: Path) -> None:
    """What the host reads of a view is checked: a field that does not exist and a read by key are
    type errors, a field that does is not."""
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent("""\
        from games.base import GameState, view_of
        from games.stories import StoriesView

        def read(state: GameState) -> str:
            view = view_of(state, None, StoriesView)
            view.no_such_field
            view["phase"]
            return view.storyteller
    """))
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(probe)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    errors = [line.split(": error: ", 1)[1] for line in checked.stdout.splitlines() if ": error: " in line]
    assert errors == [
        '"StoriesView" has no attribute "no_such_field"  [attr-defined]',
        'Value of type "StoriesView" is not indexable  [index]',
    ], checked.stdout
