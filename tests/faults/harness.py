"""What the fault-injection tests share: prepared kernels, clean reference runs, pause
points, the history audit, and the measured :class:`FaultReport` (the fixture that writes
it is in ``conftest.py``)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.cluster import settings_for
from testing.gitrepo import DOSSIER
from testing.kernels import add_banded_day, copy_roots, make_demo, tree_bytes
from testing.waiting import wait_until

REPORT_PATH = Path(__file__).with_name(".report.json")
DAY = "2026-01-07"
WEAVER = "memory-weaver"
SCAN_GAP = "scan-gap.md.pending"
# Small slices (so a band is several scan tasks), one-event-enough thresholds (so the
# updater really edits the board), a short lock TTL (so a killed holder's lease expires
# within a test).
PASS_ENV = {
    "SUBCON_SCAN_SLICE_EVENTS": "4",
    "SUBCON_WEAKENING_THRESHOLD": "1",
    "SUBCON_LOCK_TTL_SECONDS": "1",
    "SUBCON_LOCK_WAIT_SECONDS": "60",
}


@dataclass
class FaultReport:
    """Counters for the README figures (see module docstring)."""

    faults_injected: dict[str, int] = field(default_factory=dict)
    faults_survived: dict[str, int] = field(default_factory=dict)
    inputs_tried: dict[str, int] = field(default_factory=dict)
    hypothesis_examples: int = 0
    items_checked: int = 0
    items_lost: int = 0
    commits_audited: int = 0
    rejected_lines_committed: int = 0
    outside_paths_committed: int = 0

    def injected(self, kind: str) -> None:
        self.faults_injected[kind] = self.faults_injected.get(kind, 0) + 1

    def survived(self, kind: str) -> None:
        self.faults_survived[kind] = self.faults_survived.get(kind, 0) + 1

    def tried(self, kind: str, n: int = 1, *, hypothesis: bool = False) -> None:
        self.inputs_tried[kind] = self.inputs_tried.get(kind, 0) + n
        if hypothesis:
            self.hypothesis_examples += n

    def items(self, checked: int, lost: int) -> None:
        self.items_checked += checked
        self.items_lost += lost

    def to_json(self) -> dict[str, Any]:
        return {
            "faults_injected": sum(self.faults_injected.values()),
            "faults_survived": sum(self.faults_survived.values()),
            "inputs_tried": sum(self.inputs_tried.values()),
            "hypothesis_examples": self.hypothesis_examples,
            "items_checked": self.items_checked,
            "items_lost": self.items_lost,
            "commits_audited": self.commits_audited,
            "rejected_lines_committed": self.rejected_lines_committed,
            "outside_allowlist_paths_committed": self.outside_paths_committed,
            "by_fault": {
                k: {"injected": v, "survived": self.faults_survived.get(k, 0)}
                for k, v in sorted(self.faults_injected.items())
            },
            "inputs_by_kind": dict(sorted(self.inputs_tried.items())),
        }


def prepared_kernel(root: Path) -> KernelPaths:
    """A demo kernel plus a four-band day and its posted ``scan-gap.md.pending``."""
    from shared.memcheck.check import run_memory_check

    paths = make_demo(root)
    add_banded_day(paths, DAY, range(0, 24, 6), per_hour=3)
    run_memory_check(paths, Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime))
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    return paths


def clean_reference(base: KernelPaths, dest: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run the embedded pass (no faults) on a copy of ``base``; returns its report and
    the resulting memory tree and inbox listing."""
    from workers.embedded import run_partition

    clean = copy_roots(base, dest)
    report = run_partition(settings_for(clean, env), WEAVER, commit=False)
    return {
        "report": report,
        "tree": tree_bytes(clean.memory_dir),
        "inbox": inbox_names(clean),
        "paths": clean,
    }


