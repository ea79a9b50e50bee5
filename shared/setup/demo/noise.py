"""The demo day's runtime noise: cadence ticks and subconscious meta results, the
daily digest job's lifecycle and route delivery, and a ``/status`` command."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from shared.setup.demo.events import Day, EventMaker, sha
from shared.setup.demo.scripts import LINE_SCRIPTS, META_RESULTS, ROUTE_SUMMARIES
from shared.timestamps import iso

CADENCE_INTERVAL: Final = timedelta(milliseconds=2_220_000)
DIGEST_JOB: Final = "daily-digest"
DIGEST_CRON: Final = "0 9 * * *"


class BackgroundNoise(EventMaker):
    """The events around the conversations that the scan must skip."""

    def cadence(self, day: Day, start: datetime) -> None:
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

    def meta_result(self, day: Day, at: datetime) -> None:
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

    def digest_job(self, day: Day, start: datetime, run_number: int) -> None:
        owner = self.sessions["alice"].key
        job_key = f"job:{DIGEST_JOB}.{sha(f'job|{DIGEST_JOB}|{owner}|{DIGEST_CRON}|')[:7]}"
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

    def status_command(self, day: Day, at: datetime) -> None:
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
                "raw_path": f"{self.runtime_root}/var/ingress/{sha(session.key)}/{event_id}.json",
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
