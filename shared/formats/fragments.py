"""Scanner fragments: the evidence records under ``memory/fragments/<date>/``.

Format (docs/formats.md §10.2): flat front matter with keys in
a fixed order, then ``# Fragment``, ``Evidence:``, ``Effectiveness note:`` and an
optional ``Pointers:`` section of bullets. :func:`render_fragment` and
:func:`parse_fragment` round-trip; :func:`fragment_filename` is deterministic in the
dedup key so a redelivered scan rewrites the same file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from shared.errors import InputError
from shared.formats.frontmatter import yaml_plain_ok
from shared.kernel.files import read_utf8
from shared.timestamps import filename_ts, parse_iso

TRAJECTORIES: tuple[str, ...] = ("STRENGTHENING", "NEUTRAL", "WEAKENING", "NEW_SIGNAL")
ACTIVATIONS: tuple[str, ...] = ("activated", "missed", "waiting")
ROOT_CAUSES: tuple[str, ...] = ("recall-miss", "direction-wrong")
# What a WEAKENING fragment says about its line (labelling "Scanner sessions"): the
# updater's edit depends on it. An extra front-matter key after ``root_cause``; the
# original reads fragments only through its prompts, which treat unknown keys as data.
WEAKENING_KINDS: tuple[str, ...] = ("recall-miss", "direction-changed", "obsolete")
KEY_ORDER: tuple[str, ...] = (
    "source_event_id",
    "source_ts",
    "source_kind",
    "session_key",
    "event_type",
    "signal",
    "claude_md_ref",
    "source_line",
    "source_line_hash",
    "trajectory",
    "activation",
    "root_cause",
    "weakening_kind",
    "judge",
)
_SECTIONS: tuple[tuple[str, str], ...] = (
    ("Evidence:", "evidence"),
    ("Effectiveness note:", "notes"),
    ("Pointers:", "pointers"),
)
_PLAIN_VALUE_RE = re.compile(r"^[^\s\"'#&*!|>%@`{}\[\],?-][^\n#]*$")
_LINE_POINTER_RE = re.compile(r"^line:\s*\[\[([^\]\n]+)\]\]\s*$")


@dataclass(frozen=True)
class Fragment:
    """One fragment file's content. ``source_line`` is None for NEW_SIGNAL."""

    source_event_id: str
    source_ts: str
    source_kind: str
    session_key: str
    event_type: str
    signal: str
    claude_md_ref: str
    source_line: int | None
    source_line_hash: str | None
    trajectory: str
    activation: str
    root_cause: str | None = None
    weakening_kind: str | None = None
    evidence: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    pointers: tuple[str, ...] = ()
    extra: tuple[tuple[str, str], ...] = field(default=())
    # Provenance: the ``name/version`` of the judge that made it (absent in the
    # original's fragments, which its prompts read as data).
    judge: str | None = None

    @property
    def marker(self) -> str | None:
        """The node marker recorded in a ``- line: [[marker]]`` pointer row, if any."""
        for row in self.pointers:
            match = _LINE_POINTER_RE.match(row)
            if match:
                return match.group(1).strip()
        return None

    @property
    def line_number(self) -> int | None:
        """The line number from ``source_line`` or ``claude_md_ref``."""
        if self.source_line is not None:
            return self.source_line
        match = re.fullmatch(r"memory/CLAUDE\.md:L([0-9]+)", self.claude_md_ref)
        return int(match.group(1)) if match else None

    def dedup_key(self) -> tuple[str, str, str, str]:
        """(source event, signal class, referenced line, trajectory): the dedup key that
        names the file (docs/formats.md §10.2)."""
        ref = self.marker or self.source_line_hash or self.claude_md_ref
        return (self.source_event_id, self.signal, ref, self.trajectory)

    def to_json(self) -> dict[str, Any]:
        return {
            "source_event_id": self.source_event_id,
            "source_ts": self.source_ts,
            "source_kind": self.source_kind,
            "session_key": self.session_key,
            "event_type": self.event_type,
            "signal": self.signal,
            "claude_md_ref": self.claude_md_ref,
            "source_line": self.source_line,
            "source_line_hash": self.source_line_hash,
            "trajectory": self.trajectory,
            "activation": self.activation,
            "root_cause": self.root_cause,
            "weakening_kind": self.weakening_kind,
            "evidence": list(self.evidence),
            "notes": list(self.notes),
            "pointers": list(self.pointers),
            "judge": self.judge,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fragment:
        return cls(
            source_event_id=str(data["source_event_id"]),
            source_ts=str(data["source_ts"]),
            source_kind=str(data["source_kind"]),
            session_key=str(data["session_key"]),
            event_type=str(data["event_type"]),
            signal=str(data["signal"]),
            claude_md_ref=str(data["claude_md_ref"]),
            source_line=data.get("source_line"),
            source_line_hash=data.get("source_line_hash"),
            trajectory=str(data["trajectory"]),
            activation=str(data["activation"]),
            root_cause=data.get("root_cause"),
            weakening_kind=data.get("weakening_kind"),
            evidence=tuple(data.get("evidence", ())),
            notes=tuple(data.get("notes", ())),
            pointers=tuple(data.get("pointers", ())),
            judge=data.get("judge"),
        )

    def with_changes(self, **changes: Any) -> Fragment:
        return replace(self, **changes)


def _render_value(value: str) -> str:
    flat = value.replace("\n", " ").replace("\r", " ").replace("\0", "")
    # Plain only when a YAML reader reads back this string (not a number or date).
    if flat and _PLAIN_VALUE_RE.match(flat) and ": " not in flat and yaml_plain_ok(flat):
        return flat
    return json.dumps(flat, ensure_ascii=False)


def render_fragment(frag: Fragment) -> str:
    """The fragment file text (LF line endings, trailing LF)."""
    event_id = frag.source_event_id
    if not _render_value(event_id).strip('" '):
        # An id of only NUL/line breaks/blanks would render empty and the file would not
        # read back (its evidence silently dropped): use its file-name form instead.
        event_id = _component(event_id)
    values: dict[str, str | None] = {
        "source_event_id": event_id,
        "source_ts": frag.source_ts,
        "source_kind": frag.source_kind,
        "session_key": frag.session_key,
        "event_type": frag.event_type,
        "signal": frag.signal,
        "claude_md_ref": frag.claude_md_ref,
        "source_line": None if frag.source_line is None else str(frag.source_line),
        "source_line_hash": frag.source_line_hash,
        "trajectory": frag.trajectory,
        "activation": frag.activation,
        "root_cause": frag.root_cause,
        "weakening_kind": frag.weakening_kind,
        "judge": frag.judge,
    }
    out = ["---"]
    out += [
        f"{k}: {v if k == 'source_line' else _render_value(v)}"  # source_line is a number
        for k, v in values.items()
        if v is not None
    ]
    out += [f"{k}: {_render_value(v)}" for k, v in frag.extra]
    out += ["---", "", "# Fragment"]
    for label, attr in _SECTIONS:
        items: tuple[str, ...] = getattr(frag, attr)
        if attr == "pointers" and not items:
            continue
        out += ["", label, ""]
        out += [f"- {item}" for item in items]
    return "\n".join(out) + "\n"


def _parse_value(raw: str, path: str, lineno: int) -> str:
    value = raw.strip()
    if value.startswith('"'):
        try:
            decoded = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InputError(path, lineno, f"bad quoted value: {exc.msg}") from exc
        if not isinstance(decoded, str):
            raise InputError(path, lineno, "quoted value is not a string")
        return decoded
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def _front_matter(
    lines: list[str], where: str
) -> tuple[dict[str, str], dict[str, int], list[tuple[str, str]], int]:
    """The front matter's values, the line of each key, the keys beyond
    :data:`KEY_ORDER` (in file order) and the index of the closing ``---``."""
    if not lines or lines[0].strip() != "---":
        raise InputError(where, 1, "fragment must start with a '---' front matter line")
    fields: dict[str, str] = {}
    field_lines: dict[str, int] = {}
    extra: list[tuple[str, str]] = []
    for idx in range(1, len(lines)):
        raw = lines[idx]
        if raw.strip() == "---":
            return fields, field_lines, extra, idx
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        match = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):(?:\s(.*)|)$", raw)
        if not match:
            raise InputError(where, idx + 1, f"malformed front matter line {raw[:60]!r}")
        key, value = match.group(1), _parse_value(match.group(2) or "", where, idx + 1)
        if key in fields:
            raise InputError(where, idx + 1, f"duplicate key {key!r}")
        fields[key] = value
        field_lines[key] = idx + 1
        if key not in KEY_ORDER:
            extra.append((key, value))
    raise InputError(where, len(lines), "front matter is not closed with '---'")


