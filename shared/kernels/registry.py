"""The kernel registry: the named kernels one cluster serves (issue #31).

An entry names a kernel dir, its runtime dir and its transcript import sources (the
``FORMAT:PATH`` entries of ``SUBCON_IMPORT``, :mod:`shared.importing.sources`). The
kernel the settings name (``SUBCON_KERNEL_DIR``, ``SUBCON_RUNTIME_DIR``,
``SUBCON_IMPORT``) is not an entry: it is the unnamed ``default`` kernel, a name no entry
may take, and it works as it always did.

Rules an entry must keep (:func:`make_entry`, :func:`check_conflicts`), each refused with
a :class:`~shared.errors.RegistryError` (exit 2) whose message names the fix:

* the name is 1 to 63 of ``a-z 0-9 _ -``, starting with a letter or digit (so never a
  path: no dot, no slash), and not ``default``; no two entries share a name;
* both dirs are absolute (``~`` expanded), and are stored as their resolved real paths
  (symlinks followed, ``..`` gone), neither the filesystem root nor a file;
* an entry's runtime dir is not its kernel dir, nor inside it, nor around it;
* no dir of an entry is, is inside or contains a dir of another entry (compared as real
  paths at the time of the change): a kernel inside another kernel or runtime would be
  read and committed for two kernels, and two kernels sharing a runtime would share
  one spine and one set of partition states;
* an import source is ``FORMAT:PATH`` with a known format and an absolute path.

Two stores behind one interface (:class:`Store`), chosen by :func:`open_registry`:

* :class:`RedisStore` when a Redis is configured (``Settings.effective_redis_url``): the
  hash ``subcon:kernels`` (field = name, value = the entry as JSON), where every process
  of the cluster reads it; a change is one WATCH/MULTI transaction, retried when another
  client changed the hash in between.
* :class:`FileStore` in embedded mode: ``SUBCON_KERNELS_FILE``, by default
  ``kernels.json`` in subcon's config dir (``~/.config/subcon``, where the per-user
  ``subcon.env`` lives), so the registry does not depend on which kernel's settings are
  in use. A change holds an exclusive flock on ``<file>.lock`` while it reads, checks and
  writes the file (a temp file renamed over it), so concurrent changes never lose one.

Removing an entry never touches a file of its kernel or runtime.
"""

from __future__ import annotations

import builtins
import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import redis

from shared.errors import BrokerUnreachable, ConfigError, LockHeld, RegistryError, UnknownKernel
from shared.importing.sources import parse_source
from shared.jsontext import compact, pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.keys import KERNEL_REGISTRY, shown_url
from shared.kernel.paths import KernelPaths
from shared.settings import Settings, config_dir
from shared.timestamps import iso

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
# The unnamed kernel of the settings; no entry may take its name.
DEFAULT_NAME = "default"
FILE_NAME = "kernels.json"
FILE_VERSION = 1
# Characters SUBCON_IMPORT splits entries on: an entry holding one would not round-trip.
_IMPORT_SEPARATORS = (",", ";", "\n")
REDIS_CONNECT_TIMEOUT_S = 3.0
REDIS_TIMEOUT_S = 10.0
REDIS_RETRIES = 50
FILE_LOCK_WAIT_S = 10.0

Entries = dict[str, "KernelEntry"]
Change = Callable[[Entries], Entries]


@dataclass(frozen=True)
class KernelEntry:
    """One registered kernel: its name, both dirs (real paths) and import sources."""

    name: str
    kernel: Path
    runtime: Path
    imports: tuple[str, ...] = ()
    added_at: str | None = None

    @property
    def paths(self) -> KernelPaths:
        return KernelPaths(kernel=self.kernel, runtime=self.runtime)

    @property
    def import_setting(self) -> str:
        """The import sources as a ``SUBCON_IMPORT`` value ("" for none)."""
        return "\n".join(self.imports)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kernel": str(self.kernel),
            "runtime": str(self.runtime),
            "imports": list(self.imports),
            "added_at": self.added_at,
        }

    @classmethod
    def from_json(cls, name: str, data: Any, where: str) -> KernelEntry:
        """The entry stored under ``name``; RegistryError naming ``where`` if malformed."""
        bad = f"kernel registry {where}: entry {name!r} is malformed"
        if not isinstance(data, dict) or data.get("name", name) != name:
            raise RegistryError(f"{bad}: not an object with its own name")
        dirs = [data.get("kernel"), data.get("runtime")]
        if not all(isinstance(d, str) and os.path.isabs(d) for d in dirs):
            raise RegistryError(f"{bad}: 'kernel' and 'runtime' must be absolute paths")
        imports = data.get("imports", [])
        if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports):
            raise RegistryError(f"{bad}: 'imports' must be a list of FORMAT:PATH strings")
        added = data.get("added_at")
        return cls(
            name=name,
            kernel=Path(str(dirs[0])),
            runtime=Path(str(dirs[1])),
            imports=tuple(imports),
            added_at=added if isinstance(added, str) else None,
        )


