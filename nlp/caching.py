"""Memoised lookups for the language resources, one cache per instance."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache


def cache_methods(instance: object, names: Iterable[str], maxsize: int) -> None:
    """Memoise the named methods of `instance`; the caches live and die with it."""
    for name in names:
        setattr(instance, name, lru_cache(maxsize=maxsize)(getattr(instance, name)))