def _check_fields(
    fields: dict[str, str], field_lines: dict[str, int], where: str, end: int
) -> None:
    """Required keys present, closed vocabularies respected (errors name the key's line)."""
    for key in ("source_event_id", "trajectory"):
        if not fields.get(key):
            raise InputError(where, end + 1, f"missing required key {key!r}")
    if not fields.get("claude_md_ref", "") and not fields.get("source_line"):
        raise InputError(where, end + 1, "fragment has neither claude_md_ref nor source_line")
    for key, allowed in (
        ("trajectory", TRAJECTORIES),
        ("activation", ACTIVATIONS),
        ("root_cause", ROOT_CAUSES),
        ("weakening_kind", WEAKENING_KINDS),
    ):
        value = fields.get(key, "")
        if value and value not in allowed:
            raise InputError(where, field_lines[key], f"unknown {key} {value!r}")


def _source_line(fields: dict[str, str], field_lines: dict[str, int], where: str) -> int | None:
    if not fields.get("source_line"):
        return None
    raw_line = fields["source_line"].strip()
    digits = raw_line[1:] if raw_line[:1] in {"L", "l"} else raw_line
    if not (digits.isascii() and digits.isdigit()):
        raise InputError(where, field_lines["source_line"], "source_line is not a number")
    return int(digits)


