"""A small Claude Code project directory in the real transcript format, for the demo.

``~/.claude/projects/<project dir>/<session uuid>.jsonl``: one JSON record per line, each
shaped as Claude Code 2.x writes it (``parentUuid``, ``isSidechain``, ``userType``,
``cwd``, ``sessionId``, ``version``, ``gitBranch``, ``type``, ``message``, ``uuid``,
``timestamp``, in that order; assistant records carry the API message with its ``id``,
``content`` blocks and ``usage``, and a ``requestId``). The sessions are made so one weave
shows the whole path: the user gives the same standing instruction in English in one
session and in Chinese in another (a board line is added), the agent is corrected for
skipping a line's step (the line is weakened), and the tool injects what is never the
user's word (a slash command's wrapper, a system reminder, the agent's own replies).

Ids are derived from the session's seed text, so the directory is byte-identical on
every run and a second import writes nothing.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from shared.timestamps import iso, parse_iso

VERSION = "2.1.20"
MODEL = "claude-sonnet-4-5-20250929"
PROJECT_DIR = "-home-demo-shop"
CWD = "/home/demo/shop"


def _uuid(*parts: str) -> str:
    digest = hashlib.sha256("\0".join(parts).encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


@dataclass
class SessionWriter:
    """Builds one session's records in order (each record's parent is the previous one)."""

    session_id: str
    start: datetime
    cwd: str = CWD
    branch: str = "main"
    records: list[dict[str, Any]] = field(default_factory=list)
    _parent: str | None = None
    _clock: datetime | None = None

    def _base(self, kind: str, seed: str) -> dict[str, Any]:
        self._clock = (self._clock or self.start) + timedelta(seconds=7)
        record_id = _uuid(self.session_id, seed, str(len(self.records)))
        base = {
            "parentUuid": self._parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": VERSION,
            "gitBranch": self.branch,
            "type": kind,
        }
        self._parent = record_id
        return {**base, "uuid": record_id, "timestamp": iso(self._clock)}

    def _finish(self, record: dict[str, Any]) -> dict[str, Any]:
        # uuid and timestamp close the record, as Claude Code writes them.
        uid, ts = record.pop("uuid"), record.pop("timestamp")
        record["uuid"], record["timestamp"] = uid, ts
        self.records.append(record)
        return record

    def user(self, content: str | list[dict[str, Any]], *, meta: bool = False) -> str:
        record = self._base("user", str(content)[:40])
        record["message"] = {"role": "user", "content": content}
        if meta:
            record["isMeta"] = True
        return str(self._finish(record)["uuid"])

    def assistant(self, blocks: list[dict[str, Any]]) -> str:
        record = self._base("assistant", orjson.dumps(blocks).decode()[:40])
        message_id = "msg_" + _uuid(self.session_id, "msg", str(len(self.records)))[:24]
        record["message"] = {
            "model": MODEL,
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "content": blocks,
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 12, "output_tokens": 48, "service_tier": "standard"},
        }
        record["requestId"] = "req_" + message_id[4:]
        return str(self._finish(record)["uuid"])

    def say(self, text: str) -> str:
        return self.assistant([{"type": "text", "text": text}])

    def tool(
        self, name: str, tool_input: dict[str, Any], output: str, *, error: bool = False
    ) -> str:
        tool_id = "toolu_" + _uuid(self.session_id, name, str(len(self.records)))[:24]
        self.assistant([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}])
        result: dict[str, Any] = {"tool_use_id": tool_id, "type": "tool_result", "content": output}
        if error:
            result["is_error"] = True
        return self.user([result])

    def jsonl(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)


def demo_sessions(day: str = "2026-01-06") -> list[SessionWriter]:
    """Three sessions of one UTC day in a shop's repository (see the module docstring)."""
    start = parse_iso(f"{day}T09:00:00.000Z")
    one = SessionWriter(_uuid("demo", "one"), start)
    one.user(
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
        "<command-args></command-args>"
    )
    one.user(
        "Fix the failing checkout test. From now on, always run `ruff check` before you "
        "commit, and remember this for every session."
    )
    one.tool("Bash", {"command": "pytest tests/test_checkout.py -q"}, "1 failed, 11 passed")
    one.tool("Read", {"file_path": f"{CWD}/shop/checkout.py"}, "def total(cart): ...")
    one.say("The discount was applied twice; fixed in `shop/checkout.py`. Tests pass.")

    two = SessionWriter(_uuid("demo", "two"), start + timedelta(hours=2))
    two.user(
        "<system-reminder>The user's project memory was loaded.</system-reminder>"
        "Please review the pull request for the payment refactor."
    )
    two.say("The refactor looks good to me; the new names are clearer.")
    two.user(
        "You skipped the tests again: run the test suite first and quote the failing test name."
    )
    two.tool("Bash", {"command": "pytest -q"}, "FAILED tests/test_pay.py::test_refund_rounding")
    two.say("`tests/test_pay.py::test_refund_rounding` fails: refunds round half-up.")

    three = SessionWriter(_uuid("demo", "three"), start + timedelta(hours=5))
    three.user("提交之前一定要先运行 `ruff check`，记住这一条，以后都这样做。")
    three.tool("Bash", {"command": "ruff check ."}, "All checks passed!")
    three.say("已运行 `ruff check`，没有问题，然后提交。")
    return [one, two, three]


def write_demo_project(root: Path, day: str = "2026-01-06") -> Path:
    """Write the demo sessions under ``root/<project dir>/`` and return that directory."""
    project = root / PROJECT_DIR
    project.mkdir(parents=True, exist_ok=True)
    for session in demo_sessions(day):
        path = project / f"{session.session_id}.jsonl"
        data = session.jsonl()
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    return project
