"""What every CLI command receives: the settings and the two roots."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shared.kernel.paths import KernelPaths
from shared.kernels.registry import DEFAULT_NAME
from shared.settings import Settings

if TYPE_CHECKING:
    from workers.kernel_target import KernelTarget


@dataclass(frozen=True)
class CliContext:
    settings: Settings
    paths: KernelPaths
    # What the command line set (--kernel, --runtime), for `status` to say where each
    # setting came from.
    overrides: dict[str, Any] = field(default_factory=dict)
    # The registry name the command runs on (--kernel-name); `default`: the settings' own.
    kernel_name: str = DEFAULT_NAME

    def target(self) -> KernelTarget:
        """The kernel as task messages name it: the workers resolve the same dirs."""
        from workers.kernel_target import KernelTarget

        return KernelTarget(self.kernel_name, self.settings, self.paths)
