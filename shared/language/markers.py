"""Marker lexicons the scanner judges events with, for English and Chinese.

Corrections, standing instructions, preferences, approvals, greetings/receipts and
transient questions; each detector returns the matched marker (so a decision can
carry it as its reason) or None. Also the "wanted behaviour" a correction states and
the candidate (trigger, direction) rule of a standing instruction. Pure functions.
Every table is matched through :mod:`shared.language.prefilter`: one pass finds a text's
literals for all tables, and only the patterns owning one of them run.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from shared.language import lexicon
from shared.language.lexicon.script import CJK_CHAR, CJK_RUN_RE
from shared.language.prefilter import LiteralScanner, MarkerTable
from shared.language.text import normalise, one_line, split_trigger, tokens


@dataclass(frozen=True)
class _Tables:
    """The marker tables, built from the lexicon at first use."""

    corrections: MarkerTable
    instructions: MarkerTable
    preferences: MarkerTable
    approvals: MarkerTable
    wanted: MarkerTable
    one_off: MarkerTable
    retractions: MarkerTable
    # One pass over a text finds the literals of every table; the detectors a turn runs
    # (and is_transient_question / candidate_rule re-running them) share it via the cache.
    scanner: LiteralScanner


@functools.cache
def _tables() -> _Tables:
    corrections, instructions, preferences, approvals, wanted = (
        MarkerTable(lexicon.markers(f"{name}_marker"))
        for name in ("correction", "instruction", "preference", "approval", "wanted")
    )
    # One regex over every language: its match is the marker, wherever it comes first.
    one_off = MarkerTable((("one-off", lexicon.source("one_off")),))
    retractions = MarkerTable(lexicon.markers("retraction_marker"))
    tables = (corrections, instructions, preferences, approvals, wanted, one_off, retractions)
    scanner = LiteralScanner(lit for table in tables for lit in table.all_literals())
    return _Tables(*tables, scanner)


_QUESTION_OPENING = lexicon.matcher("question_opening")
_QUESTION_FORM = lexicon.matcher("question_form")


@functools.lru_cache(maxsize=256)
def _present(norm: str) -> frozenset[str]:
    return _tables().scanner.present(norm)


def _first(table: MarkerTable, text: str) -> str | None:
    norm = normalise(text)
    return table.first(norm, _present(norm))


@functools.lru_cache(maxsize=256)
def markers(text: str) -> tuple[str | None, str | None, str | None]:
    """(correction, instruction, preference) markers of ``text``: what the judge asks
    of every turn, and is_transient_question again, from one normalisation and scan."""
    norm = normalise(text)
    present = _present(norm)
    tables = _tables()
    return (
        tables.corrections.first(norm, present),
        tables.instructions.first(norm, present),
        tables.preferences.first(norm, present),
    )


_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)\u3001\uff0e])\s*")
_REQUIREMENT = lexicon.matcher("requirement_item")


def without_requirement_items(text: str) -> str:
    """``text`` without the items of a task list that state a requirement of the task
    ("1. set the avatar in settings / 2. don't show a disclaimer / 3. …"): a
    prohibition there specifies the task and corrects nothing. A message with fewer
    than two list items is returned as it is."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    items = [ln for ln in lines if _LIST_ITEM_RE.match(ln)]
    if len(items) < 2:
        return text
    return "\n".join(
        ln
        for ln in lines
        if not (_LIST_ITEM_RE.match(ln) and _REQUIREMENT.search(_LIST_ITEM_RE.sub("", ln, 1)))
    )


def correction_marker(text: str) -> str | None:
    """The first correction marker found in ``text`` ("no,", "不对", ...), or None."""
    return _first(_tables().corrections, text)


def instruction_marker(text: str) -> str | None:
    """The first standing-instruction marker ("always", "以后", ...), or None."""
    return _first(_tables().instructions, text)


def preference_marker(text: str) -> str | None:
    """The first preference marker ("I prefer", "我喜欢", ...), or None."""
    return _first(_tables().preferences, text)


_GREETING_WORDS = lexicon.words("greeting", spaced=True)
_GREETING_PHRASES = lexicon.phrases("greeting", spaced=False)
# Longest first, so a greeting containing a shorter one is removed whole.
_GREETING_ORDER = tuple(sorted(_GREETING_PHRASES, key=len, reverse=True))
# A CJK character in no greeting phrase survives every removal below, so its presence
# alone decides "not a greeting" without doing them.
_NON_GREETING_CJK_RE = re.compile(
    "(?![" + "".join(sorted(set("".join(_GREETING_PHRASES)))) + "])" + CJK_CHAR
)
_GREETING_WORD_RE = re.compile(r"[a-z0-9']+")