# -- validation (pure but for realpath, which reads symlinks) -----------------------------


def check_name(name: str) -> str:
    """``name`` if an entry may take it.

    Raises:
        RegistryError: it does not match :data:`NAME_PATTERN`, or it is ``default``.
    """
    if not NAME_PATTERN.fullmatch(name):
        raise RegistryError(
            f"kernel name {name!r} refused: use 1 to 63 of a-z, 0-9, '_' and '-', "
            "starting with a letter or digit"
        )
    if name == DEFAULT_NAME:
        raise RegistryError(
            "kernel name 'default' is reserved for the unnamed kernel of the settings "
            "(SUBCON_KERNEL_DIR, SUBCON_RUNTIME_DIR): pick another name"
        )
    return name


def real_dir(path: Path | str, role: str) -> Path:
    """The real path of a kernel or runtime dir given as ``path`` (``~`` expanded).

    Raises:
        RegistryError: relative, the filesystem root, or an existing non-directory.
    """
    given = os.path.expanduser(str(path))
    if not os.path.isabs(given):
        raise RegistryError(
            f"{role} dir {given!r} is relative: give an absolute path (the workers do not "
            "run in your working directory)"
        )
    try:
        real = Path(os.path.realpath(given))
    except (OSError, ValueError) as exc:
        raise RegistryError(f"{role} dir {given!r} cannot be resolved: {exc}") from None
    if real == Path(real.anchor):
        raise RegistryError(f"{role} dir {given} is the filesystem root: name a dir below it")
    if real.exists() and not real.is_dir():
        raise RegistryError(f"{role} dir {given} is a file, not a directory")
    return real


def check_imports(specs: Iterable[str]) -> tuple[str, ...]:
    """Import sources as ``FORMAT:/absolute/path`` entries, in order, each once.

    Raises:
        RegistryError: an entry is not ``FORMAT:PATH`` with a known format and an
            absolute path, or it holds a character ``SUBCON_IMPORT`` splits on.
    """
    out: list[str] = []
    for spec in specs:
        if any(sep in spec for sep in _IMPORT_SEPARATORS):
            raise RegistryError(
                f"import source {spec!r}: one FORMAT:PATH per --import, without ',' ';' or "
                "a newline"
            )
        try:
            source = parse_source(spec)
        except ConfigError as exc:
            raise RegistryError(str(exc)) from None
        if not source.root.is_absolute():
            raise RegistryError(f"import source {spec!r}: the path is relative: make it absolute")
        normal = f"{source.fmt}:{os.path.normpath(source.root)}"
        if normal not in out:
            out.append(normal)
    return tuple(out)


def relation(a: Path, b: Path) -> str | None:
    """How dir ``a`` lies to dir ``b`` (both real paths), or None when apart."""
    if a == b:
        return "is"
    if a.is_relative_to(b):
        return "is inside"
    if b.is_relative_to(a):
        return "contains"
    return None


def make_entry(
    name: str,
    kernel: Path | str,
    runtime: Path | str,
    imports: Iterable[str] = (),
    *,
    added_at: str | None = None,
) -> KernelEntry:
    """A validated entry on its own (the rules that need no other entry).

    Raises:
        RegistryError: a bad name, dir or import source, or runtime and kernel overlap.
    """
    check_name(name)
    real_kernel = real_dir(kernel, "kernel")
    real_runtime = real_dir(runtime, "runtime")
    how = relation(real_runtime, real_kernel)
    if how is not None:
        raise RegistryError(
            f"runtime dir {real_runtime} {how} the kernel dir {real_kernel}: keep the "
            "two apart, neither inside the other (the runtime's var/ is not the kernel's)"
        )
    return KernelEntry(name, real_kernel, real_runtime, check_imports(imports), added_at)


