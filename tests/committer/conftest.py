"""Real git repositories for committer tests (hermetic git via ``run_git``)."""

from __future__ import annotations

import pytest

from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.paths import KernelPaths
from testing.gitrepo import init_repo


@pytest.fixture
def repo(paths: KernelPaths) -> KernelPaths:
    """A kernel that is its own git repo with a genesis commit (board + one dossier)."""
    return init_repo(paths)


@pytest.fixture
def file_lock(paths: KernelPaths) -> FileKernelLock:
    return FileKernelLock(paths.file_lock, default_wait=0)
