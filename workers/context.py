"""What every CLI command receives: the settings and the two roots."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.kernel.paths import KernelPaths
from shared.settings import Settings


@dataclass(frozen=True)
class CliContext:
    settings: Settings
    paths: KernelPaths
    # What the command line set (--kernel, --runtime), for `status` to say where each
    # setting came from.
    overrides: dict[str, Any] = field(default_factory=dict)