def check_conflicts(entry: KernelEntry, others: Mapping[str, KernelEntry]) -> None:
    """Refuse ``entry`` when its name is taken or a dir overlaps another entry's.

    Raises:
        RegistryError: the first conflict found, naming the other entry.
    """
    taken = others.get(entry.name)
    if taken is not None:
        raise RegistryError(
            f"kernel {entry.name!r} is already registered (kernel {taken.kernel}, runtime "
            f"{taken.runtime}): `subcon kernels remove {entry.name}` first to change it"
        )
    mine = (("kernel", real_dir(entry.kernel, "kernel")),
            ("runtime", real_dir(entry.runtime, "runtime")))  # fmt: skip
    for other in sorted(others.values(), key=lambda e: e.name):
        theirs = (("kernel", Path(os.path.realpath(other.kernel))),
                  ("runtime", Path(os.path.realpath(other.runtime))))  # fmt: skip
        for role, path in mine:
            for other_role, other_path in theirs:
                how = relation(path, other_path)
                if how is None:
                    continue
                target = "" if how == "is" else f" ({other_path})"
                raise RegistryError(
                    f"{role} dir {path} {how} the {other_role} dir of kernel "
                    f"{other.name!r}{target}: registered dirs never overlap (one file would "
                    "belong to two kernels)"
                )


# -- stores -------------------------------------------------------------------------------


class Store(Protocol):
    """Where entries live: read them all, or change them all in one atomic step."""

    @property
    def where(self) -> str: ...

    def load(self) -> Entries: ...

    def update(self, change: Change) -> None:
        """Apply ``change`` (current entries -> new entries) atomically; it may be
        called more than once and may raise to refuse."""


class FileStore:
    """The embedded-mode store: a JSON file, changed under a flock (module docstring)."""

    def __init__(self, path: Path, *, lock_wait: float = FILE_LOCK_WAIT_S) -> None:
        self.path = path
        self.lock_wait = lock_wait

    @property
    def where(self) -> str:
        return str(self.path)

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def load(self) -> Entries:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise RegistryError(f"kernel registry {self.path} cannot be read: {exc}") from None
        try:
            doc = json.loads(data)
        except ValueError as exc:
            raise RegistryError(f"kernel registry {self.path} is not JSON: {exc}") from None
        kernels = doc.get("kernels") if isinstance(doc, dict) else None
        if not isinstance(kernels, dict) or doc.get("version") != FILE_VERSION:
            raise RegistryError(
                f"kernel registry {self.path} is not a version {FILE_VERSION} registry "
                '({"version": 1, "kernels": {...}})'
            )
        return {name: KernelEntry.from_json(name, raw, self.where) for name, raw in kernels.items()}

    def update(self, change: Change) -> None:
        with self._locked():
            entries = change(self.load())
            doc = {
                "version": FILE_VERSION,
                "kernels": {name: entries[name].to_json() for name in sorted(entries)},
            }
            try:
                atomic_write_text(self.path, pretty(doc))
            except OSError as exc:
                raise RegistryError(
                    f"kernel registry {self.path} cannot be written: {exc}"
                ) from None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RegistryError(f"kernel registry {self.path} cannot be locked: {exc}") from None
        try:
            deadline = time.monotonic() + self.lock_wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockHeld(
                            f"kernel registry {self.path} stayed locked by another process "
                            f"for {self.lock_wait:g} s: try again"
                        ) from None
                    time.sleep(0.01)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


class RedisStore:
    """The cluster's store: one Redis hash, changed in WATCH/MULTI transactions."""

    def __init__(self, client: redis.Redis, shown: str, key: str = KERNEL_REGISTRY) -> None:
        self.client = client
        self.key = key
        self._shown = shown

    @classmethod
    def from_url(cls, url: str) -> RedisStore:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=REDIS_CONNECT_TIMEOUT_S, socket_timeout=REDIS_TIMEOUT_S
        )
        return cls(client, shown_url(url))

    @property
    def where(self) -> str:
        return f"{self._shown} (hash {self.key})"

    def _decode(self, raw: Mapping[Any, Any]) -> Entries:
        out: Entries = {}
        for field, value in raw.items():
            name = field.decode("utf-8", "replace") if isinstance(field, bytes) else str(field)
            try:
                data = json.loads(value)
            except ValueError:
                data = None
            out[name] = KernelEntry.from_json(name, data, self.where)
        return out

    @contextlib.contextmanager
    def _talking(self) -> Iterator[None]:
        try:
            yield
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise BrokerUnreachable(
                f"the kernel registry's Redis at {self._shown} does not answer: {exc}"
            ) from None
        except redis.ResponseError as exc:
            raise RegistryError(f"kernel registry {self.where}: {exc}") from None

    def load(self) -> Entries:
        with self._talking():
            raw = self.client.hgetall(self.key)
        return self._decode(raw)

    def update(self, change: Change) -> None:
        with self._talking():
            for _ in range(REDIS_RETRIES):
                with self.client.pipeline() as pipe:
                    try:
                        pipe.watch(self.key)  # type: ignore[no-untyped-call]
                        current = self._decode(pipe.hgetall(self.key))
                        entries = change(dict(current))
                        pipe.multi()
                        for name in sorted(current.keys() - entries.keys()):
                            pipe.hdel(self.key, name)
                        for name, entry in sorted(entries.items()):
                            if current.get(name) != entry:
                                pipe.hset(self.key, name, compact(entry.to_json()))
                        pipe.execute()
                        return
                    except redis.WatchError:
                        continue
        raise LockHeld(
            f"kernel registry {self.where} kept changing under {REDIS_RETRIES} tries: try again"
        )


