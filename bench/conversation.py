"""What the synthetic users say and what the synthetic agent answers, EN and ZH.

:func:`board_bullets` writes a board whose lines are each about one subject;
:class:`Speaker` writes the messages of a day: mostly errands about any subject (a
board subject only some of the time), plus the corrections, standing instructions,
preferences, approvals and thanks a real conversation has, at rates chosen so that
most messages relate to no board line (as in a real agent's day).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.vocabulary import (
    DIRECTIONS_EN,
    DIRECTIONS_ZH,
    FILLER_EN,
    FILLER_ZH,
    QUALIFIERS_EN,
    QUALIFIERS_ZH,
    REPLIES_EN,
    REPLIES_ZH,
    SUBJECTS_EN,
    SUBJECTS_ZH,
    VERBS_EN,
    VERBS_ZH,
)

_EN_SUBJECTS = SUBJECTS_EN
_ZH_SUBJECTS = SUBJECTS_ZH
_TRIGGERS_EN = (
    "When the user asks to {verb} the {subject}",
    "Before sending anything about the {subject}",
    "If the {subject} comes up",
    "When a message mentions the {subject}",
)
_TRIGGERS_ZH = (
    "当用户要{verb}{subject}时",
    "处理{subject}之前",
    "每当提到{subject}时",
    "遇到{subject}的问题时",
)
_NOISE_LINES = (
    "The memory board is concise and durable.",
    "<Person> prefers concise responses.",
    "用户喜欢简洁的回答。",
)
# Share of messages of each kind; the rest are errands.
GREETING, APPROVAL, CORRECTION, INSTRUCTION, PREFERENCE = 0.06, 0.03, 0.05, 0.03, 0.02
ON_BOARD = 0.15  # an errand is about a board line's subject this often


@dataclass(frozen=True)
class BoardTopic:
    """One board line's subject, language, pointer and direction."""

    subject: str
    zh: bool
    pointer: str
    direction: str


def board_topics(n: int, seed: int = 7) -> list[BoardTopic | None]:
    """``n`` board slots: a topic each, or None for a plain-fact line (about 1 in 10)."""
    rng = random.Random(f"board:{seed}")
    en, zh = list(_EN_SUBJECTS), list(_ZH_SUBJECTS)
    rng.shuffle(en)
    rng.shuffle(zh)
    out: list[BoardTopic | None] = []
    for i in range(n):
        if rng.random() < 0.1:
            out.append(None)
            continue
        is_zh = i % 2 == 1
        subject = (zh if is_zh else en).pop()
        direction = rng.choice(DIRECTIONS_ZH if is_zh else DIRECTIONS_EN)
        out.append(BoardTopic(subject, is_zh, f"lesson-{i}", direction))
    return out


def board_bullets(n: int, seed: int = 7) -> list[str]:
    """The board's ``n`` bullet lines (``- ...``), one subject each."""
    rng = random.Random(f"bullets:{seed}")
    lines = []
    for topic in board_topics(n, seed):
        if topic is None:
            lines.append(f"- {rng.choice(_NOISE_LINES)}")
        elif topic.zh:
            trig = rng.choice(_TRIGGERS_ZH).format(verb=rng.choice(VERBS_ZH), subject=topic.subject)
            lines.append(f"- {trig}，{topic.direction} [[{topic.pointer}]]")
        else:
            trig = rng.choice(_TRIGGERS_EN).format(verb=rng.choice(VERBS_EN), subject=topic.subject)
            lines.append(f"- {trig}, {topic.direction} [[{topic.pointer}]]")
    return lines


@dataclass(frozen=True)
class Message:
    """A user message and the board topic it is about (None for most)."""

    text: str
    topic: BoardTopic | None


