"""Synthetic conversations and runtime noise for the demo spine (docs/formats.md §4.6, §4.7).

:class:`SpineGenerator` turns the scripts of :mod:`shared.setup.demo.scripts` into events in
the runtime's envelope order: human ``channel.message`` on stdio and Feishu, agent
replies and dossier reads, corrections in a later turn, standing instructions, job
lifecycle, cadence/meta/route/gateway noise. Only :mod:`shared.setup.demo.spine` uses it.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from shared.jsontext import compact
from shared.setup.demo.scripts import (
    INSTRUCTIONS,
    LINE_SCRIPTS,
    META_RESULTS,
    ROUTE_SUMMARIES,
    SMALL_TALK,
    Channel,
    LineScript,
)
from shared.timestamps import iso

CADENCE_INTERVAL: Final = timedelta(milliseconds=2_220_000)
DIGEST_JOB: Final = "daily-digest"
DIGEST_CRON: Final = "0 9 * * *"

# (kind, key) scenario instances spread over the demo days. Lines with several
# "miss" instances collect weakening evidence; repeated instructions recur on
# different days so they count as recurring new signals.
SCENARIOS: Final = (
    ("follow", "lesson-reply-first"),
    ("follow", "lesson-reply-first"),
    ("miss", "lesson-reply-first"),
    ("follow", "groove-feishu-status-update"),
    ("follow", "groove-feishu-status-update"),
    ("follow", "groove-feishu-status-update"),
    ("follow", "lesson-chinese-reply-language"),
    ("miss", "lesson-chinese-reply-language"),
    ("miss", "lesson-chinese-reply-language"),
    ("follow", "groove-pr-review"),
    ("follow", "groove-pr-review"),
    ("miss", "lesson-confirm-destructive"),
    ("miss", "lesson-confirm-destructive"),
    ("follow", "groove-deploy-check"),
    ("miss", "groove-deploy-check"),
    ("miss", "lesson-timezone-restate"),
    ("miss", "lesson-timezone-restate"),
    ("instruct", "amounts-two-currencies"),
    ("instruct", "amounts-two-currencies"),
    ("instruct", "commit-imperative"),
    ("instruct", "minutes-to-channel"),
    ("smalltalk", "0"),
    ("smalltalk", "1"),
    ("smalltalk", "2"),
    ("smalltalk", "3"),
    ("smalltalk", "4"),
    ("smalltalk", "5"),
)

# (day index, kind, key): the scenarios that make each board-edit class, on fixed days
# and first in their day, so the first passes (the newest day is woven first) already
# edit the board: 2026-01-05 the user retires the weekly report (removed); 2026-01-04
# the user gives the Grafana instruction in English on stdio and in Chinese in the team
# chat, two sessions (added); 2026-01-03 the user changes how Alice's design docs are
# read (rewritten). The recall misses of SCENARIOS (kept) fall on every day.
PINNED: Final = (
    (2, "retire", "groove-weekly-report"),
    (1, "instruct", "incident-grafana"),
    (1, "instruct", "incident-grafana-zh"),
    (0, "change", "lesson-design-doc-decisions"),
)


@dataclass(frozen=True)
class _Session:
    key: str
    source: dict[str, str]
    attach_kind: str
    channel_id: str
    ingress: bool  # feishu messages carry an idempotency key (dedup.source_id)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class _Day:
    """Collects one day's events; sorted by ts when finished."""

    date: str
    items: list[tuple[datetime, int, dict[str, Any]]] = field(default_factory=list)

    def add(self, at: datetime, event: dict[str, Any]) -> None:
        self.items.append((at, len(self.items), event))


