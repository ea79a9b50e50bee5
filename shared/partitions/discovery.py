"""Partition discovery, schedule quirks and the consumer-contract gate (docs/formats.md §6).

A partition is a direct subdirectory of ``<kernel>/subconscious/`` (not ``inbox``) with a
readable ``CLAUDE.md``. Two readers of the same front matter disagree on purpose, as in
the original: the scheduler applies nullish defaults without type checks (``enabled:
no`` is the truthy string ``"no"``), while the contract reader takes ``enabled`` only
when it is a real boolean.

Ordering: the original sorts with ``String.prototype.localeCompare`` (ICU root
collation). :func:`locale_key` reproduces it for ASCII names and approximates it for
others (see its docstring).
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from shared.errors import InputError
from shared.formats.frontmatter import js_trim, parse_front_matter
from shared.kernel.paths import KernelPaths

log = logging.getLogger(__name__)

DEFAULT_ENABLED: Final = True
DEFAULT_COOLDOWN_TICKS: Final = 1
DEFAULT_MAX_DURATION_MS: Final = 60_000

# Contract states (docs/formats.md §6.3).
PARTITION_ABSENT: Final = "partition-absent"
PARSE_FAIL: Final = "parse-fail"
NO_CONTRACT: Final = "no-contract"
SELF_ID_MISMATCH: Final = "self-id-mismatch"
VALID: Final = "valid"

SIGNAL_KINDS: Final = (
    "entity-converge.v1",
    "node-converge.v1",
    "revise.v1",
    "sink.v1",
    "merge.v1",
    "orphan-islands.v1",
    "orphan-newborn.v1",
    "scan-gap.v1",
)

_VERSIONED = re.compile(r"\.v[0-9]+$")
# ICU root collation order of ASCII punctuation and symbols (all before digits).
# Letters with no NFD decomposition that ICU sorts as their base letter plus an accent.
_STROKED: Final = {"ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ħ": "h", "Ħ": "H"}
_SPACE_ORDER: Final = "\t\n\x0b\x0c\r "
_PUNCT_ORDER: Final = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_NUMBER_RE = re.compile(
    r"^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity)$|^0[xX][0-9a-fA-F]+$"
    r"|^0[oO][0-7]+$|^0[bB][01]+$"
)


@dataclass(frozen=True)
class Schedule:
    """The scheduler's view of ``schedule:`` after the original's coercions."""

    enabled: bool = DEFAULT_ENABLED
    cooldown_ticks: int = DEFAULT_COOLDOWN_TICKS
    max_duration_ms: int = DEFAULT_MAX_DURATION_MS


@dataclass(frozen=True)
class PartitionInfo:
    """Everything the scheduler, the memory check and ``status`` need about a partition.

    ``error`` is set when ``CLAUDE.md`` is unreadable or its front matter does not
    parse: such a partition is dropped from scheduling (its ``schedule`` is then the
    default) and its contract state is ``parse-fail``. ``warnings`` lists values that
    were coerced to a default.
    """

    name: str
    path: Path
    schedule: Schedule
    contract_state: str
    contract_enabled: bool
    consumes: frozenset[str]
    error: str | None = None
    prompt_content: str = ""
    runtime: str | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def schedulable(self) -> bool:
        """False when the front matter failed to parse (the original drops it)."""
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (for ``status`` and logs)."""
        return {
            "name": self.name,
            "path": str(self.path),
            "schedule": {
                "enabled": self.schedule.enabled,
                "cooldown_ticks": self.schedule.cooldown_ticks,
                "max_duration_ms": self.schedule.max_duration_ms,
            },
            "contract": self.contract_state,
            "enabled": self.contract_enabled,
            "consumes": sorted(self.consumes),
            "runnable": self.schedulable,
            "error": self.error,
            "warnings": list(self.warnings),
        }


