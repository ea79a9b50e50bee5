"""Every test has exactly one tier, ``unit``, ``integration`` or ``slow`` (testing/tiers.py,
docs/development.md), so ``python -m pytest -m <tier>`` runs one part of the suite and the
three parts add up to all of it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from testing.tiers import TIERS, TierError, assign_tiers, tier_of

REPO = Path(__file__).resolve().parent.parent


def test_the_tier_is_the_marked_one_else_integration_for_a_real_server_else_unit() -> None:
    assert tier_of("t", {"slow", "parametrize"}, {"redis_server"}) == "slow"
    assert tier_of("t", {"integration"}, ()) == "integration"
    assert tier_of("t", set(), {"tmp_path", "redis_url", "redis_server"}) == "integration"
    assert tier_of("t", {"skipif"}, {"tmp_path"}) == "unit"
    with pytest.raises(TierError, match="t: marked integration and slow"):
        tier_of("t", {"slow", "integration"}, ())


@dataclass
class _Mark:
    name: str


@dataclass
class _Item:
    nodeid: str
    marks: list[str]
    fixturenames: tuple[str, ...] = ()
    added: list[Any] = field(default_factory=list)

    def iter_markers(self, name: str | None = None) -> Iterator[_Mark]:
        return iter([_Mark(m) for m in self.marks if name in (None, m)])

    def add_marker(self, marker: Any, append: bool = True) -> None:
        self.added.append(marker)


def test_collection_adds_the_missing_tier_and_refuses_two() -> None:
    items = [
        _Item("a", []),
        _Item("b", ["slow"]),
        _Item("c", [], ("redis_server",)),
    ]
    assign_tiers(items)
    assert [i.added for i in items] == [["unit"], [], ["integration"]]
    with pytest.raises(pytest.UsageError, match="d: marked unit and integration"):
        assign_tiers([_Item("d", ["unit", "integration"])])


def test_every_test_of_this_run_has_exactly_one_tier(request: pytest.FixtureRequest) -> None:
    items = request.session.items
    assert request.node in items
    wrong = [
        (i.nodeid, tiers)
        for i in items
        if len(tiers := [t for t in TIERS if i.get_closest_marker(t) is not None]) != 1
    ]
    assert wrong == []


# One test file of each kind: in-process, a real redis-server through a fixture, tools
# outside Python, a multi-host fleet, a refit.
SAMPLE = (
    "tests/test_tiers.py",
    "tests/cadence/test_tickstore.py",
    "tests/deploy/test_systemd.py",
    "tests/multihost/test_auth.py",
    "tests/review/test_precedent.py",
)


def _collected(*args: str) -> set[str]:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    proc = subprocess.run(
        [*command, *args, *SAMPLE],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode in (0, 5), proc.stdout + proc.stderr
    return {line for line in proc.stdout.splitlines() if "::" in line}


@pytest.mark.slow  # four pytest collections in subprocesses
def test_the_three_tiers_split_the_suite_without_overlap() -> None:
    everything = _collected()
    parts = {tier: _collected("-m", tier) for tier in TIERS}
    assert all(parts.values()), parts
    assert set.union(*parts.values()) == everything
    assert sum(len(p) for p in parts.values()) == len(everything)
    unit = "tests/test_tiers.py::test_collection_adds_the_missing_tier_and_refuses_two"
    assert unit in parts["unit"]
    assert {p.split("::")[0] for p in parts["integration"]} == {
        "tests/cadence/test_tickstore.py",
        "tests/deploy/test_systemd.py",
    }
    assert {p.split("::")[0] for p in parts["slow"]} == {
        "tests/multihost/test_auth.py",
        "tests/review/test_precedent.py",
        "tests/test_tiers.py",  # this test
    }