def inbox_names(paths: KernelPaths, partition: str = WEAVER) -> list[str]:
    inbox = paths.inbox_dir(partition)
    return sorted(p.name for p in inbox.iterdir()) if inbox.is_dir() else []


def read_pid(reached: Path, timeout: float = 90.0) -> int:
    """Wait for a pause point's ``.reached`` file and return the pid it names."""
    wait_until(reached.is_file, timeout, f"{reached.name} (a worker at the pause point)")
    return int(reached.read_text(encoding="utf-8").split()[0])


def sigkill(pid: int) -> None:
    """SIGKILL ``pid`` and wait until it is gone (a reaped child or a zombie)."""
    os.kill(pid, signal.SIGKILL)

    def gone() -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1]
        except OSError:
            return True
        return state in ("Z", "X")

    wait_until(gone, 10, f"pid {pid} to die")


def git_history_audit(kernel: Path, forbidden: list[str]) -> tuple[int, int, int]:
    """(committer commits, rejected lines they hold, outside-allowlist paths they touch).

    Every commit the committer made (``Partition: memory-committer`` trailer) is
    re-reviewed: each changed allowlisted file's changed lines go through the same review
    gates again, and must also not contain any of the ``forbidden`` lines verbatim.
    """
    from shared.committer.diffing import changed_lines
    from shared.review.allowlist import classify
    from shared.review.reviewer import review_text

    revs = run_git(kernel, "rev-list", "--all").stdout.split()
    commits = bad_lines = bad_paths = 0
    for rev in revs:
        if (
            "Partition: memory-committer"
            not in run_git(kernel, "log", "-1", "--format=%B", rev).stdout
        ):
            continue
        commits += 1
        changed = run_git(
            kernel, "diff-tree", "--root", "--no-commit-id", "-r", "--name-only", "-z", rev
        ).stdout.split("\0")
        for path in (p for p in changed if p):
            kind = classify(path)
            if kind is None:
                bad_paths += 1
                continue
            new = run_git(kernel, "show", f"{rev}:{path}", check=False)
            if new.returncode != 0:
                continue  # a deletion
            old = run_git(kernel, "show", f"{rev}^:{path}", check=False)
            touched = changed_lines(old.stdout, new.stdout) if old.returncode == 0 else None
            rejects = [d for d in review_text(path, kind, new.stdout, touched) if d.rejected]
            verbatim = [f for f in forbidden if f.strip() and f.strip() in new.stdout]
            bad_lines += len(rejects) + len(verbatim)
    return commits, bad_lines, bad_paths


def audit_into(report: FaultReport, kernel: Path, forbidden: list[str]) -> tuple[int, int]:
    """Audit ``kernel``'s history into ``report``; returns (bad lines, bad paths)."""
    commits, bad_lines, bad_paths = git_history_audit(kernel, forbidden)
    report.commits_audited += commits
    report.rejected_lines_committed += bad_lines
    report.outside_paths_committed += bad_paths
    return bad_lines, bad_paths


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail a block that overruns ``seconds`` (the suite must stay bounded)."""
    begun = time.monotonic()
    yield
    spent = time.monotonic() - begun
    assert spent < seconds, f"block took {spent:.1f}s (limit {seconds}s)"


GOOD = (
    "- With Dana, when a reply would start with social filler, open with the answer and "
    "keep any courtesy to the closing sentence.\n"
)


def seed_repo(paths: KernelPaths) -> None:
    k = paths.kernel
    run_git(k, "init", "-q", "-b", "main")
    (k / ".gitignore").write_text("# kernel\nmemory/fragments/\n*.tmp\n", encoding="utf-8")
    (k / "memory/entities").mkdir(parents=True)
    (k / "memory/CLAUDE.md").write_text("# Intuition\n\n" + GOOD, encoding="utf-8")
    (k / "memory/entities/acme.md").write_text(DOSSIER, encoding="utf-8")
    run_git(k, "add", "-A")
    run_git(k, "commit", "-q", "-m", "memory: genesis")
