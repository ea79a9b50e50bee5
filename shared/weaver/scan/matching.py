"""Per-board and per-turn lookups behind :class:`~shared.weaver.judging.rules.RuleJudge`.

The judge relates a turn to a board line through the line's trigger cues, its
pointers named in the text, its dossier read in the turn's tool rows, a directed
item, or a correction. Everything that depends on the board alone is computed once
per board here (:class:`BoardIndex`): each line's cues without the generic ones, the
lines each cue, pointer spelling and content hash lead to, and literal scanners
that find in one pass which pointer spellings a text contains. A turn then costs a
few set operations instead of a loop over every line and every pointer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from shared.formats.board import Board
from shared.language import lexicon
from shared.language.prefilter import LiteralScanner
from shared.language.text import (
    GENERIC_CUES,
    normalise,
    split_trigger,
    strip_pointers,
    token_set,
    token_witnesses,
)
from shared.weaver.scan.actions import line_actions, line_phrases, line_speech
from shared.weaver.scan.quotes import quote_table
from shared.weaver.scan.turns import Turn

READ_TOOLS = re.compile(r"\b(?:read|open|cat|view|grep|glob|search|load|fetch)\b", re.I)
TOOL_ROWS = frozenset({"agent.tool_use", "agent.tool_result"})


@functools.lru_cache(maxsize=4096)
def pointer_forms(pointer: str) -> tuple[str, ...]:
    """The spellings of ``pointer`` that count as naming it in normalised text."""
    bare = re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", pointer)
    forms = {pointer.lower(), f"{pointer.lower()}.md"}
    if len(bare) >= 4:
        forms |= {bare.lower(), bare.lower().replace("-", " ")}
    # A form containing another form can only occur where that one does.
    return tuple(sorted(f for f in forms if not any(g != f and g in f for g in forms)))


def _distinctive(token: str, df: dict[str, int]) -> bool:
    if token in GENERIC_CUES or token in _TASK_VERBS or df.get(token, 0) != 1:
        return False
    return len(token) >= 2 if not token.isascii() else len(token) >= 4


def cue_frequency(board: Board) -> dict[str, int]:
    """In how many board lines each trigger cue occurs."""
    df: dict[str, int] = {}
    for line in board.lines:
        for token in line.cues:
            df[token] = df.get(token, 0) + 1
    return df


# Verbs of any task ("check", "fix", 检查 …): alone they name no line, however rare on a
# board.
_TASK_VERBS = lexicon.words("task_verb")
# Where a direction's clauses part: sentence and clause punctuation in either language.
_CLAUSE_SPLIT = re.compile(r"[;；。，,]|\s[-\u2013\u2014]\s")
_CLAUSE_CUES = 3


@dataclass(frozen=True)
class LineCues:
    """A board line's cue sets as the judge's rules use them."""

    trigger: frozenset[str]  # the line's cues without GENERIC_CUES
    direction: frozenset[str]
    # Per direction cue, its token_witnesses; and how many cues direction_hit needs.
    witnesses: tuple[tuple[str, ...], ...] = ()
    needed: int = 1
    # The cues of each clause of a direction that has several ("save the plan in the
    # Plan folder, and when it changes update the file"): one clause shown is the line
    # followed in part, which a reply showing half of all the cues rarely is.
    clauses: tuple[frozenset[str], ...] = ()

    @classmethod
    def of(cls, trigger: frozenset[str], direction: frozenset[str], text: str = "") -> LineCues:
        witnesses = tuple(token_witnesses(t) for t in sorted(direction))
        parts = [token_set(c) - GENERIC_CUES for c in _CLAUSE_SPLIT.split(text)] if text else []
        clauses = tuple(p for p in parts if len(p) >= _CLAUSE_CUES) if len(parts) > 1 else ()
        return cls(trigger, direction, witnesses, 1 if len(direction) <= 2 else 2, clauses)

    def clause_shown(self, tokens: frozenset[str]) -> bool:
        """An agent's row shows one clause of a several-clause direction: three fifths
        of that clause's cues, and three at least."""
        for clause in self.clauses:
            hit = len(clause & tokens)
            if hit >= _CLAUSE_CUES and hit / len(clause) >= 0.6:
                return True
        return False

    def trigger_hits(self, tokens: frozenset[str]) -> int:
        return len(self.trigger & tokens)

    def trigger_hit(self, tokens: frozenset[str], distinctive: frozenset[str]) -> bool:
        """Enough of the line's trigger cues occur in the event: two or more covering a
        third of the cues, or one cue that no other board line shares."""
        hits = self.trigger & tokens
        if len(hits) >= 2 and len(hits) / len(self.trigger) >= 0.34:
            return True
        return len(hits) == 1 and next(iter(hits)) in distinctive

    def direction_hit(self, tokens: frozenset[str]) -> bool:
        """Two of the line's direction cues occur, or one covering half of them."""
        if not self.direction:
            return False
        hit = len(self.direction & tokens)
        return hit >= 2 or (hit >= 1 and hit / len(self.direction) >= 0.5)

    def direction_shown(self, tokens: frozenset[str]) -> bool:
        """An agent's row shows the direction: half of its cues or more, and two at
        least when it has more than two (a reply's words brush a cue by chance)."""
        if not self.direction:
            return False
        hit = len(self.direction & tokens)
        return hit >= min(2, len(self.direction)) and hit / len(self.direction) >= 0.5

    def direction_may_hit(self, folded: str) -> bool:
        """False only when :meth:`direction_hit` is False for ``token_set(text)``, where
        ``folded`` is ``normalise(text).replace("'", "")``: too few direction cues have
        a witness in it (the hit rule needs ``needed`` cues)."""
        if not self.direction:
            return False
        left = self.needed
        for witnesses in self.witnesses:
            for witness in witnesses:
                if witness in folded:
                    left -= 1
                    if not left:
                        return True
                    break
        return False


