"""A small fleet of real kernels for the index over all kernels (``report --all``):
healthy demo kernels, one with hostile text in its dir and its last commit, and broken
ones (not a git repository, a damaged repository, no runtime, no dirs at all)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from shared.formats.board import read_board
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import Registry
from shared.partitions.state import PartitionState, write_state
from shared.report.overview import Target
from testing.kernels import make_demo
from tests.report.helpers import commit_board, write_weaver_log

HOSTILE_DIR = "k&<script>alert(1)"
HOSTILE_SUBJECT = "memory: <script>alert('subject')</script> & <b>bold</b>"
PASS_TS = "2026-01-05T12:00:00.000Z"
BACKOFF_UNTIL = "2099-01-01T00:00:00.000Z"


@dataclass(frozen=True)
class Fleet:
    """The kernels by name (``default`` first), and which ones are broken how."""

    kernels: dict[str, KernelPaths]

    def targets(self) -> list[Target]:
        return [Target(name, paths) for name, paths in self.kernels.items()]

    def register(self, registry: Registry) -> None:
        for name, paths in self.kernels.items():
            if name != "default":
                registry.add(name, paths.kernel, paths.runtime)


def board_size(paths: KernelPaths) -> int:
    return len(read_board(paths.board).lines)


def make_fleet(root: Path) -> Fleet:
    """``default`` (a demo kernel, its board held back, one weaver pass logged);
    ``alpha`` (its dir and its last commit full of markup, its weaver backed off);
    ``beta`` (a demo kernel as made); ``nogit`` (not a git repository); ``damaged``
    (HEAD names a commit whose objects are gone); ``noruntime`` (runtime dir deleted);
    ``gone`` (registered, neither dir exists)."""
    kernels: dict[str, KernelPaths] = {}
    default = kernels["default"] = make_demo(root / "default")
    write_weaver_log(default, PASS_TS, [], [])

    alpha = kernels["alpha"] = make_demo(root / HOSTILE_DIR)
    text = alpha.board.read_text(encoding="utf-8")
    commit_board(alpha, text, HOSTILE_SUBJECT, "body & <i>more</i>", "2026-01-05T13:00:00Z")
    write_state(
        alpha,
        "memory-weaver",
        PartitionState(
            last_started_at="2026-01-05T13:00:00.000Z",
            last_finished_at="2026-01-05T13:00:05.000Z",
            last_result="error",
            consecutive_failures=3,
            backoff_until=BACKOFF_UNTIL,
        ),
    )
    kernels["beta"] = make_demo(root / "beta")

    nogit = kernels["nogit"] = make_demo(root / "nogit")
    shutil.rmtree(nogit.kernel / ".git")

    damaged = kernels["damaged"] = make_demo(root / "damaged")
    objects = damaged.kernel / ".git" / "objects"
    shutil.rmtree(objects)
    objects.mkdir()
    assert run_git(damaged.kernel, "rev-parse", "-q", "--verify", "HEAD", check=False).stdout

    noruntime = kernels["noruntime"] = make_demo(root / "noruntime")
    shutil.rmtree(noruntime.runtime)

    kernels["gone"] = KernelPaths(root / "gone" / "kernel", root / "gone" / "runtime")
    return Fleet(kernels)