def _sections_of(body: list[str]) -> dict[str, list[str]]:
    """The bullets under each body heading; a continuation line joins its bullet."""
    sections: dict[str, list[str]] = {"evidence": [], "notes": [], "pointers": []}
    current: list[str] | None = None
    for raw in body:
        stripped = raw.strip()
        label = next((attr for lab, attr in _SECTIONS if stripped == lab), None)
        if label is not None:
            current = sections[label]
        elif stripped.startswith("# ") or not stripped:
            continue
        elif current is not None and raw.startswith("- "):
            current.append(raw[2:])
        elif current is not None and current:
            current[-1] += "\n" + raw
    return sections


def parse_fragment(text: str, path: Path | str = "<fragment>") -> Fragment:
    """Parse fragment text.

    Raises:
        InputError: ("path:line: reason") no front matter, a malformed key line, a
            missing required key, a bad trajectory/activation/root_cause, or no
            ``claude_md_ref``/``source_line``.
    """
    where = str(path)
    lines = text.split("\n")
    fields, field_lines, extra, end = _front_matter(lines, where)
    _check_fields(fields, field_lines, where, end)
    sections = _sections_of(lines[end + 1 :])
    return Fragment(
        source_event_id=fields["source_event_id"],
        source_ts=fields.get("source_ts", ""),
        source_kind=fields.get("source_kind", ""),
        session_key=fields.get("session_key", ""),
        event_type=fields.get("event_type", ""),
        signal=fields.get("signal", ""),
        claude_md_ref=fields.get("claude_md_ref", "") or "none",
        source_line=_source_line(fields, field_lines, where),
        source_line_hash=fields.get("source_line_hash") or None,
        trajectory=fields["trajectory"],
        activation=fields.get("activation", ""),
        root_cause=fields.get("root_cause") or None,
        weakening_kind=fields.get("weakening_kind") or None,
        evidence=tuple(sections["evidence"]),
        notes=tuple(sections["notes"]),
        pointers=tuple(sections["pointers"]),
        extra=tuple(extra),
        judge=fields.get("judge") or None,
    )


def read_fragment(path: Path) -> Fragment:
    """Read and parse one fragment file.

    Raises:
        InputError: not UTF-8, or :func:`parse_fragment` rejects it.
    """
    text = read_utf8(path)
    if text is None:
        raise FileNotFoundError(path)
    return parse_fragment(text, path)


def _component(value: str, limit: int = 64) -> str:
    """A file-name-safe piece of ``value``; a hash suffix keeps distinct inputs distinct."""
    clean = re.sub(r"[^A-Za-z0-9_-]+", "-", value).strip("-") or "x"
    if clean != value or len(clean) > limit:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        clean = f"{clean[:limit]}-{digest}"
    return clean


def fragment_filename(frag: Fragment) -> str:
    """``<filename-ts>_<event id>_<signal>_<marker|none>_<trajectory>.md`` (docs/formats.md §10.2).

    Every component is sanitised so the name is a plain file name that stays inside
    its date directory whatever the event id contains ('/', '..', NUL, newlines).
    """
    ref = frag.marker or (
        f"L{frag.source_line}-{frag.source_line_hash}"
        if frag.source_line is not None and frag.claude_md_ref != "none"
        else "none"
    )
    parts = (
        _component(filename_ts(frag.source_ts), 40),
        _component(frag.source_event_id),
        _component(frag.signal, 32),
        _component(ref),
        _component(frag.trajectory, 16),
    )
    return "_".join(parts) + ".md"


# A turn's fragments share its timestamp; parsing it once per turn is enough.
@functools.lru_cache(maxsize=1024)
def fragment_date(ts: str, fallback: str) -> str:
    """The UTC date (YYYY-MM-DD) of ``ts``; ``fallback`` when ``ts`` is not ISO."""
    try:
        return parse_iso(ts).strftime("%Y-%m-%d")
    except (ValueError, TypeError):
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}.*", ts or ""):
            return ts[:10]
        return fallback