def _lookup(table: dict[str, list[int]], keys: Iterable[str]) -> set[int]:
    found: set[int] = set()
    for key in keys:
        found.update(table.get(key, ()))
    return found


class PointerScan:
    """Which of a set of pointers a text names: any of its :func:`pointer_forms` in
    the normalised text, or (for entities) ``[[pointer]]`` verbatim in the raw text."""

    def __init__(self, pointers: Iterable[str], *, bracketed: bool = False) -> None:
        self.by_form: dict[str, set[str]] = {}
        for pointer in pointers:
            for form in pointer_forms(pointer):
                self.by_form.setdefault(form, set()).add(pointer)
        self._forms = LiteralScanner(self.by_form)
        self._raw: dict[str, str] = {f"[[{p}]]": p for p in pointers} if bracketed else {}
        self._brackets = LiteralScanner(self._raw) if bracketed else None

    def named(self, low: str, text: str = "") -> set[str]:
        """The pointers ``low`` (normalised text) names; ``text`` is the raw text."""
        found: set[str] = set()
        for form in self._forms.present(low):
            found |= self.by_form[form]
        if self._brackets is not None:
            found.update(self._raw[s] for s in self._brackets.present(text))
        return found


class BoardIndex:
    """Per-board lookups built once, so a turn is compared with the few lines it can
    relate to instead of every line: the lines each trigger cue, direction cue,
    pointer spelling, dossier name and content hash lead to, and each line's cues."""

    # The last few boards' indexes, by identity (an entry holds its board, so the id
    # cannot be reused while cached): each scan of the same board skips the build.
    _recent: ClassVar[list[BoardIndex]] = []

    @classmethod
    def of(cls, board: Board) -> BoardIndex:
        """The index of ``board``, built once while it stays among the recent few."""
        for index in cls._recent:
            if index.board is board:
                return index
        index = cls(board)
        cls._recent = [index, *cls._recent[:3]]
        return index

    def __init__(self, board: Board) -> None:
        self.board = board
        self.df = cue_frequency(board)
        self.distinctive = frozenset(t for t in self.df if _distinctive(t, self.df))
        self.cues = [
            LineCues.of(ln.cues - GENERIC_CUES, ln.direction_cues, strip_pointers(ln.direction))
            for ln in board.lines
        ]
        self.by_cue: dict[str, list[int]] = {}
        self.by_direction: dict[str, list[int]] = {}
        self.by_hash: dict[str, list[int]] = {}
        self.by_pointer: dict[str, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        for i, line in enumerate(board.lines):
            for token in self.cues[i].trigger:
                self.by_cue.setdefault(token, []).append(i)
            for token in line.direction_cues:
                self.by_direction.setdefault(token, []).append(i)
            self.by_hash.setdefault(line.hash, []).append(i)
            for pointer in dict.fromkeys(line.pointers):
                self.by_pointer.setdefault(pointer, []).append(i)
            for name in {p.lower() for p in line.pointers}:
                self.by_name.setdefault(name, []).append(i)
        # What each line prescribes or forbids the agent to run (scan/actions.py).
        self.actions = [line_actions(ln.text) for ln in board.lines]
        # Lines that tell the agent to act without asking first.
        self.no_asking = [
            i
            for i, ln in enumerate(board.lines)
            if lexicon.matcher("no_confirmation").search(ln.text) is not None
        ]
        # Their situations, when they name one ("如果需要更新supabase…，直接更新").
        self.situations = [
            token_set(split_trigger(ln.text)[0]) - GENERIC_CUES
            if i in self.no_asking
            else frozenset()
            for i, ln in enumerate(board.lines)
        ]
        # The words each line tells the agent to say, when it quotes them.
        self.phrases = [line_phrases(ln.text) for ln in board.lines]
        self.unsaid = [line_speech(ln.text) for ln in board.lines]
        # The lines a quote can reproduce (scan/quotes.py).
        self.quotes = quote_table(board)
        self.has_actions = (
            any(self.actions) or bool(self.no_asking) or any(self.phrases) or any(self.unsaid)
        )
        self.cue_keys = frozenset(self.by_cue)
        self.trigger_sizes = [len(c.trigger) for c in self.cues]
        self.direction_keys = frozenset(self.by_direction)
        self.pointers = PointerScan(self.by_pointer)
        # A dossier is read when a qualifying tool row holds "<name>.md" or "[[<name>]]".
        self._read_forms: dict[str, set[str]] = {}
        for name in self.by_name:
            for form in (f"{name}.md", f"[[{name}]]"):
                self._read_forms.setdefault(form, set()).add(name)
        self._reads = LiteralScanner(self._read_forms)

    def mentioned(self, low: str) -> set[int]:
        """Lines one of whose pointers the normalised text ``low`` names."""
        return _lookup(self.by_pointer, self.pointers.named(low))

    def read(self, turn: Turn) -> set[int]:
        """Lines whose dossier one of the turn's tool rows reads: a tool result, or a
        tool use with a read-like verb, that names ``<pointer>.md`` or ``[[pointer]]``."""
        if not self._read_forms:
            return set()
        names: set[str] = set()
        for row in turn.get("rows", []):
            kind = row["type"]
            if kind not in TOOL_ROWS:
                continue
            text = row["text"]
            # Every read form holds ".md" or "[["; most rows hold neither. An ASCII
            # row normalises by lowercasing only, so it is checked without that (and
            # without lowercasing when it holds no ".m" / ".M" at all).
            if (
                text.isascii()
                and "[[" not in text
                and ".md" not in text
                and ((".m" not in text and ".M" not in text) or ".md" not in text.lower())
            ):
                continue
            low = normalise(text)
            if ".md" not in low and "[[" not in low:
                continue
            found = self._reads.present(low)
            if found and (kind == "agent.tool_result" or READ_TOOLS.search(low)):
                for form in found:
                    names |= self._read_forms[form]
        return _lookup(self.by_name, names)

    def triggered(self, words: frozenset[str]) -> set[int]:
        """Lines whose trigger cues ``words`` hit (:meth:`LineCues.trigger_hit`)."""
        # Each line's hit count, from the cue table; a distinctive cue is in one line
        # only, so a line with one hit is triggered when that line has a distinctive hit.
        by_cue = self.by_cue
        counts: dict[int, int] = {}
        get = counts.get
        for token in words & self.cue_keys:
            for i in by_cue[token]:
                counts[i] = get(i, 0) + 1
        if not counts:
            return set()
        sizes = self.trigger_sizes
        lone = {by_cue[token][0] for token in words & self.distinctive}
        return {
            i
            for i, hits in counts.items()
            if (hits >= 2 and hits / sizes[i] >= 0.34) or (hits == 1 and i in lone)
        }

    def candidates(
        self, words: frozenset[str], corr: bool, prev_ids: set[str], named: set[int]
    ) -> list[int]:
        """Indices (board order) of every line a turn can relate to: a superset of the
        lines the per-line rules in :meth:`RuleJudge.judge` accept. ``named`` are the
        lines the turn triggers, names, reads or is directed to."""
        if not corr:
            return sorted(named)
        found = named | _lookup(self.by_direction, words & self.direction_keys)
        return sorted(found | _lookup(self.by_hash, prev_ids))

    def directed(self, markers: frozenset[str], numbers: frozenset[int]) -> frozenset[int]:
        """Lines a directed item names by marker or by number."""
        return frozenset(
            i
            for i, line in enumerate(self.board.lines)
            if (line.marker and line.marker in markers) or line.number in numbers
        )