# -- the registry -------------------------------------------------------------------------


class Registry:
    """Add, list, get and remove named kernels in one :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def where(self) -> str:
        return self.store.where

    def get(self, name: str) -> KernelEntry:
        """The entry named ``name``.

        Raises:
            UnknownKernel: none is registered under it (or it is ``default``).
        """
        _known_name(name, self.where)
        found = self.store.load().get(name)
        if found is None:
            raise _unknown(name, self.where)
        return found

    def add(
        self,
        name: str,
        kernel: Path | str,
        runtime: Path | str,
        imports: Iterable[str] = (),
        *,
        now: datetime | None = None,
    ) -> KernelEntry:
        """Register a kernel; the entry as stored (real paths, normalised imports).

        Raises:
            RegistryError: a rule of the module docstring is broken (nothing stored).
        """
        entry = make_entry(name, kernel, runtime, imports, added_at=iso(now))

        def change(current: Entries) -> Entries:
            check_conflicts(entry, current)
            return {**current, entry.name: entry}

        self.store.update(change)
        return entry

    def remove(self, name: str) -> KernelEntry:
        """Unregister ``name``; no file is touched. The entry that was removed.

        Raises:
            UnknownKernel: none is registered under it.
        """
        _known_name(name, self.where)
        removed: builtins.list[KernelEntry] = []

        def change(current: Entries) -> Entries:
            if name not in current:
                raise _unknown(name, self.where)
            rest = dict(current)
            removed[:] = [rest.pop(name)]
            return rest

        self.store.update(change)
        return removed[0]

    def list(self) -> builtins.list[KernelEntry]:
        """Every entry, by name."""
        entries = self.store.load()
        return [entries[name] for name in sorted(entries)]


def _unknown(name: str, where: str) -> UnknownKernel:
    return UnknownKernel(
        f"no kernel named {name!r} in the registry ({where}): `subcon kernels list` shows "
        "them, `subcon kernels add` adds one"
    )


def _known_name(name: str, where: str) -> None:
    if name == DEFAULT_NAME:
        raise UnknownKernel(
            "'default' is the unnamed kernel of the settings (SUBCON_KERNEL_DIR, "
            "SUBCON_RUNTIME_DIR), not a registry entry"
        )
    if not NAME_PATTERN.fullmatch(name):
        raise _unknown(name, where)


def kernels_file(settings: Settings, environ: Mapping[str, str] | None = None) -> Path:
    """The registry file of embedded mode: ``SUBCON_KERNELS_FILE``, else ``kernels.json``
    in subcon's config dir (``$XDG_CONFIG_HOME/subcon``, ``~/.config/subcon``)."""
    if settings.kernels_file is not None:
        return Path(os.path.expanduser(settings.kernels_file))
    return config_dir(os.environ if environ is None else environ) / FILE_NAME


def open_registry(settings: Settings) -> Registry:
    """The registry the settings point at: the Redis hash when a Redis is configured,
    else the file of :func:`kernels_file`."""
    url = settings.effective_redis_url
    if url:
        return Registry(RedisStore.from_url(url))
    return Registry(FileStore(kernels_file(settings)))


def entry_settings(base: Settings, entry: KernelEntry) -> Settings:
    """``base`` on the entry's kernel: its dirs and import sources, and an audit stream
    of its own (``<SUBCON_AUDIT_STREAM>:<name>``); the rest (broker, thresholds,
    timeouts) stays the cluster's. The CLI (``--kernel-name``) and the workers
    (``workers/kernel_target.py``) both build a named kernel's settings here."""
    return base.model_copy(
        update={
            "kernel_dir": entry.kernel,
            "runtime_dir": entry.runtime,
            "import_sources": entry.import_setting or None,
            "audit_stream": f"{base.audit_stream}:{entry.name}",
        }
    )