# The judge and then the scanner ask this of the same text; the cache makes it once.
@functools.lru_cache(maxsize=256)
def is_greeting_or_receipt(text: str) -> bool:
    """True for short messages made only of greeting / thanks / receipt words."""
    norm = normalise(text)
    zh = norm
    if not norm.isascii():
        if _NON_GREETING_CJK_RE.search(norm):
            return False
        for word in _GREETING_ORDER:
            zh = zh.replace(word, " ")
        if CJK_RUN_RE.search(zh):
            return False
    # At most eight words, each a greeting word; the first that is not decides.
    count = 0
    for match in _GREETING_WORD_RE.finditer(zh):
        count += 1
        word = match.group()
        if count > 8 or not (word.replace("'", "") in _GREETING_WORDS or word == "it"):
            return False
    return count > 0 or zh != norm


def approval_marker(text: str) -> str | None:
    """The approval marker ("perfect", "没错", ...) that opens ``text``, or None.

    Approval is the user's reaction to the turn before, and a reaction comes first
    ("Perfect, now …", "没错，继续"): the marker counts only in the opening clause's
    first words, so an adverb inside a new task ("create the file with exactly this
    content:") or a word in pasted text approves nothing."""
    return _first(_tables().approvals, opening(text))


# Where an opening clause ends: a sentence or clause mark (not a dot inside a name,
# "prompts.py") or a line break.
_OPENING_END_RE = re.compile(r"[.!?](?:\s|$)|[\n,;:，。！？；：]")
_OPENING_WORDS = 5
_OPENING_CJK_CHARS = 12


def opening(text: str) -> str:
    """The first words of ``text``'s first clause (its first characters, in a script
    written without spaces)."""
    first = _OPENING_END_RE.split(text.strip(), maxsplit=1)[0]
    words = first.split()
    if len(words) > 1:
        return " ".join(words[:_OPENING_WORDS])
    return first[: max(_OPENING_CJK_CHARS, len(first.split(maxsplit=1)[0]) if words else 0)]


def retraction_marker(text: str) -> str | None:
    """The user taking back their own earlier correction ("never mind", "算了", "I was
    wrong"), or None."""
    return _first(_tables().retractions, text)


def one_off_marker(text: str) -> str | None:
    """A qualifier that limits a request to this occasion ("this time", "这次"), or None."""
    norm = normalise(text)
    one_off = _tables().one_off
    if not one_off.candidates(_present(norm)):
        return None
    match = one_off.regexes[0].search(norm)
    return match.group(0) if match else None


def is_question(text: str) -> bool:
    """True when ``text`` reads as a question (EN or ZH)."""
    norm = normalise(text).strip()
    if norm.endswith(("?", "？")) or _QUESTION_OPENING.match(norm):
        return True
    # The question forms are marks and words of unspaced scripts: in ASCII text only a
    # trailing "?" could match, and the ending was checked.
    return not norm.isascii() and _QUESTION_FORM.found(norm)


def is_transient_question(text: str) -> bool:
    """A question with no correction, instruction or preference marker in it."""
    return is_question(text) and markers(text) == (None, None, None)


_CLAUSE_END_RE = re.compile(r"[.!。！\n]")


@functools.lru_cache(maxsize=256)
def wanted_behaviour(text: str) -> str | None:
    """The behaviour a correction or instruction asks for, when the text states one."""
    full = normalise(text)
    norm = full.strip()
    # A literal absent from the text is absent from its stripped form too.
    wanted = _tables().wanted
    for i in wanted.candidates(_present(full)):
        match = wanted.regexes[i].search(norm)
        if match:
            clause = _CLAUSE_END_RE.split(match.group(1).strip())[0].strip(" ,，;；")
            if len(tokens(clause)) >= 1 and len(clause) >= 2:
                return clause
    return None


_LEAD_RE = re.compile(
    rf"^(?:(?:{lexicon.source('lead_word')})[\s,，:：]*)+",
    re.IGNORECASE,
)


