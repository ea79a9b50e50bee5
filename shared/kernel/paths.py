"""The two roots (kernel dir, runtime dir) and every path in them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from shared.errors import ConfigError
from shared.kernel.files import safe_basename
from shared.settings import Settings


@dataclass(frozen=True)
class KernelPaths:
    """Every path the pipeline touches, derived from the two roots (docs/formats.md §2.2)."""

    kernel: Path
    runtime: Path

    @classmethod
    def from_settings(cls, settings: Settings) -> KernelPaths:
        return cls(kernel=Path(settings.kernel_dir), runtime=Path(settings.runtime_dir))

    # kernel side
    @property
    def memory_dir(self) -> Path:
        return self.kernel / "memory"

    @property
    def board(self) -> Path:
        return self.memory_dir / "CLAUDE.md"

    @property
    def entities_dir(self) -> Path:
        return self.memory_dir / "entities"

    @property
    def topics_dir(self) -> Path:
        return self.memory_dir / "topics"

    @property
    def fragments_dir(self) -> Path:
        return self.memory_dir / "fragments"

    @property
    def effectiveness_dir(self) -> Path:
        return self.memory_dir / "effectiveness"

    @property
    def state_dir(self) -> Path:
        return self.memory_dir / "state"

    @property
    def meta_state(self) -> Path:
        return self.state_dir / "meta-memory-state.json"

    @property
    def subconscious_dir(self) -> Path:
        return self.kernel / "subconscious"

    @property
    def playlist(self) -> Path:
        return self.subconscious_dir / "playlist.md"

    @property
    def gitignore(self) -> Path:
        return self.kernel / ".gitignore"

    def partition_dir(self, name: str) -> Path:
        return self.subconscious_dir / safe_basename(name)

    def partition_prompt(self, name: str) -> Path:
        return self.partition_dir(name) / "CLAUDE.md"

    def fragment_day_dir(self, date: str) -> Path:
        return self.fragments_dir / safe_basename(date)

    # runtime side
    @property
    def var_dir(self) -> Path:
        return self.runtime / "var"

    @property
    def run_dir(self) -> Path:
        return self.runtime / "run"

    @property
    def events_dir(self) -> Path:
        return self.var_dir / "events"

    @property
    def events_index_dir(self) -> Path:
        return self.events_dir / "index"

    @property
    def by_id_index(self) -> Path:
        return self.events_index_dir / "by_id.jsonl"

    @property
    def by_session_index(self) -> Path:
        return self.events_index_dir / "by_session.jsonl"

    def day_file(self, date: str) -> Path:
        return self.events_dir / f"{safe_basename(date)}.jsonl"

    @property
    def subconscious_var_dir(self) -> Path:
        return self.var_dir / "subconscious"

    def inbox_dir(self, partition: str) -> Path:
        return self.subconscious_var_dir / safe_basename(partition) / "inbox"

    @property
    def partition_state_dir(self) -> Path:
        return self.var_dir / "meta" / "partitions"

    def partition_state(self, name: str) -> Path:
        return self.partition_state_dir / f"{safe_basename(name)}.json"

    @property
    def audit_dir(self) -> Path:
        return self.subconscious_var_dir / "memory-committer" / "audit"

    @property
    def weaver_report_dir(self) -> Path:
        return self.subconscious_var_dir / "memory-weaver" / "reports"

    @property
    def subcon_state_dir(self) -> Path:
        """subcon's own runtime-side state (caches, embedded tick counter, file lock)."""
        return self.var_dir / "subcon"

    @property
    def import_dir(self) -> Path:
        """Where transcript imports keep their watermarks and last status."""
        return self.subcon_state_dir / "import"

    @property
    def file_lock(self) -> Path:
        return self.run_dir / "locks" / "subcon-kernel.lock"

    @property
    def cadence_dir(self) -> Path:
        return self.var_dir / "cadence"

    @property
    def cadence_queue(self) -> Path:
        return self.cadence_dir / "queue.md"

    @property
    def registry_dir(self) -> Path:
        return self.var_dir / "registry"

    def require_kernel(self) -> None:
        """Raise ConfigError naming the fix when the kernel dir does not exist."""
        if not self.kernel.is_dir():
            raise ConfigError(
                f"kernel dir {self.kernel} does not exist: run `subcon --kernel {self.kernel} "
                f"--runtime {self.runtime} init` or set SUBCON_KERNEL_DIR"
            )

    def require_runtime(self) -> None:
        """Raise ConfigError naming the fix when the runtime dir does not exist (the
        kernel does: ``init`` must be told to add the layout around it)."""
        if not self.runtime.is_dir():
            force = " --force" if self.kernel.is_dir() and any(self.kernel.iterdir()) else ""
            raise ConfigError(
                f"runtime dir {self.runtime} does not exist: run `subcon --kernel "
                f"{self.kernel} --runtime {self.runtime} init{force}` (existing kernel files "
                "are kept) or set SUBCON_RUNTIME_DIR"
            )
