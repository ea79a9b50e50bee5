"""The worked-example kernel (docs/formats.md §8.9) as a fixture."""

from __future__ import annotations

import pytest

from shared.kernel.paths import KernelPaths
from tests.memcheck.example import build_example


@pytest.fixture
def example(paths: KernelPaths) -> KernelPaths:
    build_example(paths)
    return paths