_SENTENCE_END_RE = re.compile(r"(?<=[.!?。！？])\s*|\n")


def candidate_rule(text: str) -> tuple[str, str]:
    """(trigger, direction) of a standing instruction, after dropping its lead words.

    "From now on, when I ask for a summary, use bullets" -> ("I ask for a summary",
    "use bullets"). The trigger is '' when the sentence names none.
    """
    # "…, and remember this for every session" asks to keep the rule; it is not the rule.
    text = lexicon.matcher("memory_request").sub(text).strip() or text
    first = _SENTENCE_END_RE.split(one_line(text, 1000))
    for sentence in first:
        if (
            instruction_marker(sentence)
            or preference_marker(sentence)
            or wanted_behaviour(sentence)
        ):
            body = _LEAD_RE.sub("", _straight(sentence).strip()).rstrip(" .。!！")
            trigger, direction = split_trigger(body)
            return trigger, _LEAD_RE.sub("", direction).strip(" .。!！")
    return split_trigger(_LEAD_RE.sub("", _straight(text).strip()))


def _straight(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


# --- text as written, and the kind of a weakening -------------------------------------


def _char_map(text: str) -> list[int] | None:
    """For each character of ``normalise(text)``, the index of the original character it
    came from; None when per-character folding does not rebuild the whole fold (a
    composed sequence), so no span can be mapped back safely."""
    folded = normalise(text)
    if len(folded) == len(text):
        return list(range(len(text)))
    index: list[int] = []
    for i, char in enumerate(text):
        index.extend([i] * len(normalise(char)))
    if len(index) != len(folded) or "".join(normalise(c) for c in text) != folded:
        return None
    return index


def as_written(text: str, clause: str, start: int = 0) -> str | None:
    """The span of ``text`` whose fold is ``clause`` (a substring of ``normalise(text)``
    at or after ``start``), with the writer's case, marks and quotes; None when it
    cannot be found. Kernel files get this, never the folded clause."""
    folded = normalise(text)
    at = folded.find(clause, start)
    if at < 0 or not clause:
        return None
    index = _char_map(text)
    if index is None:
        return None
    end = index[at + len(clause) - 1] + 1
    return text[index[at] : end]


def wanted_as_written(text: str) -> str | None:
    """:func:`wanted_behaviour` as the user wrote it (case, diacritics, quotes kept)."""
    clause = wanted_behaviour(text)
    return as_written(text, clause) if clause else None


# What a correction says about the line it weakens (labelling "Board outcomes"): the
# practice stopped (obsolete), the user now wants another behaviour (direction
# changed), or neither (the caller decides recall miss from the line's own direction).
_OBSOLETE = lexicon.matcher("obsolete")
# A replacement behaviour is named: the line's direction changes rather than retires.
_REDIRECT = lexicon.matcher("redirect")
_CHANGE = lexicon.matcher("change")


@functools.cache
def _new_direction_res() -> tuple[re.Pattern[str], ...]:
    """The new direction of a direction change, in the order a reader looks for it; run
    on the folded text and mapped back with :func:`as_written`."""
    return tuple(re.compile(regex) for _label, regex in lexicon.markers("new_direction_marker"))


def new_direction(text: str) -> str | None:
    """The behaviour a direction change asks for, as written; falls back to
    :func:`wanted_as_written`."""
    folded = normalise(text)
    for regex in _new_direction_res():
        match = regex.search(folded)
        if match:
            clause = match.group(1).strip(" ,，;；:：")
            if len(clause) >= 2:
                found = as_written(text, clause, match.start(1))
                if found:
                    return found
    return wanted_as_written(text)


def weakening_kind(text: str) -> str | None:
    """``obsolete`` / ``direction-changed`` from a correction's own words, else None."""
    folded = normalise(text)
    replaced = _REDIRECT.found(folded)
    if _OBSOLETE.found(folded) and not replaced:
        return "obsolete"
    if replaced or _CHANGE.found(folded):
        return "direction-changed"
    return None


_DURABLE = lexicon.matcher("durable_marker", prefilter=True)


def durable_marker(text: str) -> str | None:
    """The words that make ``text`` a standing instruction ("from now on", "remember
    this", "make a rule for it", an imperative "always …", "以后", "记住"), else None: a
    request, a correction or a wish without them is about the task at hand."""
    match = _DURABLE.search(_straight(text))
    return match.group(0) if match else None
