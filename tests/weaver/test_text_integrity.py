"""Text integrity (issue #11, item 3): nothing normalised ever reaches a kernel file.

Every word of a rewritten or added board line comes, with its original case, from
the old line, a quoted source event, or a small fixed set of connective words; and
the user's words the scanner records for a rewrite are an exact span of what they
wrote.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.formats.board import parse_board
from shared.formats.effectiveness import parse_effectiveness, render_effectiveness
from shared.formats.fragments import Fragment, parse_fragment, render_fragment
from shared.language.markers import new_direction, wanted_as_written
from shared.settings import Settings
from shared.weaver.crystallize.prose import RuleDossierWriter
from shared.weaver.crystallize.signals import cluster_new_signals
from shared.weaver.crystallize.snapshots import build_effectiveness
from shared.weaver.crystallize.store import StoredFragment
from shared.weaver.judging.interfaces import JudgeContext
from shared.weaver.scan.scanner import scan_events
from shared.weaver.update.line_judge import RuleLineJudge, compose_line

# What compose_line may add around the user's clauses.
CONNECTIVES = frozenset({"When", "当", "时"})
_CJK = re.compile(r"[\u3400-\u9fff]")


def words(text: str) -> list[str]:
    """Letter/digit runs (case kept) and single CJK characters."""
    out: list[str] = []
    for run in re.findall(r"[^\W_]+", text):
        out += list(run) if _CJK.search(run) else [run]
    return out


def assert_made_of(line: str, *sources: str) -> None:
    allowed = set(CONNECTIVES)
    for source in sources:
        allowed.update(words(source))
    stray = [w for w in words(line) if w not in allowed]
    assert not stray, (line, stray)


_EN = st.sampled_from(
    ["report", "Report", "figures", "Looker", "dashboard", "Vous", "Tu", "Éditions", "café",
     "CSV", "pnpm", "API", "iOS", "naïve", "Straße", "sheet", "summary", "client", "Claire"]
)  # fmt: skip
_ZH = st.sampled_from(["周报", "摘要", "数据", "会议", "负责人", "待办", "决定", "表格", "链接"])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_recorded_user_words_are_exact_spans(text: str) -> None:
    for found in (wanted_as_written(text), new_direction(text)):
        assert found is None or found in text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_EN, min_size=1, max_size=4).map(" ".join),
    st.lists(_EN, min_size=1, max_size=4).map(" ".join),
    st.sampled_from(
        [
            'Claire asked: use {new} with "{quoted}" instead of "Vous".',
            'No, you must use {new} with "{quoted}" now, not "Vous".',
            "Actually, address her as {new} {quoted} instead of Vous from now on.",
        ]
    ),
)
def test_direction_rewrite_is_made_of_the_old_line_and_the_users_words(
    new: str, quoted: str, shape: str
) -> None:
    old = '- When replying to Claire, address her with the formal "Vous" [[lesson-claire]]'
    correction = shape.format(new=new, quoted=quoted)
    board = parse_board("# B\n\n" + old + "\n")
    events = [
        _event(0, "Reply to Claire about the invoice."),
        _event(1, "Bonjour Claire, Vous trouverez la facture.", "agent.result"),
        _event(2, correction),
    ]
    scanned = scan_events(board, events, JudgeContext(), date="2026-03-10")
    stored = [
        StoredFragment(f"memory/fragments/2026-03-10/{i}.md", _path(i), _round(s.fragment))
        for i, s in enumerate(scanned)
    ]
    eff = build_effectiveness("lesson-claire", stored, board, RuleDossierWriter())
    eff = parse_effectiveness(render_effectiveness(eff))
    decision = RuleLineJudge().decide(board.lines[0], eff, Settings())
    if "instead" in correction:
        # A named replacement is always a direction change, and it is rewritten.
        assert decision.cls == "direction-changed", (correction, eff.guidance)
        assert decision.action == "rewrite", decision.reason
    if decision.new_text is not None:
        assert_made_of(decision.new_text, old, correction)
        assert decision.new_text.startswith("- When replying to Claire, ")
        assert decision.new_text.endswith(" [[lesson-claire]]")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_EN, min_size=1, max_size=3).map(" ".join),
    st.lists(_EN, min_size=1, max_size=3).map(" ".join),
    st.lists(_ZH, min_size=1, max_size=3).map("".join),
)
def test_added_line_is_made_of_the_users_clauses(trigger: str, direction: str, zh: str) -> None:
    texts = [f"From now on, when I send {trigger}, attach {direction}.", f"以后每次都先附上{zh}。"]
    board = parse_board("# B\n\n- Before deploying, run the smoke tests [[groove-x]]\n")
    events = [_event(i, t, session=f"s{i}") for i, t in enumerate(texts)]
    scanned = scan_events(board, events, JudgeContext(), date="2026-03-10")
    stored = [
        StoredFragment(f"memory/fragments/2026-03-10/{i}.md", _path(i), _round(s.fragment))
        for i, s in enumerate(scanned)
        if s.fragment.trajectory == "NEW_SIGNAL"
    ]
    for cand in cluster_new_signals(stored, RuleDossierWriter()):
        like = "当" if _CJK.search(cand.direction) else ""
        line = compose_line(cand.trigger, cand.direction, None, like)
        source = next(t for t in texts if _CJK.search(t)) if like else texts[0]
        assert_made_of(line, source, *texts)
        assert cand.direction in " ".join(texts)


def _round(frag: Fragment) -> Fragment:
    return parse_fragment(render_fragment(frag))


def _path(i: int) -> Path:
    return Path(f"/nonexistent/{i}.md")


def _event(n: int, text: str, etype: str = "channel.message", session: str = "s") -> dict[str, Any]:
    kind = "stdio" if etype == "channel.message" else "runner"
    return {
        "type": etype,
        "source": {"kind": kind},
        "session_key": f"stdio:{session}",
        "payload": {"text": text},
        "id": f"evt_{n:03d}",
        "ts": f"2026-03-10T05:00:{n:02d}.000Z",
    }
