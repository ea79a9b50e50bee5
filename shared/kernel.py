"""The two roots (kernel dir, runtime dir), every path in them, and atomic writes."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from shared.errors import ConfigError, InputError, NameRejected
from shared.jsontext import scrub
from shared.settings import Settings
from shared.testhooks import checkpoint
from shared.timestamps import epoch_ms


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a sibling temp file, fsync it, then rename it over ``path``.

    The temp name follows docs/formats.md §1.2 (``.<base>.<pid>.<ms>.<uuid>.tmp``) so the
    kernel ``.gitignore`` (``*.tmp``) hides it; the temp file is unlinked on failure,
    so no partial file is ever visible at ``path``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / (
        f".{path.name}.{os.getpid()}.{epoch_ms(datetime.now(UTC))}.{uuid.uuid4()}.tmp"
    )
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        checkpoint("write", str(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """UTF-8, LF-only text written atomically (see :func:`atomic_write_bytes`).

    A lone surrogate (text quoting an event the original cut by UTF-16 unit) is
    written as U+FFFD: the file is always valid UTF-8.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = scrub(text).encode("utf-8")
    atomic_write_bytes(path, data)


# ``.<base>.<pid>.<epoch-ms>.<uuid-v4>.tmp``, as :func:`atomic_write_bytes` names them.
_TEMP_RE = re.compile(r"^\..+\.([0-9]+)\.[0-9]+\.[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\.tmp$")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A killed worker's child can linger as a zombie until someone reaps it.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def remove_stale_temps(root: Path) -> list[Path]:
    """Delete the temp files of atomic writers that died mid-write, under ``root``.

    A writer SIGKILLed between its temp write and its rename leaves a complete but
    orphaned ``.<base>.<pid>.<ms>.<uuid>.tmp``; one whose pid is no longer alive on this
    host is removed. Call it while holding the kernel lock (no live writer is then
    mid-write in the kernel). Returns the removed paths; unreadable dirs are skipped.
    """
    removed: list[Path] = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            match = _TEMP_RE.match(name)
            if match is None or _pid_alive(int(match.group(1))):
                continue
            path = Path(dirpath) / name
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path)
    return removed


def read_utf8(path: Path) -> str | None:
    """The UTF-8 text of ``path``, or None when it does not exist.

    Raises:
        InputError: the bytes are not UTF-8 (names the file and the line of the bad byte),
            or ``path`` is not a regular file (a FIFO planted there must not hang us).
    """
    try:
        with open_regular(path) as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
        raise InputError(path, None, "not a regular file") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, line, "not valid UTF-8") from exc


def open_regular(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading, only if it is a regular file (symlinks followed).

    It is opened non-blocking and checked with ``fstat`` before any read, so a FIFO or
    device planted in the kernel never stalls a reader (a blocking ``open`` of a FIFO
    waits for a writer forever).

    Raises:
        OSError: missing, unreadable, or not a regular file (``EINVAL``).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def safe_basename(name: str) -> str:
    """Return ``name`` if it is a plain file name that stays inside its directory.

    Raises:
        NameRejected: empty, ``.``/``..``, a path separator, NUL or a newline.
    """
    if not name or name in {".", ".."} or any(c in name for c in "/\\\0\n\r"):
        raise NameRejected(None, None, f"unsafe file name {name!r}")
    return name


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
    def file_lock(self) -> Path:
        return self.run_dir / "locks" / "subcon-kernel.lock"

    @property
    def cadence_dir(self) -> Path:
        return self.var_dir / "cadence"

    @property
    def cadence_inbox_dir(self) -> Path:
        return self.cadence_dir / "inbox"

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