class Speaker:
    """Deterministic text for one day: user messages, tool summaries, replies."""

    def __init__(self, rng: random.Random, topics: list[BoardTopic | None]) -> None:
        self.rng = rng
        self.topics = [t for t in topics if t is not None]
        on_board = {t.subject for t in self.topics}
        self.off_en = [s for s in _EN_SUBJECTS if s not in on_board]
        self.off_zh = [s for s in _ZH_SUBJECTS if s not in on_board]

    def _subject(self, zh: bool, p_board: float) -> tuple[str, BoardTopic | None]:
        rng = self.rng
        if rng.random() < p_board:
            choices = [t for t in self.topics if t.zh == zh]
            if choices:
                topic = rng.choice(choices)
                return topic.subject, topic
        return rng.choice(self.off_zh if zh else self.off_en), None

    def _errand(self, zh: bool, subject: str) -> str:
        rng = self.rng
        if zh:
            text = f"{rng.choice(VERBS_ZH)}{rng.choice(QUALIFIERS_ZH)}{subject}"
            extra = "，".join(rng.choice(FILLER_ZH) for _ in range(rng.randint(0, 3)))
            return f"{text}，{extra}。" if extra else f"{text}。"
        text = f"{rng.choice(VERBS_EN)} {rng.choice(QUALIFIERS_EN)} {subject}"
        parts = [text] + [rng.choice(FILLER_EN) for _ in range(rng.randint(0, 3))]
        return ". ".join(p[0].upper() + p[1:] for p in parts) + "."

    def message(self) -> Message:
        """The next user message."""
        rng = self.rng
        zh = rng.random() < 0.5
        roll = rng.random()
        if roll < GREETING:
            return Message(
                rng.choice(
                    ("谢谢", "好的", "收到，辛苦了") if zh else ("thanks!", "ok", "great, thanks")
                ),
                None,
            )
        roll -= GREETING
        if roll < APPROVAL:
            return Message("没错，就是这样" if zh else "perfect, that's exactly it", None)
        roll -= APPROVAL
        subject, topic = self._subject(zh, 0.4)
        direction = rng.choice(DIRECTIONS_ZH if zh else DIRECTIONS_EN)
        if roll < CORRECTION:
            text = (
                f"不对，{subject}应该{direction}。"
                if zh
                else f"No, that's wrong - for the {subject} you should {direction}."
            )
            return Message(text, topic)
        roll -= CORRECTION
        if roll < INSTRUCTION:
            text = (
                f"以后处理{subject}的时候，{direction}。"
                if zh
                else f"From now on, when I ask about the {subject}, {direction}."
            )
            return Message(text, topic)
        roll -= INSTRUCTION
        if roll < PREFERENCE:
            text = f"我更喜欢{direction}。" if zh else f"I prefer that you {direction}."
            return Message(text, None)
        subject, topic = self._subject(zh, ON_BOARD)
        return Message(self._errand(zh, subject), topic)

    def tool_input(self, message: Message) -> str:
        """What a tool call was given: sometimes the topic's dossier, mostly other files."""
        rng = self.rng
        topic = message.topic
        if topic is not None and rng.random() < 0.2:
            return f"memory/topics/{topic.pointer}.md"
        name = rng.choice(self.off_en)
        return rng.choice((f"var/notes/{name}.md", f"grep -rn {name} docs/", f"ls reports/{name}"))

    def tool_output(self) -> str:
        """A tool result summary."""
        rng = self.rng
        zh = rng.random() < 0.5
        lines = rng.randint(1, 40)
        pool = FILLER_ZH if zh else FILLER_EN
        return f"{lines} lines; " + "; ".join(rng.choice(pool) for _ in range(rng.randint(1, 4)))

    def reply(self, message: Message) -> str:
        """The agent's reply; it follows the topic's direction about half the time."""
        rng = self.rng
        zh = rng.random() < 0.5
        head = rng.choice(REPLIES_ZH if zh else REPLIES_EN)
        body = " ".join(
            rng.choice(FILLER_ZH if zh else FILLER_EN) for _ in range(rng.randint(1, 6))
        )
        topic = message.topic
        if topic is not None and rng.random() < 0.5:
            return f"{head}. {topic.direction}. {body}"
        return f"{head}. {body}"
