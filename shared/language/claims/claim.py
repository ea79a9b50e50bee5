"""A claim normalised for the review gates: text, clauses and what it points at.

A claim is normalised (markdown emphasis, backticks, placeholders' angle brackets and
modal tags removed; pointers noted and dropped) and split into clauses at punctuation
and arrows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.language import lexicon
from shared.language.lexicon.script import CJK, CJK_RE, simplified
from shared.language.punct import (
    CLOSE,
    COLON,
    COLON_SPACED,
    COLON_UNSPACED,
    COMMA,
    EXCLAIM,
    FULL_STOP_UNSPACED,
    OPEN,
    QUESTION,
    SEMICOLON,
)

POINTER_RE = re.compile(r"\[\[[^\]\n]+\]\]")
# Folders hold no ideographs: once backticks are gone a path glued to Chinese prose
# ("阅读…的.cursor/rules/下的所有规则文件和docs/x.md") must not swallow the prose; only
# the file name itself may be Chinese ("docs/00-项目概述.md").
_DIR = rf"(?:[^\W{CJK}]|[.-])+"
# A path starts where its run of name characters starts, and not at a later segment of
# it: tried from inside a run or a segment it would scan the rest again at every position
# (quadratic on a long run of dots or of "a/a/a/").
PATH_RE = re.compile(
    rf"`?(?<![^\W{CJK}])(?<![.-])(?<![^\W{CJK}]/)(?<![.-]/){_DIR}(?:/{_DIR})*/[\w.-]+\.(?:md|json|jsonl|txt|ya?ml|py|toml)`?"
)
MODAL_TAG_RE = re.compile(
    r"\[(?:observation|inference|instruction|conditional\s*:[^\]]*|hypothesis[^\]]*|"
    r"superseded[^\]]*)\]",
    re.IGNORECASE,
)
EMPHASIS_RE = re.compile(r"\*\*|__|`|~~")
_PLACEHOLDER_RE = re.compile(r"<([A-Za-z][\w-]*)>")
# Informal Chinese separates clauses with spaces ("修改要小步快跑 避免一次性修改").
_CLAUSE_SPLIT_RE = re.compile(
    # Every split starts at a blank or at a separator's first character: the lookahead
    # says so, and turns most positions of a line down at one character (twice as quick).
    rf"(?=[\s{COMMA}{SEMICOLON}{COLON}{FULL_STOP_UNSPACED}{EXCLAIM}{QUESTION}{OPEN}{CLOSE}.—–\-→=])"
    # (?<!\s): a separator is matched from the start of its blanks, not again from each one
    rf"(?:(?<!\s)\s*(?:[{COMMA}{SEMICOLON}{COLON}{FULL_STOP_UNSPACED}{EXCLAIM}{QUESTION}{OPEN}{CLOSE}]"
    r"|\.(?=\s|$)|—|–|\s-\s|->|→|=>)\s*"
    rf"|(?<=[{CJK}])\s+(?=[{CJK}]))"
)
# A code span of the raw line, its content the group.
CODE_SPAN_RE = re.compile(r"`([^`\n]*)`")
# Code spans, paths, file names, flags, identifiers and acronyms name an artefact.
CODE_TOKEN_RE = re.compile(
    r"`[^`\n]+`|(?<![\w/])[~.]{0,2}/[\w.-]+|\b[\w.-]+/[\w.-]+/[\w./*-]*|\b[\w-]+/[\w-]*\.\w{1,5}\b|"
    r"\b[\w.-]+/(?=[\s`'\")]|$)|\b\w+\.(?:md|py|ts|tsx|js|json|ya?ml|toml|sql|sh|rs|go|fs|"
    r"fsproj|ini|txt|lock)\b|(?<!\w)--?[a-z][\w-]+|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|"
    r"\b[A-Z][a-z]+[A-Z]\w*\b|\b[A-Z]{2,6}s?\b|\b\w+\(\)"
)
_WORD_RE = re.compile(r"[a-z][a-z'-]*|\d+")
# "Details: <file>", "详见 <file>": the line says where the rest is written.
_DETAILS = lexicon.matcher("details")
_DETAILS_CUES = lexicon.chars("details_cue")


def words(text: str) -> list[str]:
    """The words of lowercased ``text`` (letters with inner ' and -, or digit runs)."""
    return _WORD_RE.findall(text)


@dataclass(frozen=True)
class Claim:
    """A normalised claim, ready for clause analysis."""

    raw: str
    text: str  # normalised, original case
    lower: str
    clauses: tuple[str, ...]  # lowercased
    has_pointer: bool
    has_details: bool
    cjk: bool
    tags: tuple[str, ...]


def analyse(raw: str) -> Claim:
    """Normalise one logical line for the gates."""
    # Character checks first: most claims have no tags, pointers, paths or emphasis.
    raw_norm = raw.replace("’", "'") if "’" in raw else raw  # "Don’t" is "Don't"
    bracket = "[" in raw
    tags = tuple(t.lower() for t in MODAL_TAG_RE.findall(raw)) if bracket else ()
    has_pointer = "[[" in raw and bool(POINTER_RE.search(raw))
    details = ("/" in raw or any(cue in raw for cue in _DETAILS_CUES)) and bool(
        _DETAILS.search(raw)
    )
    has_details = details or ("/" in raw and bool(PATH_RE.search(raw)))
    text = raw_norm
    if tags:
        text = MODAL_TAG_RE.sub(" ", text)
    if has_pointer:
        text = POINTER_RE.sub(" ", text)
    if details:
        text = _DETAILS.sub(text, " ")
    if "<" in text:
        text = _PLACEHOLDER_RE.sub(r"\1", text)
    if any(c in text for c in "*_`~"):
        text = EMPHASIS_RE.sub("", text)
    text = " ".join(text.split())
    cjk = bool(CJK_RE.search(text))
    if cjk:
        text = simplified(text)  # the lexicon is written in simplified characters
    lower = text.lower()
    clauses = tuple(c for c in (c.strip() for c in _CLAUSE_SPLIT_RE.split(lower)) if c)
    return Claim(
        raw=raw,
        text=text,
        lower=lower,
        clauses=clauses,
        has_pointer=has_pointer,
        has_details=has_details,
        cjk=cjk,
        tags=tags,
    )


# A leading label ("**Fail fast:** ...", "Build from root: ...") summarises the rule;
# it is not the rule's object.
_LABEL_RE = re.compile(
    rf"^\W*\*\*[^*\n]{{1,60}}\*\*\s*[{COLON}]?\s*"
    rf"|^[^{COLON}`\n]{{1,40}}(?:[{COLON_SPACED}]\s+|[{COLON_UNSPACED}]\s*)(?=\S)"
)


def strip_label(raw: str) -> str:
    """``raw`` without a leading bold or ``Label:`` summary, when a body follows."""
    match = _LABEL_RE.match(raw)
    if match and raw[match.end() :].strip():
        return raw[match.end() :]
    return raw
