"""`subcon init`: create the kernel and runtime layout, the partition files and git genesis.

Follows what the original runtime does at start (docs/formats.md §3):
directories are created with ``mkdir -p``, layout files only when missing, and git
genesis only when the kernel is not already its own repository (otherwise the
``.gitignore`` entries are synced and nothing is committed).

``--force`` decisions: a non-empty kernel is refused without it (nothing is changed);
with it the layout is added around what exists: existing files are kept, except that
``--demo`` overwrites the demo board and demo dossiers. The synthetic spine is never
written into a runtime whose spine already holds day files (history is append-only).

``--demo`` decisions: the demo board and dossiers go into the genesis commit; then
review-rejectable lines are appended to the board and one clean line to the entity
dossier as uncommitted edits, so the first committer run commits one file and holds
back the other.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.constants import GIT_IDENTITY_EMAIL, GIT_IDENTITY_NAME
from shared.errors import ConfigError
from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.setup.demo import board as demo_board
from shared.setup.demo.spine import DEMO_DATES, SpineSummary, write_spine
from shared.setup.templates import layout, partitions
from shared.timestamps import iso

GENESIS_MESSAGE = "memory: genesis"
_DAY_FILE = re.compile(r"^([0-9]{4}-[0-9]{2}-[0-9]{2})\.jsonl$")


@dataclass
class InitReport:
    """What `init_kernel` did. Paths are ``kernel:<rel>`` / ``runtime:<rel>``."""

    kernel: str
    runtime: str
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    overwritten: list[str] = field(default_factory=list)
    git: str = ""
    genesis_commit: str | None = None
    gitignore_added: list[str] = field(default_factory=list)
    demo_uncommitted: list[str] = field(default_factory=list)
    spine: SpineSummary | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "runtime": self.runtime,
            "created": self.created,
            "kept": self.kept,
            "overwritten": self.overwritten,
            "git": self.git,
            "genesis_commit": self.genesis_commit,
            "gitignore_added": self.gitignore_added,
            "demo_uncommitted": self.demo_uncommitted,
            "spine": self.spine.to_json() if self.spine else None,
            "notes": self.notes,
        }

    @property
    def text(self) -> str:
        """Human summary, one fact per line."""
        lines = [f"kernel:  {self.kernel}", f"runtime: {self.runtime}"]
        files = [p for p in self.created if not p.endswith("/")]
        lines.append(
            f"created {len(self.created) - len(files)} dirs and {len(files)} files; "
            f"kept {len(self.kept)} existing files"
            + (f"; overwrote {len(self.overwritten)}" if self.overwritten else "")
        )
        if self.git == "genesis":
            lines.append(f"git: genesis commit {self.genesis_commit} ({GENESIS_MESSAGE!r})")
        else:
            added = ", ".join(self.gitignore_added) or "nothing to add"
            lines.append(f"git: existing repository, .gitignore synced ({added}); no commit")
        if self.demo_uncommitted:
            where = "committed at genesis" if self.git == "genesis" else "written (uncommitted)"
            lines.append(
                f"demo: board, {len(demo_board.TOPICS)} topic nodes and 1 entity dossier {where}; "
                "edits left for the committer: " + ", ".join(self.demo_uncommitted)
            )
        if self.spine is not None:
            s = self.spine
            lines.append(
                f"demo spine: {len(s.dates)} days {s.dates[0]}..{s.dates[-1]}, {s.events} events "
                f"({s.external_events} external, {s.malformed_lines} malformed lines), "
                f"channels {', '.join(s.channel_kinds)}"
            )
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


def is_own_repo(kernel: Path) -> bool:
    """True iff ``git rev-parse --show-toplevel`` in ``kernel`` resolves to ``kernel``
    (docs/formats.md §3.4)."""
    result = run_git(kernel, "rev-parse", "--show-toplevel", check=False)
    if result.returncode != 0 or not result.stdout.strip():
        return False
    return os.path.realpath(result.stdout.strip()) == os.path.realpath(kernel)


def check_can_init(paths: KernelPaths, *, force: bool) -> None:
    """Refuse before anything is written.

    Raises:
        ConfigError: a root exists but is not a directory, or the kernel dir is not
            empty and ``force`` is false.
    """
    for label, root in (("kernel", paths.kernel), ("runtime", paths.runtime)):
        if root.exists() and not root.is_dir():
            raise ConfigError(f"{label} path {root} exists and is not a directory")
    if not force and paths.kernel.is_dir() and any(paths.kernel.iterdir()):
        raise ConfigError(
            f"kernel dir {paths.kernel} is not empty; nothing was changed. Re-run with "
            "--force to add the missing layout around it (existing files are kept; "
            "--demo overwrites the demo board and dossiers)"
        )


class _Writer:
    """Records what init creates or keeps, so the report can say it."""

    def __init__(self, paths: KernelPaths, report: InitReport) -> None:
        self.paths = paths
        self.report = report

    def _label(self, path: Path) -> str:
        for name, root in (("kernel", self.paths.kernel), ("runtime", self.paths.runtime)):
            if path.is_relative_to(root):
                return f"{name}:{path.relative_to(root).as_posix()}"
        return str(path)

    def mkdir(self, path: Path) -> None:
        if not path.is_dir():
            path.mkdir(parents=True, exist_ok=True)
            self.report.created.append(self._label(path) + "/")

    def create(self, path: Path, text: str, *, overwrite: bool = False) -> None:
        if path.exists():
            if not overwrite:
                self.report.kept.append(self._label(path))
                return
            if path.read_bytes() != text.encode("utf-8"):
                self.report.overwritten.append(self._label(path))
            atomic_write_text(path, text)
            return
        atomic_write_text(path, text)
        self.report.created.append(self._label(path))


def _day_files(paths: KernelPaths) -> list[str]:
    if not paths.events_dir.is_dir():
        return []
    return sorted(p.name for p in paths.events_dir.iterdir() if _DAY_FILE.match(p.name))


def _write_runtime(w: _Writer, paths: KernelPaths) -> None:
    w.mkdir(paths.runtime)
    for rel in layout.RUNTIME_DIRS:
        w.mkdir(paths.runtime / rel)
    os.chmod(paths.run_dir, 0o700)
    w.create(paths.cadence_queue, layout.QUEUE_MD)


def _write_kernel(w: _Writer, paths: KernelPaths, *, demo: bool) -> None:
    w.mkdir(paths.kernel)
    for rel in layout.KERNEL_DIRS:
        w.mkdir(paths.kernel / rel)
    w.create(paths.playlist, layout.PLAYLIST_MD)
    w.create(paths.meta_state, layout.META_STATE_JSON)
    w.create(paths.subconscious_dir / "CLAUDE.md", partitions.SUBCONSCIOUS_CLAUDE_MD)
    for name, text in partitions.PARTITION_FILES.items():
        w.mkdir(paths.partition_dir(name))
        w.create(paths.partition_prompt(name), text)
    if demo:
        for rel, text in demo_board.committed_files().items():
            w.create(paths.kernel / rel, text, overwrite=True)
    else:
        w.create(paths.board, layout.EMPTY_BOARD)


def _write_status(w: _Writer, paths: KernelPaths) -> None:
    days = _day_files(paths)
    event_log = paths.events_dir / (days[-1] if days else f"{iso()[:10]}.jsonl")
    doc = layout.status_document(
        generated_at=iso(),
        kernel_root=str(paths.kernel),
        work_root=os.environ.get("ALADUO_WORK_DIR") or os.getcwd(),
        event_log=str(event_log),
    )
    w.create(paths.registry_dir / "status.json", pretty(doc))


def _git(w: _Writer, paths: KernelPaths) -> None:
    report = w.report
    if is_own_repo(paths.kernel):
        report.git = "existing-repo"
        if paths.gitignore.exists():
            text, added = layout.sync_gitignore(paths.gitignore.read_text(encoding="utf-8"))
            if added:
                atomic_write_text(paths.gitignore, text)
            report.gitignore_added = added
        else:
            w.create(paths.gitignore, layout.render_gitignore())
            report.gitignore_added = list(layout.missing_gitignore_entries(""))
        return
    run_git(paths.kernel, "init", "-q")
    if paths.gitignore.exists():
        text, report.gitignore_added = layout.sync_gitignore(
            paths.gitignore.read_text(encoding="utf-8")
        )
        atomic_write_text(paths.gitignore, text)
    else:
        w.create(paths.gitignore, layout.render_gitignore())
    run_git(paths.kernel, "add", ".")
    run_git(
        paths.kernel,
        "-c",
        f"user.name={GIT_IDENTITY_NAME}",
        "-c",
        f"user.email={GIT_IDENTITY_EMAIL}",
        "commit",
        "-q",
        "-m",
        GENESIS_MESSAGE,
    )
    report.git = "genesis"
    report.genesis_commit = run_git(paths.kernel, "rev-parse", "--short", "HEAD").stdout.strip()


def init_kernel(
    paths: KernelPaths, *, demo: bool, force: bool, seed: int = 7, demo_edits: bool = True
) -> InitReport:
    """Create (or complete) a kernel and runtime in the original layout.

    Inputs: the two roots; ``demo`` adds the demo board, dossiers and synthetic spine
    (deterministic by ``seed``), and with ``demo_edits`` the uncommitted board lines
    review rejects; ``force`` allows a non-empty kernel.
    Output: an :class:`InitReport` of what was created, kept and committed.

    Raises:
        ConfigError: refused (non-empty kernel without ``force``, a root that is a
            file); nothing was changed.
        GitError: a git command failed (exit 3 at the CLI).
    """
    # Paths end up inside files (status.json, spine raw_path), which need them absolute.
    paths = KernelPaths(kernel=paths.kernel.absolute(), runtime=paths.runtime.absolute())
    check_can_init(paths, force=force)
    report = InitReport(kernel=str(paths.kernel), runtime=str(paths.runtime))
    w = _Writer(paths, report)
    _write_runtime(w, paths)
    if demo:
        if _day_files(paths):
            report.notes.append(
                f"{paths.events_dir} already holds day files; the synthetic spine was not "
                "written (spine files are append-only history)"
            )
        else:
            report.spine = write_spine(paths, seed)
            report.created.extend(
                [f"runtime:var/events/{d}.jsonl" for d in DEMO_DATES]
                + [
                    "runtime:var/events/index/by_id.jsonl",
                    "runtime:var/events/index/by_session.jsonl",
                ]
            )
    _write_kernel(w, paths, demo=demo)
    _write_status(w, paths)
    _git(w, paths)
    if demo and demo_edits:
        for rel, text in demo_board.uncommitted_edits().items():
            atomic_write_text(paths.kernel / rel, text)
            report.demo_uncommitted.append(rel)
    return report
