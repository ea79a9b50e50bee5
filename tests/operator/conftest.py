"""Fixtures for the operator-facing CLI tests: a git kernel and a demo kernel."""

from __future__ import annotations

import pytest

from shared.kernel.paths import KernelPaths
from testing.gitrepo import init_repo


@pytest.fixture
def repo(paths: KernelPaths) -> KernelPaths:
    """A kernel that is its own git repo with a genesis commit (board + one dossier)."""
    return init_repo(paths)


@pytest.fixture
def demo(paths: KernelPaths) -> KernelPaths:
    """The demo kernel (board, dossiers, a two-day synthetic spine), git genesis made."""
    from shared.setup.bootstrap import init_kernel

    init_kernel(paths, demo=True, force=False)
    return paths
