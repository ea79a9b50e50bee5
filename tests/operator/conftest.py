"""Fixtures for the operator-facing CLI tests: a git kernel and a demo kernel."""

from __future__ import annotations

import pytest

from shared.kernel.paths import KernelPaths
from tests.committer.conftest import repo  # noqa: F401  (re-exported fixture)


@pytest.fixture
def demo(paths: KernelPaths) -> KernelPaths:
    """The demo kernel (board, dossiers, a two-day synthetic spine), git genesis made."""
    from shared.setup.bootstrap import init_kernel

    init_kernel(paths, demo=True, force=False)
    return paths
