"""Attribution: how strongly a correction names a board line, which lines it belongs
to, and what kind of weakening it is (labelling "Attribution", "Board outcomes")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shared.formats.board import BoardLine
from shared.language.markers import new_direction, weakening_kind
from shared.language.text import jaccard, token_set
from shared.weaver.judging.verdicts import WeakeningKind
from shared.weaver.scan.matching import LineCues

TRIGGER_REL = "the event shows the line's trigger cue"
CITED_REL = "the event names the rule file the line came from"
QUOTED_REL = "the event quotes the line"
RULE_REF_REL = "the event points at the rule the previous turn related to"
KIND_REASONS = {
    WeakeningKind.RECALL_MISS: "the user asked for what the line says",
    WeakeningKind.DIRECTION_CHANGED: "the user states a different behaviour",
    WeakeningKind.OBSOLETE: "the user says the practice stopped or is out of date",
}

# How strongly a correction names a candidate line (higher wins, see attribute).
NAMES_DIRECTION, _NAMES_TRIGGER, JUDGES_PREVIOUS = 3, 2, 1


def tier(i: int, cues: LineCues, words: frozenset[str], named: set[int]) -> int:
    """A correction names the line's direction, its trigger (or pointer / dossier /
    directed item) in its own words, or only judges the previous turn that related
    to the line."""
    if cues.direction_hit(words):
        return NAMES_DIRECTION
    return _NAMES_TRIGGER if i in named else JUDGES_PREVIOUS


def attribute(
    blamed: list[tuple[int, list[str], bool, int]],
    overlap: Callable[[int], float] | None = None,
) -> list[tuple[int, list[str], bool, int]]:
    """The lines a correction belongs to (labelling "Attribution"): those naming the
    direction it asks about, else those whose trigger it names, else the one line the
    judged turn related to. Sharing a word with a line is not enough when a closer
    line is named; a complaint that names nothing and judged several lines is
    ambiguous and is attributed to none."""
    best = max(b[3] for b in blamed)
    chosen = [b for b in blamed if b[3] == best]
    if best == JUDGES_PREVIOUS and len(chosen) > 1:
        return []
    if best == NAMES_DIRECTION and len(chosen) > 1 and overlap is not None:
        # One complaint, several lines whose direction it brushes: it belongs to the
        # line whose direction it names most fully (labelling "Attribution").
        top = max(overlap(b[0]) for b in chosen)
        chosen = [b for b in chosen if overlap(b[0]) == top]
    return chosen


def correction_kind(text: str, line: BoardLine, named_direction: bool) -> WeakeningKind | None:
    """The weakening kind of a correction of ``line``: what its words say (obsolete,
    direction changed), or a recall miss when it names the line's own direction. A
    "change" whose new direction reads like the line's own is a recall miss."""
    said = weakening_kind(text)
    kind = WeakeningKind(said) if said is not None else None
    if kind is WeakeningKind.DIRECTION_CHANGED:
        wanted = new_direction(text)
        if wanted and jaccard(token_set(wanted), line.direction_cues) >= 0.6:
            return WeakeningKind.RECALL_MISS
        return kind
    if kind is not None:
        return kind
    return WeakeningKind.RECALL_MISS if named_direction else None


@dataclass(frozen=True, slots=True)
class Seen:
    """What one turn shows, for relating it to each candidate line: its words and
    markers, and the lines it triggers, names, reads or is directed at."""

    words: frozenset[str]
    corr: str | None
    asks: bool  # a correction, instruction or preference
    has_rows: bool
    triggered: set[int]
    mentioned: set[int]
    read: set[int]
    directed: frozenset[int]
    prev_ids: set[str]
    cited: frozenset[int] = frozenset()  # lines whose rule file the turn names
    quoted: frozenset[int] = frozenset()  # lines the turn quotes

    def relations(self, i: int, line: BoardLine, cues: LineCues) -> list[str]:
        """Why the turn relates to line ``i`` (empty: it does not, or too thinly)."""
        relations: list[str] = []
        if i in self.triggered:
            relations.append(TRIGGER_REL)
        if i in self.mentioned:
            relations.append("the event names the line's pointer")
        if i in self.read:
            relations.append("the same turn reads the line's dossier")
        if i in self.directed:
            relations.append("the directed item names this line")
        if i in self.cited:
            relations.append(CITED_REL)
        if i in self.quoted:
            relations.append(QUOTED_REL)
        if self.corr and line.hash in self.prev_ids:
            relations.append("it corrects the session's previous turn on this line")
        elif self.corr and not relations and cues.direction_shown(self.words):
            relations.append("it corrects behaviour the line guides")
        if relations == [TRIGGER_REL] and cues.trigger_hits(self.words) < 2:
            if self.asks and not cues.direction_hit(self.words):
                # A correction or standing instruction that only brushes one trigger
                # cue and asks for another behaviour is not about that line.
                return []
            if not self.has_rows and not (self.corr and cues.direction_hit(self.words)):
                # One cue in passing, and the agent did nothing in that turn: too
                # thin to call even NEUTRAL (unless it corrects the line's direction:
                # "from now on we use pnpm instead of npm for dependencies").
                return []
        return relations
