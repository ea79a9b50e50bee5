"""The scanner against a careful reader on real agent sessions (``tests/corpora/real_sessions``).

Each session is a real transcript excerpt in its tool's own format (SpecStory, aider,
Claude Code, Codex), judged against a board made from its repository's own rule files,
with the labels a careful reader gives by ``../shared/labelling.md``. The transcript goes
through the importer (the format's reader, redaction, the spine envelope), then through
the scanner, exactly as an imported day would; no spine file is written.

What is compared, per session, is the set of board-relevant outcomes: a
(marker, trajectory) pair for each line the session strengthens or weakens, and one
``NEW_SIGNAL`` when it gives a durable instruction no line covers. NEUTRAL ("touched, no
evidence") changes no board line and is left out on both sides; the WEAKENING kind is
scored on its own. Rows, for the tune and held-out parts apart (split by repository):

- ``agreement``: sessions whose outcome set is exactly the label's;
- ``<trajectory>.precision`` / ``.recall`` over (session, marker, trajectory) pairs;
- ``weakening.precision``: a false WEAKENING is what eventually rewrites a good line;
- ``nothing.non_neutral``: the share of sessions labelled with no outcome that get one.

Looks at the held-out part are recorded in the corpus README (aggregates only).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.formats.board import Board, parse_board
from shared.importing.envelope import Cleaner, to_event
from shared.importing.formats import reader
from shared.importing.records import Problem, ReadState, Utterance
from shared.language.text import token_set
from shared.spine.event import ts_key
from shared.weaver.judging.interfaces import EventJudge, JudgeContext
from shared.weaver.scan.rulefiles import cited_rule_files
from shared.weaver.scan.scanner import scan_events

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpora" / "real_sessions"
SUFFIXES = {
    "specstory": ".md",
    "aider": ".aider.chat.history.md",
    "claude-code": ".jsonl",
    "codex": ".jsonl",
}
TARGETS = {"agreement": 0.80, "weakening.precision": 0.90, "nothing.non_neutral": 0.05}
FALLBACK_TS = "2026-01-01T00:00:00.000Z"

Outcome = tuple[str, str]  # (marker or "new", trajectory)


@dataclass(frozen=True)
class Session:
    """One labelled session: its transcript, its board, and the label."""

    id: str
    part: str
    fmt: str
    language: str
    category: str
    transcript: Path
    board: tuple[str, ...]
    markers: frozenset[str]
    expect: tuple[dict[str, Any], ...]
    dossiers: tuple[tuple[str, str], ...] = ()  # (slug, text), as the topic files hold

    def expected(self) -> set[Outcome]:
        return outcomes(
            (e.get("marker"), e["trajectory"]) for e in self.expect if e.get("trajectory")
        )

    def expected_kinds(self) -> dict[str, str]:
        return {
            e["marker"]: e.get("kind") or ""
            for e in self.expect
            if e.get("trajectory") == "WEAKENING" and e.get("marker")
        }


def outcomes(pairs: Any) -> set[Outcome]:
    """The comparable outcome set: NEUTRAL dropped, every NEW_SIGNAL one ``("new", …)``."""
    out: set[Outcome] = set()
    for marker, trajectory in pairs:
        if trajectory == "NEUTRAL":
            continue
        if trajectory == "NEW_SIGNAL":
            out.add(("new", "NEW_SIGNAL"))
        elif marker:
            out.add((str(marker), str(trajectory)))
    return out


def load(root: Path = CORPUS) -> list[Session]:
    """Every labelled session under ``root`` (``<group>/<repo>/<session>.label.json``)."""
    sessions = []
    for label_path in sorted(root.glob("*/*/*.label.json")):
        label = json.loads(label_path.read_text(encoding="utf-8"))
        board_doc = json.loads((label_path.parent / "board.json").read_text(encoding="utf-8"))
        fmt = label["format"]
        stem = label_path.name.removesuffix(".label.json")
        transcript = label_path.with_name(stem + SUFFIXES[fmt])
        sessions.append(
            Session(
                id=label["id"],
                part=board_doc["part"],
                fmt=fmt,
                language=label.get("language", ""),
                category=label.get("category", ""),
                transcript=transcript,
                board=tuple(board_doc["board"]),
                markers=frozenset(board_doc.get("dossiers", {})),
                expect=tuple(label.get("expect", ())),
                dossiers=tuple(sorted(board_doc.get("dossiers", {}).items())),
            )
        )
    return sessions


def events_of(session: Session) -> tuple[list[dict[str, Any]], list[str]]:
    """The session's spine events, through the importer's reader and envelope."""
    read = reader(session.fmt)
    state = ReadState()
    cleaner = Cleaner()
    events: list[dict[str, Any]] = []
    problems: list[str] = []
    last = FALLBACK_TS
    with open(session.transcript, "rb") as handle:
        for item in read.read(handle, str(session.transcript), state, final=True):
            if isinstance(item, Problem):
                problems.append(str(item))
                continue
            ts = _ts(item, last)
            last = ts
            events.append(to_event(session.fmt, item, ts, cleaner))
    # One day, file order (the scanner reads a day in file order).
    day = last[:10]
    for event in events:
        event["ts"] = day + event["ts"][10:] if event["ts"][:10] != day else event["ts"]
    return events, problems


def _ts(item: Utterance, last: str) -> str:
    key = ts_key(item.ts) if item.ts else None
    return key or last


@dataclass
class Prediction:
    session: Session
    got: set[Outcome]
    kinds: dict[str, str]
    problems: list[str] = field(default_factory=list)


def board_of(session: Session) -> tuple[Board, JudgeContext]:
    """The session's board, and the context a pass builds from the kernel's topic files
    (weaver/pipeline.py) for it."""
    texts = dict(session.dossiers)
    ctx = JudgeContext(
        dossiers=session.markers,
        dossier_cues={slug: token_set(text) for slug, text in texts.items()},
        rule_files=cited_rule_files(texts),
    )
    return parse_board("\n".join(session.board) + "\n"), ctx


def predict(session: Session, judge: EventJudge | None = None) -> Prediction:
    events, problems = events_of(session)
    board, ctx = board_of(session)
    date = events[-1]["ts"][:10] if events else FALLBACK_TS[:10]
    # The corpus's slugs carry no lesson-/groove- prefix, so they are pointers rather
    # than node markers: a fragment is mapped to its line's first pointer by number.
    slug = {ln.number: (ln.pointers[0] if ln.pointers else None) for ln in board.lines}
    pairs = []
    kinds: dict[str, str] = {}
    for item in scan_events(board, events, ctx, judge, date=date):
        frag = item.fragment
        marker = slug.get(frag.source_line) if frag.source_line is not None else None
        pairs.append((marker, frag.trajectory))
        if frag.trajectory == "WEAKENING" and marker:
            kinds[marker] = frag.weakening_kind or ""
    return Prediction(session, outcomes(pairs), kinds, problems)


@dataclass
class Score:
    sessions: int = 0
    agree: int = 0
    nothing: int = 0
    nothing_flagged: int = 0
    tp: Counter[str] = field(default_factory=Counter)
    predicted: Counter[str] = field(default_factory=Counter)
    expected: Counter[str] = field(default_factory=Counter)
    kinds_right: int = 0
    kinds_total: int = 0

    def add(self, p: Prediction) -> None:
        want = p.session.expected()
        self.sessions += 1
        self.agree += int(p.got == want)
        if not want:
            self.nothing += 1
            self.nothing_flagged += int(bool(p.got))
        for _, trajectory in p.got:
            self.predicted[trajectory] += 1
        for _, trajectory in want:
            self.expected[trajectory] += 1
        for outcome in p.got & want:
            self.tp[outcome[1]] += 1
        for marker, kind in p.session.expected_kinds().items():
            if (marker, "WEAKENING") in p.got:
                self.kinds_total += 1
                self.kinds_right += int(p.kinds.get(marker, "") == kind)

    def rows(self, part: str) -> list[dict[str, Any]]:
        rows = [
            _row(f"{part}.agreement", self.agree, self.sessions, TARGETS["agreement"], part),
            _row(
                f"{part}.nothing.non_neutral",
                self.nothing_flagged,
                self.nothing,
                TARGETS["nothing.non_neutral"],
                part,
                at_most=True,
            ),
        ]
        for trajectory in ("STRENGTHENING", "WEAKENING", "NEW_SIGNAL"):
            name = trajectory.lower()
            target = TARGETS["weakening.precision"] if trajectory == "WEAKENING" else None
            rows.append(
                _row(
                    f"{part}.{name}.precision",
                    self.tp[trajectory],
                    self.predicted[trajectory],
                    target,
                    part,
                )
            )
            rows.append(
                _row(
                    f"{part}.{name}.recall",
                    self.tp[trajectory],
                    self.expected[trajectory],
                    None,
                    part,
                )
            )
        rows.append(_row(f"{part}.weakening.kind", self.kinds_right, self.kinds_total, None, part))
        return rows


def _row(
    name: str, hits: int, total: int, target: float | None, part: str, *, at_most: bool = False
) -> dict[str, Any]:
    # Nothing to divide: no value (a precision of nothing predicted is not 1.0).
    value = hits / total if total else None
    met = None
    if target is not None and part == "heldout" and value is not None:
        met = value <= target if at_most else value >= target
    return {
        "name": f"real_sessions.{name}",
        "value": value,
        "unit": f"ratio ({hits}/{total})",
        "target": None if target is None else (f"<= {target:g}" if at_most else f">= {target:g}"),
        "met": met,
    }


def score(sessions: list[Session], judge: EventJudge | None = None) -> dict[str, Score]:
    scores = {"tune": Score(), "heldout": Score()}
    for session in sessions:
        scores[session.part].add(predict(session, judge))
    return scores


def bench_real_sessions(parts: tuple[str, ...] = ("tune", "heldout")) -> list[dict[str, Any]]:
    """Runner rows for the quality section (both parts; see the module docstring)."""
    sessions = [s for s in load() if s.part in parts]
    scores = score(sessions)
    rows: list[dict[str, Any]] = []
    for part in parts:
        rows += scores[part].rows(part)
    return rows


def cross_board(sessions: list[Session]) -> list[dict[str, Any]]:
    """Each session judged against every *other* repository's board (tune part only):
    a line another project wrote is hardly ever what this user praised or complained
    about, so what the words decide there (corrections, approvals, asks) estimates how
    often the scanner pins a turn on a line that only shares its words, on boards no rule
    was written from. What the agent ran may truly follow or break a foreign line (it
    ran `go test`), so those outcomes are counted apart. Rows are outcomes per 100
    session-board pairs."""
    tune = [s for s in sessions if s.part == "tune"]
    boards: dict[str, Session] = {}
    for session in tune:
        boards.setdefault(session.id.split("/")[0], session)
    pairs = 0
    by_words = by_actions = 0
    for session in tune:
        repo = session.id.split("/")[0]
        events, _ = events_of(session)
        date = events[-1]["ts"][:10] if events else FALLBACK_TS[:10]
        for other, owner in sorted(boards.items()):
            if other == repo:
                continue
            pairs += 1
            board, ctx = board_of(owner)
            for item in scan_events(board, events, ctx, None, date=date):
                if item.fragment.trajectory not in ("STRENGTHENING", "WEAKENING"):
                    continue
                if ": action:" in item.reason:
                    by_actions += 1
                else:
                    by_words += 1
    rows = []
    for name, count in (("words", by_words), ("actions", by_actions)):
        rows.append(
            {
                "name": f"real_sessions.cross.{name}",
                "value": 100 * count / pairs if pairs else None,
                "unit": f"per 100 pairs ({count}/{pairs})",
                "target": None,
                "met": None,
            }
        )
    return rows


def _misses(sessions: list[Session]) -> None:
    for s in sessions:
        p = predict(s)
        want = s.expected()
        if p.got != want:
            print(f"{s.id} [{s.category}/{s.language}]", file=sys.stderr)
            print(f"   want {sorted(want)}", file=sys.stderr)
            print(f"   got  {sorted(p.got)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("tune", "heldout", "both"), default="tune")
    parser.add_argument("--misses", action="store_true", help="list disagreements (tune only)")
    parser.add_argument(
        "--cross",
        action="store_true",
        help="judge each tune session against the other tune repositories' boards",
    )
    args = parser.parse_args(argv)
    parts = ("tune", "heldout") if args.part == "both" else (args.part,)
    if args.misses:
        _misses([s for s in load() if s.part == "tune"])
    rows = bench_real_sessions(parts)
    if args.cross:
        rows += cross_board(load())
    for row in rows:
        shown = "n/a" if row["value"] is None else f"{row['value']:.3f}"
        print(f"{row['name']:<44} {shown:>5}  {row['unit']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