class SpineGenerator:
    """Builds the demo days; every random choice comes from ``random.Random(seed)``."""

    def __init__(self, seed: int, kernel_root: str, runtime_root: str) -> None:
        self.rng = random.Random(seed)
        self.kernel_root = kernel_root.rstrip("/")
        self.runtime_root = runtime_root.rstrip("/")
        self.sessions = self._sessions()
        self.sdk_sessions: dict[tuple[str, str], str] = {}
        self.attached: set[tuple[str, str]] = set()

    # ids -------------------------------------------------------------------------
    def uuid4(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hexid(self, n: int) -> str:
        return f"{self.rng.getrandbits(4 * n):0{n}x}"

    def token(self, n: int) -> str:
        alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def _sessions(self) -> dict[Channel, _Session]:
        h12 = _sha("/home/demo/work")[:12]
        stdio = _Session(
            key=f"stdio:default:{h12}",
            source={"kind": "stdio", "name": "stdio-default", "channel_id": "stdio-default"},
            attach_kind="stdio",
            channel_id="stdio-default",
            ingress=False,
        )
        out: dict[Channel, _Session] = {"stdio": stdio}
        names: tuple[Channel, ...] = ("alice", "team")
        for name in names:
            chat = f"oc_{self.hexid(32)}"
            channel_id = f"feishu-{chat}"
            out[name] = _Session(
                key=f"lark:{chat}:{_sha(name + chat)[:12]}",
                source={"kind": "feishu", "name": channel_id, "channel_id": channel_id},
                attach_kind="lark",
                channel_id=channel_id,
                ingress=True,
            )
        return out

    # event builders ----------------------------------------------------------------
    def envelope(self, fields: dict[str, Any], at: datetime) -> dict[str, Any]:
        return {**fields, "id": f"evt_{self.uuid4()}", "ts": iso(at)}

    def attach(self, day: _Day, session: _Session, at: datetime) -> None:
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

    def user(self, day: _Day, channel: Channel, text: str, at: datetime) -> str:
        session = self.sessions[channel]
        self.attach(day, session, at - timedelta(milliseconds=self.rng.randint(5, 400)))
        event_id = f"evt_{self.uuid4()}"
        raw_path = f"{self.runtime_root}/var/ingress/{_sha(session.key)}/{event_id}.json"
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

    def sdk_session(self, day: _Day, channel: Channel) -> str:
        key = (day.date, channel)
        if key not in self.sdk_sessions:
            self.sdk_sessions[key] = self.uuid4()
        return self.sdk_sessions[key]

    def reply(self, day: _Day, channel: Channel, text: str, at: datetime, cause: str) -> None:
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

    def read_dossier(self, day: _Day, channel: Channel, slug: str, at: datetime) -> None:
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

    # scenarios -----------------------------------------------------------------------
    def gap(self, low: int, high: int) -> timedelta:
        return timedelta(seconds=self.rng.randint(low, high), milliseconds=self.rng.randint(0, 999))

    def line_turn(self, day: _Day, script: LineScript, follow: bool, at: datetime) -> None:
        ch = script.channel
        cause = self.user(day, ch, self.rng.choice(script.triggers), at)
        at += self.gap(2, 20)
        if follow:
            if self.rng.random() < 0.75:
                self.read_dossier(day, ch, script.slug, at)
                at += self.gap(2, 10)
            self.reply(day, ch, self.rng.choice(script.good), at, cause)
            if self.rng.random() < 0.5:
                at += self.gap(30, 240)
                thanks = "thanks!" if ch == "stdio" else "好的，谢谢"
                self.user(day, ch, thanks, at)
            return
        # A miss: the agent sometimes read the dossier and still got it wrong.
        if self.rng.random() < 0.4:
            self.read_dossier(day, ch, script.slug, at)
            at += self.gap(2, 10)
        self.reply(day, ch, self.rng.choice(script.bad), at, cause)
        at += self.gap(120, 540)  # the correction comes in a later turn
        fix = self.user(day, ch, self.rng.choice(script.corrections), at)
        at += self.gap(2, 15)
        self.read_dossier(day, ch, script.slug, at)
        at += self.gap(2, 10)
        self.reply(day, ch, self.rng.choice(script.repaired), at, fix)

    def later_turn(
        self,
        day: _Day,
        script: LineScript,
        said: Sequence[str],
        answers: Sequence[str],
        at: datetime,
    ) -> None:
        """The agent follows the line, then in a later turn the user changes or retires it."""
        self.line_turn(day, script, True, at)
        at += self.gap(600, 900)  # after the follow turn and its thanks
        cause = self.user(day, script.channel, self.rng.choice(said), at)
        self.reply(day, script.channel, self.rng.choice(answers), at + self.gap(2, 12), cause)

    def instruct(self, day: _Day, key: str, at: datetime) -> None:
        item = INSTRUCTIONS[key]
        cause = self.user(day, item.channel, self.rng.choice(item.texts), at)
        self.reply(day, item.channel, self.rng.choice(item.acks), at + self.gap(2, 12), cause)

    def small_talk(self, day: _Day, index: int, at: datetime) -> None:
        ch, said, answer = SMALL_TALK[index]
        cause = self.user(day, ch, said, at)
        self.reply(day, ch, answer, at + self.gap(1, 6), cause)

    # background noise ------------------------------------------------------------------
    def cadence(self, day: _Day, start: datetime) -> None:
        at = start + timedelta(seconds=self.rng.randint(0, 2000))
        end = start + timedelta(days=1)
        while at < end:
            tick = {
                "type": "system.cadence_tick",
                "source": {"kind": "system", "name": "cadence"},
                "payload": {"count": self.rng.randint(0, 2)},
            }
            day.add(at, self.envelope(tick, at))
            # A meta result follows its tick by up to ~16 min: none may spill into
            # the next day's file.
            if self.rng.random() < 0.3 and at + timedelta(minutes=17) < end:
                self.meta_result(day, at + self.gap(60, 900))
            at += CADENCE_INTERVAL + timedelta(milliseconds=self.rng.randint(0, 40))

    def meta_result(self, day: _Day, at: datetime) -> None:
        partition = self.rng.choice(("memory-weaver", "memory-committer"))
        source = {"kind": "meta", "name": f"subconscious:{partition}"}
        if self.rng.random() < 0.4:
            slug = self.rng.choice(sorted(LINE_SCRIPTS))
            tool = {
                "type": "agent.tool_use",
                "source": dict(source),
                "session_key": "meta:subconscious",
                "payload": {
                    "partition": partition,
                    "tool_use_id": f"toolu_{self.token(24)}",
                    "tool_name": "Read",
                    "input_summary": f"file_path={self.kernel_root}/memory/topics/{slug}.md",
                },
            }
            day.add(at, self.envelope(tool, at))
            at += self.gap(5, 60)
        result = {
            "type": "agent.result",
            "source": source,
            "session_key": "meta:subconscious",
            "payload": {
                "text": self.rng.choice(META_RESULTS),
                "tick_type": "subconscious",
                "partition": partition,
                "runtime": "claude",
                "runtime_source": "default",
            },
        }
        day.add(at, self.envelope(result, at))

    def digest_job(self, day: _Day, start: datetime, run_number: int) -> None:
        owner = self.sessions["alice"].key
        job_key = f"job:{DIGEST_JOB}.{_sha(f'job|{DIGEST_JOB}|{owner}|{DIGEST_CRON}|')[:7]}"
        at = start + timedelta(hours=9, seconds=self.rng.randint(5, 50))
        previous = iso(at - timedelta(days=1)) if run_number > 1 else None
        spawn = {
            "type": "job.spawn",
            "source": {"kind": "cadence", "name": "job-scanner"},
            "session_key": job_key,
            "payload": {
                "job_id": DIGEST_JOB,
                "cron": DIGEST_CRON,
                "tick": {
                    "run_number": run_number,
                    "triggered_at": iso(at),
                    "previous_run_at": previous,
                },
            },
        }
        day.add(at, self.envelope(spawn, at))
        at += self.gap(1, 3)
        job_source = {"kind": "job", "name": DIGEST_JOB}
        started = {
            "type": "job.spawn",
            "source": dict(job_source),
            "session_key": job_key,
            "payload": {"job_id": DIGEST_JOB},
        }
        day.add(at, self.envelope(started, at))
        at += self.gap(40, 300)
        summary = self.rng.choice(ROUTE_SUMMARIES)
        complete = {
            "type": "job.complete",
            "source": dict(job_source),
            "session_key": job_key,
            "payload": {"job_id": DIGEST_JOB, "result_summary": summary},
        }
        day.add(at, self.envelope(complete, at))
        at += self.gap(1, 5)
        deliver = {
            "type": "route.deliver",
            "source": {"kind": "route", "name": "job-result"},
            "session_key": owner,
            "payload": {
                "route_id": f"route_{self.hexid(12)}",
                "source_session_key": job_key,
                "source_event_type": "job.complete",
                "channel_descriptor_id": self.sessions["alice"].channel_id,
                "payload": {"text": summary},
            },
        }
        day.add(at, self.envelope(deliver, at))

    def status_command(self, day: _Day, at: datetime) -> None:
        session = self.sessions["stdio"]
        self.attach(day, session, at - timedelta(milliseconds=50))
        event_id = f"evt_{self.uuid4()}"
        command = {
            "type": "channel.command",
            "source": dict(session.source),
            "session_key": session.key,
            "payload": {
                "command": "status",
                "text": "/status",
                "raw_path": f"{self.runtime_root}/var/ingress/{_sha(session.key)}/{event_id}.json",
            },
            "routing_hint": {"target": "gateway"},
            "id": event_id,
            "ts": iso(at),
        }
        day.add(at, command)
        at += self.gap(0, 2)
        answer = {
            "type": "agent.result",
            "source": {"kind": "gateway", "name": "gateway"},
            "session_key": session.key,
            "payload": {
                "outbox_id": self.uuid4(),
                "text": "daemon ok · 3 sessions · cadence every 37m · queue clear",
                "command": "/status",
                "command_name": "status",
            },
        }
        day.add(at, self.envelope(answer, at))

    # the day ---------------------------------------------------------------------------
    def activity_hours(self, count: int) -> list[int]:
        # Non-adjacent hours, so the day's external events form several hour bands.
        picks = sorted(self.rng.sample(range(24 - (count - 1)), count))
        return [p + i for i, p in enumerate(picks)]

    def day(self, date: str, index: int, scenarios: Sequence[tuple[str, str]]) -> _Day:
        day = _Day(date)
        start = datetime.fromisoformat(date).replace(tzinfo=UTC)
        self.cadence(day, start)
        self.digest_job(day, start, run_number=index + 1)
        hours = self.activity_hours(min(len(scenarios), self.rng.randint(5, 7)))
        order = list(scenarios)
        self.rng.shuffle(order)
        # The day's pinned scenarios open it: the earliest turns (also the ones the
        # test helpers reuse for their banded days) show the board edits.
        order = [(k, key) for i, k, key in PINNED if i == index] + order
        minutes = {h: sorted(self.rng.sample(range(0, 56, 4), 4)) for h in hours}
        for n, (kind, key) in enumerate(order):
            hour = hours[n % len(hours)]
            minute = minutes[hour][(n // len(hours)) % 4]
            at = start + timedelta(hours=hour, minutes=minute) + self.gap(0, 59)
            if kind == "smalltalk":
                self.small_talk(day, int(key), at)
            elif kind == "instruct":
                self.instruct(day, key, at)
            elif kind in ("change", "retire"):
                # Two turns a quarter of an hour apart: both stay inside the day.
                at = min(at, start + timedelta(hours=23, minutes=30))
                script = LINE_SCRIPTS[key]
                said = script.changes if kind == "change" else script.retirements
                answers = script.changed if kind == "change" else script.retired
                self.later_turn(day, script, said, answers, at)
            else:
                self.line_turn(day, LINE_SCRIPTS[key], kind == "follow", at)
        status_hour = self.rng.choice(hours)
        self.status_command(day, start + timedelta(hours=status_hour, minutes=58))
        return day

    def distribute(self, dates: Sequence[str]) -> list[list[tuple[str, str]]]:
        per_day: list[list[tuple[str, str]]] = [[] for _ in dates]
        groups: dict[tuple[str, str], int] = {}
        for kind, key in SCENARIOS:
            first = groups.setdefault((kind, key), self.rng.randrange(len(dates)))
            count = sum(1 for d in per_day for item in d if item == (kind, key))
            per_day[(first + count) % len(dates)].append((kind, key))
        return per_day

    def malformed(self, date: str, line_count: int) -> list[tuple[int, bytes]]:
        """Two torn writes, as a crash would leave them: one cut inside the JSON, one
        cut inside a multibyte character (so the line is neither JSON nor UTF-8).
        (insert position, bytes) pairs, applied in order.

        Only shapes the original's readers survive: a JSON ``null`` line, for one,
        makes duoduo's gap lint throw, so it would post no scan-gap at all.
        """
        event = self.envelope(
            {
                "type": "channel.message",
                "source": dict(self.sessions["stdio"].source),
                "session_key": self.sessions["stdio"].key,
                "payload": {"text": "are you there?"},
            },
            datetime.fromisoformat(date).replace(tzinfo=UTC) + timedelta(hours=23),
        )
        full = compact(event).encode("utf-8")
        cut = self.rng.randint(len(full) // 4, len(full) * 3 // 4)
        # The same draws as before, so the rest of the demo stays as it was.
        pick = self.rng.randrange(4)
        wide = compact({**event, "payload": {"text": "还在吗？请先给结论"}}).encode("utf-8")
        starts = [i for i, byte in enumerate(wide) if byte >= 0xC0]
        torn = (full[:cut], wide[: starts[pick] + 1])  # one byte into a 3-byte character
        out: list[tuple[int, bytes]] = []
        for n, raw in enumerate(torn):
            out.append((self.rng.randint(1, line_count + n), raw))
        return out

    def day_events(
        self, date: str, index: int, scenarios: Sequence[tuple[str, str]]
    ) -> list[dict[str, Any]]:
        """One day's events in append (ts) order."""
        day = self.day(date, index, scenarios)
        return [event for _, _, event in sorted(day.items, key=lambda item: item[:2])]
