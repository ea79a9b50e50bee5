"""The demo's conversation turns: a board line followed or missed (and corrected in a
later turn), a line changed or retired, a standing instruction, small talk; and
which scenario instances fall on which day."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from shared.setup.demo.events import Day, EventMaker
from shared.setup.demo.scripts import INSTRUCTIONS, SMALL_TALK, LineScript

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


class ConversationTurns(EventMaker):
    """The turns a scenario instance makes."""

    def line_turn(self, day: Day, script: LineScript, follow: bool, at: datetime) -> None:
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
        day: Day,
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

    def instruct(self, day: Day, key: str, at: datetime) -> None:
        item = INSTRUCTIONS[key]
        cause = self.user(day, item.channel, self.rng.choice(item.texts), at)
        self.reply(day, item.channel, self.rng.choice(item.acks), at + self.gap(2, 12), cause)

    def small_talk(self, day: Day, index: int, at: datetime) -> None:
        ch, said, answer = SMALL_TALK[index]
        cause = self.user(day, ch, said, at)
        self.reply(day, ch, answer, at + self.gap(1, 6), cause)
