"""The demo spine's event builder: ids from one seeded random stream, the three
chat sessions (stdio and two Feishu chats), and the envelopes of attaches, user
messages, agent replies and dossier reads.

Every random draw comes from ``self.rng`` in call order, so the generated days are
byte-identical for a seed: a new draw anywhere shifts every event after it.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from shared.setup.demo.scripts import Channel
from shared.timestamps import iso


@dataclass(frozen=True)
class Session:
    """One chat the demo user talks in, as its events name it."""

    key: str
    source: dict[str, str]
    attach_kind: str
    channel_id: str
    ingress: bool  # feishu messages carry an idempotency key (dedup.source_id)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Day:
    """Collects one day's events; sorted by ts when finished."""

    date: str
    items: list[tuple[datetime, int, dict[str, Any]]] = field(default_factory=list)

    def add(self, at: datetime, event: dict[str, Any]) -> None:
        self.items.append((at, len(self.items), event))


class EventMaker:
    """Builds single events and event pairs into a :class:`Day`."""

    def __init__(self, seed: int, kernel_root: str, runtime_root: str) -> None:
        self.rng = random.Random(seed)
        self.kernel_root = kernel_root.rstrip("/")
        self.runtime_root = runtime_root.rstrip("/")
        self.sessions = self._sessions()
        self.sdk_sessions: dict[tuple[str, str], str] = {}
        self.attached: set[tuple[str, str]] = set()

    def uuid4(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hexid(self, n: int) -> str:
        return f"{self.rng.getrandbits(4 * n):0{n}x}"

    def token(self, n: int) -> str:
        alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def _sessions(self) -> dict[Channel, Session]:
        h12 = sha("/home/demo/work")[:12]
        stdio = Session(
            key=f"stdio:default:{h12}",
            source={"kind": "stdio", "name": "stdio-default", "channel_id": "stdio-default"},
            attach_kind="stdio",
            channel_id="stdio-default",
            ingress=False,
        )
        out: dict[Channel, Session] = {"stdio": stdio}
        names: tuple[Channel, ...] = ("alice", "team")
        for name in names:
            chat = f"oc_{self.hexid(32)}"
            channel_id = f"feishu-{chat}"
            out[name] = Session(
                key=f"lark:{chat}:{sha(name + chat)[:12]}",
                source={"kind": "feishu", "name": channel_id, "channel_id": channel_id},
                attach_kind="lark",
                channel_id=channel_id,
                ingress=True,
            )
        return out

    def envelope(self, fields: dict[str, Any], at: datetime) -> dict[str, Any]:
        return {**fields, "id": f"evt_{self.uuid4()}", "ts": iso(at)}

    def attach(self, day: Day, session: Session, at: datetime) -> None:
        if (day.date, session.key) in self.attached:
            return
        self.attached.add((day.date, session.key))
        fields = {
            "type": "channel.attached",
            "source": {"kind": session.attach_kind, "name": "session-manager"},
            "session_key": session.key,
            "payload": {
                "session_key": session.key,
                "channel_kind": session.attach_kind,
                "channel_id": session.channel_id,
                "attached_at": iso(at),
            },
        }
        day.add(at, self.envelope(fields, at))

    def user(self, day: Day, channel: Channel, text: str, at: datetime) -> str:
        session = self.sessions[channel]
        self.attach(day, session, at - timedelta(milliseconds=self.rng.randint(5, 400)))
        event_id = f"evt_{self.uuid4()}"
        raw_path = f"{self.runtime_root}/var/ingress/{sha(session.key)}/{event_id}.json"
        fields: dict[str, Any] = {
            "type": "channel.message",
            "source": dict(session.source),
            "session_key": session.key,
            "payload": {"text": text, "raw_path": raw_path},
        }
        if session.ingress:
            fields["dedup"] = {"source_id": f"om_{self.hexid(32)}"}
        fields["routing_hint"] = {"target": "session"}
        day.add(at, {**fields, "id": event_id, "ts": iso(at)})
        return event_id

    def sdk_session(self, day: Day, channel: Channel) -> str:
        key = (day.date, channel)
        if key not in self.sdk_sessions:
            self.sdk_sessions[key] = self.uuid4()
        return self.sdk_sessions[key]

    def reply(self, day: Day, channel: Channel, text: str, at: datetime, cause: str) -> None:
        session = self.sessions[channel]
        fields = {
            "type": "agent.result",
            "source": {"kind": "runner", "name": "runner"},
            "session_key": session.key,
            "payload": {
                "outbox_id": self.uuid4(),
                "text": text,
                "session_id": self.sdk_session(day, channel),
                "fanout_index": 0,
                "fanout_total": 1,
                "batched_event_ids": [cause],
            },
        }
        day.add(at, self.envelope(fields, at))

    def read_dossier(self, day: Day, channel: Channel, slug: str, at: datetime) -> None:
        session = self.sessions[channel]
        tool_id = f"toolu_{self.token(24)}"
        source = {"kind": "runner", "name": "runner"}
        use = {
            "type": "agent.tool_use",
            "source": source,
            "session_key": session.key,
            "payload": {
                "tool_use_id": tool_id,
                "tool_name": "Read",
                "input_summary": f"file_path={self.kernel_root}/memory/topics/{slug}.md",
            },
        }
        day.add(at, self.envelope(use, at))
        done = at + timedelta(milliseconds=self.rng.randint(20, 300))
        result = {
            "type": "agent.tool_result",
            "source": dict(source),
            "session_key": session.key,
            "payload": {
                "tool_use_id": tool_id,
                "tool_name": "Read",
                "is_error": False,
                "summary": f"read memory/topics/{slug}.md ({self.rng.randint(12, 24)} lines)",
            },
        }
        day.add(done, self.envelope(result, done))

    def gap(self, low: int, high: int) -> timedelta:
        return timedelta(seconds=self.rng.randint(low, high), milliseconds=self.rng.randint(0, 999))
