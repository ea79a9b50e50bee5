"""Utterances as spine events: the original runtime's shapes, stable ids, nothing secret.

What a person typed or did becomes an external ``channel.message`` whose source kind is
the format's name (``claude-code``, ``codex``, ``specstory``, ``aider``), so the gap check
and the scanner treat it as the user's word (docs/formats.md §4.5). The agent's replies
and tool calls become the runner's ``agent.result`` / ``agent.tool_use`` /
``agent.tool_result`` rows (kind ``runner``, internal), the rows the scanner already reads
as a turn's evidence. Every event carries ``session_key`` ``<format>:<session id>``.

An event's id is ``evt_`` and a UUID made from a hash of the format, the session id and
the record id, shaped as the original's v4 UUIDs (version and variant bits set), so the
same record always gets the same id and a re-import can tell what it already wrote.

Every text passes :func:`~shared.importing.redaction.redact` before it is capped, so a
credential is never written and never cut into a piece the detector no longer sees. A
long text keeps its start and says how much was cut; a base64 blob or a data URI becomes
a placeholder.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from shared.importing.records import Role, Utterance
from shared.importing.redaction import redact
from shared.importing.templates import typed_input

# Characters kept per text (the scanner reads at most 4,000 of a user turn and 600 of a
# row; the spine keeps more so a later, wider judge still has it).
CAPS: dict[Role, int] = {
    Role.USER: 16_000,
    Role.USER_ACTION: 4_000,
    Role.AGENT: 8_000,
    Role.TOOL_USE: 1_000,
    Role.TOOL_RESULT: 2_000,
}
# Redaction looks a little past the cap, so a credential straddling it is still whole.
_REDACT_MARGIN = 512
_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+;base64,[A-Za-z0-9+/=\s]{16,}")
# Only from a run's first character: tried inside a run shorter than 400, the repeat
# would rescan the rest of the run at every position (quadratic in the run's length).
_BASE64_BLOB = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{400,}={0,2}")
# The blob search only where a run of 400 base64 characters exists: found by one C-level
# pass (each byte mapped to "a" when base64, else to " "), some 10x the regex's speed.
_BASE64_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_BLOB_TABLE = bytes(0x61 if i in _BASE64_BYTES else 0x20 for i in range(256))
_BLOB_RUN = b"a" * 400
RUNNER = {"kind": "runner", "name": "runner"}


def event_id(fmt: str, session_id: str, record_id: str) -> str:
    """``evt_`` + a v4-shaped UUID derived from the record's identity."""
    digest = hashlib.sha256(f"{fmt}\0{session_id}\0{record_id}".encode()).digest()
    return f"evt_{uuid.UUID(bytes=digest[:16], version=4)}"


def session_key(fmt: str, session_id: str) -> str:
    return f"{fmt}:{session_id}"


@dataclass
class Cleaner:
    """Redacts and caps texts, counting what it took out (kinds, never values)."""

    redacted: Counter[str] = field(default_factory=Counter)
    cut_chars: int = 0
    blobs: int = 0

    def clean(self, text: str, cap: int) -> str:
        text = self._drop_blobs(text)
        head = text[: cap + _REDACT_MARGIN]
        result = redact(head)
        self.redacted.update(result.kinds)
        kept = result.text
        rest = len(text) - len(head)
        if len(kept) > cap or rest > 0:
            extra = max(len(kept) - cap, 0) + rest
            self.cut_chars += extra
            kept = f"{kept[:cap]}[… {extra} more characters cut]"
        return kept

    def _drop_blobs(self, text: str) -> str:
        # A blob is at least 400 characters, so a shorter text has none unless it is a URI.
        if len(text) < 400 and "base64," not in text:
            return text
        text, uris = _DATA_URI.subn("[image]", text)
        blobs = 0
        if _has_blob_run(text):
            text, blobs = _BASE64_BLOB.subn(lambda m: f"[base64 dropped: {len(m[0])} chars]", text)
        self.blobs += uris + blobs
        return text


def _has_blob_run(text: str) -> bool:
    return _BLOB_RUN in text.encode("utf-8", "surrogatepass").translate(_BLOB_TABLE)


def to_event(fmt: str, utt: Utterance, ts: str, cleaner: Cleaner) -> dict[str, Any]:
    """The spine event (without ``id``/``ts`` order concerns: keys in the original's order)."""
    key = session_key(fmt, utt.session_id)
    origin = {"format": fmt, "record": utt.record_id, "line": utt.line}
    said = utt.text
    if utt.role is Role.USER:
        # an expanded command template: only the typed input is the person's
        said = typed if (typed := typed_input(said)) is not None else said
    text = cleaner.clean(said, CAPS[utt.role])
    fields: dict[str, Any]
    if utt.role in (Role.USER, Role.USER_ACTION):
        payload: dict[str, Any] = {"text": text}
        if utt.role is Role.USER_ACTION:
            payload["action"] = True
        payload["origin"] = origin
        fields = {
            "type": "channel.message",
            "source": {"kind": fmt, "name": fmt, "channel_id": fmt},
            "session_key": key,
            "payload": payload,
            "dedup": {"source_id": f"{utt.session_id}:{utt.record_id}"},
            "routing_hint": {"target": "session"},
        }
    elif utt.role is Role.AGENT:
        fields = {
            "type": "agent.result",
            "source": dict(RUNNER),
            "session_key": key,
            "payload": {"text": text, "session_id": utt.session_id, "origin": origin},
        }
    elif utt.role is Role.TOOL_USE:
        fields = {
            "type": "agent.tool_use",
            "source": dict(RUNNER),
            "session_key": key,
            "payload": {
                "tool_use_id": utt.tool_use_id or "",
                "tool_name": utt.tool_name or "",
                "input_summary": text,
                "origin": origin,
            },
        }
    else:
        fields = {
            "type": "agent.tool_result",
            "source": dict(RUNNER),
            "session_key": key,
            "payload": {
                "tool_use_id": utt.tool_use_id or "",
                "tool_name": utt.tool_name or "",
                "is_error": utt.is_error,
                "summary": text,
                "origin": origin,
            },
        }
    fields["id"] = event_id(fmt, utt.session_id, utt.record_id)
    fields["ts"] = ts
    return fields
