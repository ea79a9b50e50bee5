"""The test tiers: every test is exactly one of ``unit``, ``integration`` or ``slow``.

- ``integration``: drives real processes or tools outside the test process: a
  redis-server, Celery workers, Flower, network namespaces, docker-compose,
  systemd-analyze. A test that asks for the ``redis_server`` fixture (directly or
  through another fixture) is integration without saying so.
- ``slow``: takes many seconds on its own: multi-host fleets, refits of the precedent
  judge, the headless browser.
- ``unit``: everything else, in-process and quick; the default.

A test marked with two tiers is refused at collection (``tests/conftest.py`` calls
:func:`tier_of` for every collected test), so ``-m unit``, ``-m integration`` and
``-m slow`` split the suite into three parts that add up to all of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

import pytest

TIERS = ("unit", "integration", "slow")
# A fixture that starts a real redis-server: its users are integration tests.
REAL_SERVER_FIXTURES = frozenset({"redis_server"})


class TierError(ValueError):
    """A test carries more than one tier marker."""


def tier_of(test: str, markers: Iterable[str], fixtures: Iterable[str]) -> str:
    """The one tier of ``test`` from its marker names and the names of every fixture it
    uses (pytest's closure); :class:`TierError` when it is marked with two tiers."""
    marked = [t for t in TIERS if t in set(markers)]
    if len(marked) > 1:
        raise TierError(f"{test}: marked {' and '.join(marked)}; a test has exactly one tier")
    if marked:
        return marked[0]
    if REAL_SERVER_FIXTURES & set(fixtures):
        return "integration"
    return "unit"


class _Item(Protocol):
    """What :func:`assign_tiers` uses of a ``pytest.Item``."""

    @property
    def nodeid(self) -> str: ...

    def iter_markers(self, name: str | None = None) -> Iterator[Any]: ...

    def add_marker(self, marker: Any, append: bool = True) -> None: ...


def assign_tiers(items: Sequence[_Item]) -> None:
    """Add each test's tier marker when it has none (``pytest_collection_modifyitems``);
    a test with two tiers stops the run with :class:`pytest.UsageError`, naming it."""
    for item in items:
        markers = {mark.name for mark in item.iter_markers()}
        try:
            tier = tier_of(item.nodeid, markers, getattr(item, "fixturenames", ()))
        except TierError as exc:
            raise pytest.UsageError(str(exc)) from exc
        if tier not in markers:
            item.add_marker(tier)
