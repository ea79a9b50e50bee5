"""Real git repositories for kernel tests (hermetic git via ``run_git``): a board and a
dossier to seed them with, lines the review gates accept and reject, and small helpers."""

from __future__ import annotations

from pathlib import Path

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths

BOARD = (
    "# Intuition\n\n- When a reply opens with filler, lead with the answer [[lesson-reply-first]]\n"
)
GOOD_LINE = (
    "- With <Person>, when a reply would start with social filler, open with the answer and "
    "keep any courtesy to the closing sentence.\n"
)
BAD_LINE = "- The memory board is concise and durable.\n"
DOSSIER = "# Acme\n\n## What it is now\n\n- [observation] Acme is a logistics company in Berlin.\n"


def git(kernel: Path, *args: str) -> str:
    return run_git(kernel, *args).stdout


def write(kernel: Path, rel: str, text: str) -> Path:
    path = kernel / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def commit_all(kernel: Path, message: str = "seed") -> str:
    git(kernel, "add", "-A")
    git(kernel, "commit", "-q", "-m", message)
    return git(kernel, "rev-parse", "HEAD").strip()


def head(kernel: Path) -> str:
    return git(kernel, "rev-parse", "HEAD").strip()


def status(kernel: Path) -> str:
    return git(kernel, "status", "--porcelain=v1", "-uall")


def init_repo(paths: KernelPaths) -> KernelPaths:
    """Make ``paths.kernel`` its own git repo with a genesis commit (board + one dossier)."""
    git(paths.kernel, "init", "-q", "-b", "main")
    write(paths.kernel, ".gitignore", "# kernel\nmemory/fragments/\n*.tmp\n")
    write(paths.kernel, "memory/CLAUDE.md", BOARD)
    write(paths.kernel, "memory/entities/acme.md", DOSSIER)
    commit_all(paths.kernel, "memory: genesis")
    return paths
