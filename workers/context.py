"""What every CLI command receives: the settings and the two roots."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel.paths import KernelPaths
from shared.settings import Settings


@dataclass(frozen=True)
class CliContext:
    settings: Settings
    paths: KernelPaths