def locale_key(
    name: str,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Sort key for JS ``a.localeCompare(b)`` (ICU root collation, punctuation not
    ignorable): primary strengths first for the whole name (whitespace < punctuation
    and symbols < digits, compared as characters, < letters < everything else by code
    point), then accents (secondary), then case (lower first), then code units.

    Exact for ASCII names (controls are ignorable, as in ICU); for other names,
    letters with accents sort as their base letter plus an accent and other scripts
    by code point, which is close but not ICU (docs/duoduo.md, "Differences from duoduo").
    """
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.combining(char):
            if secondary:
                secondary[-1] = secondary[-1] * 1024 + ord(char) % 1024
            continue
        code = ord(char)
        if (code < 0x20 and char not in _SPACE_ORDER) or code == 0x7F:
            continue  # ignorable controls
        if char in _SPACE_ORDER:
            primary.append(1 + _SPACE_ORDER.index(char))
        elif char in _PUNCT_ORDER:
            primary.append(10 + _PUNCT_ORDER.index(char))
        elif "0" <= char <= "9":
            primary.append(100 + code)
        elif char in _STROKED:
            base = _STROKED[char]
            primary.append(1000 + ord(base.lower()))
            secondary.append(1)
            tertiary.append(1 if base.isupper() else 0)
            continue
        elif char == "ß":
            primary.extend((1000 + ord("s"), 1000 + ord("s")))
            secondary.append(0)
            tertiary.append(2)
        elif char.isalpha():
            lower = ord(char.lower()[0])
            primary.append(1000 + lower if char.isascii() else 0x10000 + lower)
        else:
            primary.append(0x110000 + code)
        secondary.append(0)
        tertiary.append(1 if char.isupper() else 0)
    return tuple(primary), tuple(secondary), tuple(tertiary), tuple(name.encode("utf-16-be"))


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a YAML value (empty lists and mappings are truthy)."""
    if value is None or value is False:
        return False
    if isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return value != 0 and not math.isnan(value)
    if isinstance(value, str):
        return value != ""
    return True


def js_number(value: Any) -> float:
    """JavaScript ``Number(value)`` for YAML scalars; NaN when it is not a number."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0.0
        if not _NUMBER_RE.match(text):
            return math.nan
        if text[:2].lower() in {"0x", "0o", "0b"}:
            return float(int(text, 0))
        return float(text.replace("Infinity", "inf"))
    if isinstance(value, list):
        if not value:
            return 0.0
        return js_number(value[0]) if len(value) == 1 else math.nan
    return math.nan


def _coerce(value: Any, default: int, floor: int, key: str, warnings: list[str]) -> int:
    """``Math.max(floor, value ?? default)`` with numeric coercion.

    Where the original would end up with NaN or Infinity (a schedule that never runs
    again, or a timeout that fires at once), subcon uses the default and warns.
    """
    if value is None:
        return default
    number = js_number(value)
    if math.isnan(number) or math.isinf(number):
        warnings.append(f"schedule.{key}={value!r} is not a finite number; using {default}")
        return default
    # Ticks and milliseconds compare against integers, so ceil keeps the JS semantics.
    return max(floor, math.ceil(number))


def parse_schedule(data: dict[str, Any] | None) -> tuple[Schedule, tuple[str, ...]]:
    """The scheduler's ``Schedule`` from front-matter data, plus coercion warnings."""
    raw = (data or {}).get("schedule")
    block: dict[str, Any] = raw if isinstance(raw, dict) else {}
    warnings: list[str] = []
    enabled_raw = block.get("enabled")
    enabled = DEFAULT_ENABLED if enabled_raw is None else js_truthy(enabled_raw)
    schedule = Schedule(
        enabled=enabled,
        cooldown_ticks=_coerce(
            block.get("cooldown_ticks"), DEFAULT_COOLDOWN_TICKS, 0, "cooldown_ticks", warnings
        ),
        max_duration_ms=_coerce(
            block.get("max_duration_ms"), DEFAULT_MAX_DURATION_MS, 1, "max_duration_ms", warnings
        ),
    )
    return schedule, tuple(warnings)


def normalize_kind(kind: str) -> str:
    """Trim; append ``.v1`` unless the kind already ends in ``.v<digits>``."""
    text = js_trim(kind)
    return text if _VERSIONED.search(text) else f"{text}.v1"


def contract_state(name: str, data: dict[str, Any]) -> tuple[str, bool, frozenset[str]]:
    """``(state, enabled, consumes)`` of parsed front matter (docs/formats.md §6.3)."""
    raw_schedule = data.get("schedule")
    schedule = raw_schedule if isinstance(raw_schedule, dict) else {}
    enabled_raw = schedule.get("enabled")
    enabled = enabled_raw if isinstance(enabled_raw, bool) else True
    contract = data.get("contract")
    if contract is None:
        return NO_CONTRACT, enabled, frozenset()
    if not isinstance(contract, dict) or not isinstance(contract.get("partition"), str):
        return PARSE_FAIL, enabled, frozenset()
    if contract["partition"] != name:
        return SELF_ID_MISMATCH, enabled, frozenset()
    consumes = contract.get("consumes")
    if not isinstance(consumes, list) or not all(isinstance(k, str) for k in consumes):
        return PARSE_FAIL, enabled, frozenset()
    return VALID, enabled, frozenset(normalize_kind(k) for k in consumes)


def _refuse_near_miss_opener(text: str, where: Path) -> None:
    """A first line ``--`` is a mistyped ``---``: the original reads the file as having
    no front matter (default schedule, no contract, so no signal is ever delivered to
    it) without a word; subcon refuses it so that ``status`` and ``check`` say so.

    Raises:
        InputError: naming line 1.
    """
    first = text.removeprefix("\ufeff").split("\n", 1)[0]
    if js_trim(first) == "--":
        raise InputError(
            where,
            1,
            "front matter opener is '--', not '---': the file would read as having no "
            "front matter (default schedule, no contract)",
        )


def parse_partition(name: str, path: Path, text: str) -> PartitionInfo:
    """A partition's info from its ``CLAUDE.md`` text (pure; never raises)."""
    try:
        _refuse_near_miss_opener(text, path / "CLAUDE.md")
        parsed = parse_front_matter(text, path / "CLAUDE.md")
    except InputError as exc:
        return PartitionInfo(
            name=name,
            path=path,
            schedule=Schedule(),
            contract_state=PARSE_FAIL,
            contract_enabled=True,
            consumes=frozenset(),
            error=str(exc),
        )
    data = parsed.data or {}
    schedule, warnings = parse_schedule(data)
    state, enabled, consumes = contract_state(name, data)
    runtime = data.get("runtime")
    return PartitionInfo(
        name=name,
        path=path,
        schedule=schedule,
        contract_state=state,
        contract_enabled=enabled,
        consumes=consumes,
        prompt_content=parsed.prompt_content,
        runtime=runtime if isinstance(runtime, str) else None,
        warnings=warnings,
    )


def _read_prompt(prompt: Path) -> str:
    # Node decodes with replacement characters, so undecodable bytes never fail a read.
    return prompt.read_bytes().decode("utf-8", errors="replace")


def read_partition(paths: KernelPaths, name: str) -> PartitionInfo | None:
    """The partition ``name``, or None when its ``CLAUDE.md`` is missing (``partition-absent``).

    A read error other than "missing" yields ``parse-fail`` with the reason in ``error``.
    """
    directory = paths.partition_dir(name)
    prompt = directory / "CLAUDE.md"
    try:
        text = _read_prompt(prompt)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return PartitionInfo(
            name=name,
            path=directory,
            schedule=Schedule(),
            contract_state=PARSE_FAIL,
            contract_enabled=True,
            consumes=frozenset(),
            error=f"{prompt}: {exc.strerror or exc}",
        )
    return parse_partition(name, directory, text)


def partition_dir_names(paths: KernelPaths) -> list[str]:
    """Direct subdirectories of ``<kernel>/subconscious`` except ``inbox``, locale-sorted."""
    try:
        entries = list(paths.subconscious_dir.iterdir())
    except OSError:
        return []
    names = [e.name for e in entries if e.name != "inbox" and e.is_dir()]
    return sorted(names, key=locale_key)


def discover_partitions(paths: KernelPaths, *, include_errors: bool = False) -> list[PartitionInfo]:
    """Partitions in scheduling order (docs/formats.md §6.1).

    A partition whose ``CLAUDE.md`` cannot be read is not a partition. One whose front
    matter fails to parse is dropped from the result (with a logged reason) unless
    ``include_errors``; ``status`` passes True to show the reason.
    """
    found: list[PartitionInfo] = []
    for name in partition_dir_names(paths):
        info = read_partition(paths, name)
        if info is None:
            continue
        if info.error is not None:
            log.warning("partition %s dropped from scheduling: %s", name, info.error)
            if not include_errors:
                continue
        found.append(info)
    return found


def enabled_names(partitions: Iterable[PartitionInfo]) -> list[str]:
    """Names the playlist rebuild uses: schedulable and (scheduler-)enabled, in order."""
    return [p.name for p in partitions if p.schedulable and p.schedule.enabled]


def gate(kind: str, info: PartitionInfo | None, flag_fallback: bool) -> str | None:
    """``enforceContractGate``: None when ``kind`` may be delivered to the partition, else
    the withheld reason (``info`` None = the partition is absent)."""
    if info is None or info.contract_state == PARTITION_ABSENT:
        return PARTITION_ABSENT
    if info.contract_state == SELF_ID_MISMATCH:
        return SELF_ID_MISMATCH
    if not info.contract_enabled:
        return "partition-disabled"
    if info.contract_state == VALID:
        return None if normalize_kind(kind) in info.consumes else "kind-not-consumed"
    if info.contract_state == NO_CONTRACT:
        return None if flag_fallback else NO_CONTRACT
    return None if flag_fallback else PARSE_FAIL
