"""Synthetic conversations and runtime noise for the demo spine (docs/formats.md §4.6, §4.7).

:class:`SpineGenerator` turns the scripts of :mod:`shared.setup.demo.scripts` into events in
the runtime's envelope order: human ``channel.message`` on stdio and Feishu, agent
replies and dossier reads, corrections in a later turn, standing instructions, job
lifecycle, cadence/meta/route/gateway noise. Only :mod:`shared.setup.demo.spine` uses it.

The single events come from :mod:`~shared.setup.demo.events`, the conversation turns
from :mod:`~shared.setup.demo.turns`, the noise from :mod:`~shared.setup.demo.noise`;
this module lays them out over the day and adds the torn writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from shared.jsontext import compact
from shared.setup.demo.events import Day
from shared.setup.demo.noise import BackgroundNoise
from shared.setup.demo.scripts import LINE_SCRIPTS
from shared.setup.demo.turns import PINNED, SCENARIOS, ConversationTurns


class SpineGenerator(ConversationTurns, BackgroundNoise):
    """Builds the demo days; every random choice comes from ``random.Random(seed)``."""

    def activity_hours(self, count: int) -> list[int]:
        # Non-adjacent hours, so the day's external events form several hour bands.
        picks = sorted(self.rng.sample(range(24 - (count - 1)), count))
        return [p + i for i, p in enumerate(picks)]

    def day(self, date: str, index: int, scenarios: Sequence[tuple[str, str]]) -> Day:
        day = Day(date)
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
