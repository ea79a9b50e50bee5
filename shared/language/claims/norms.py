"""Norms: clauses that direct the next action without an imperative.

A normative present whose subject is an artefact ("Comments and docstrings explain
why"), a numeric limit ("Functions under 50 lines"), a verbless convention ("Tabs for
indentation"), a passive norm ("named exports preferred") or a labelled value
("Version control: jj") each sets a concrete rule.
"""

from __future__ import annotations

import functools
import re

from shared.language import lexicon
from shared.language.claims.claim import CODE_TOKEN_RE, EMPHASIS_RE, Claim, words
from shared.language.claims.conventions import (
    arranged,
    named_phrase,
    naming_convention,
    present_choice,
    present_norm,
    quantified_copula,
    rest_forbids,
    standing_passive,
    styled,
    unspaced_setting,
)
from shared.language.claims.vocabulary import (
    ABSTRACT,
    ARTEFACT,
    EVALUATIVE,
    EVENT_NOUNS,
    GENERIC,
    IMPERATIVE,
    STOP,
    TOOL,
    VAGUE_VERB,
)
from shared.language.lexicon.script import CJK_RE
from shared.language.punct import (
    CLOSE,
    COLON,
    COMMA,
    ENUM,
    FULL_STOP,
    FULL_STOP_UNSPACED,
    OPEN,
    SEMICOLON,
)

_QUALITY_CUES = lexicon.words("quality_cue", spaced=True)
_NEGATION = lexicon.matcher("negation")
_NEGATING_LEAD = lexicon.matcher("negating_lead")
_PREFERENCE = lexicon.matcher("preference")
_ARTEFACT_PHRASE = lexicon.matcher("artefact", spaced=False)
_EVENT_LABEL = lexicon.matcher("event_label")
# "代码嵌套≤3层": a comparison sign before a number is a limit in any language.
_LIMIT = lexicon.matcher("limit", neutral=r"[≤≥<>]=?\s*\d")
_COPULA = lexicon.words("copula", spaced=True)
_STATE_PARTICIPLE = lexicon.words("state_participle", spaced=True)
_PRACTICE_END = lexicon.matcher("practice_end", spaced=False)
_CONVENTION = lexicon.matcher("convention")
_RESTRICTION = lexicon.matcher("restriction")
_BARE_NEGATOR = lexicon.words("bare_negator", spaced=True)
_PLACE_PREP = lexicon.words("place_prep", spaced=True)
_NOT_VALUE = lexicon.words("not_value", spaced=True)
_PASSIVE_NORM = lexicon.matcher("passive_norm")
_ONE_PER = lexicon.matcher("one_per")
_COLONS = lexicon.chars("punct:colon")
_OPENS = lexicon.chars("punct:open")
_STOPS = lexicon.chars("punct:stop")
# What may follow a labelled value that is the whole value: a note, a comma, a stop.
_VALUE_ENDS = tuple(lexicon.chars("punct:open", "punct:comma", "punct:semicolon", "punct:stop"))
_ITEM_LEADS = " " + lexicon.chars("punct:comma", "punct:semicolon")


def _any(marks: str, text: str) -> bool:
    """Whether ``text`` holds one of ``marks``."""
    return any(mark in text for mark in marks)


_PLACED = lexicon.matcher("placed")
_NORMATIVE = lexicon.matcher("normative")
_PENDING = lexicon.matcher("pending")
_PLACED_FILE = lexicon.matcher("placed_file")
_QUANTIFIER = lexicon.words("quantifier", spaced=True)
_REPLY_NOUN = lexicon.words("reply_noun", spaced=True)
_ORDINAL_NOUN = lexicon.words("ordinal_noun", spaced=True)

LABELLED_CODE_RE = re.compile(
    # ^\W*+: the lead is taken whole, so a line of blanks is not re-split label by label
    rf"^\W*+(?:\*\*)?[^{COLON}`*\n]{{1,40}}(?:\*\*)?(?:\s*[{OPEN}][^{CLOSE}\n]{{0,60}}[{CLOSE}])?"
    rf"\s*[{COLON}]\s*(?:\*\*)?\s*"
    r"(?:`|[A-Z][a-z]+[A-Z]\w*\b|[a-z]+(?:[A-Z]|_[a-z])\w*\b)"
)
_LABEL_SPLIT_RE = re.compile(f"[{COLON}]")
# "Strict TypeScript, no `any`": a code span or a capitalised name inside the line.
_NAMED_RE = re.compile(r"`|(?<=[a-z]\s)[A-Z]")


@functools.cache
def _label_value_re() -> re.Pattern[str]:
    """ "Version control: jj (git is forbidden)", "主要语言：中文", "组件名: PascalCase": a
    label that names an artefact, then the value to use (a Latin name or a language's
    name). A label that names a preference or a personal fact ("语言偏好：…", "时区：…")
    is not a rule."""
    names = lexicon.source("language_name")
    return re.compile(
        rf"^\W*(?:\d+\.\s*)?(?:\*\*)?(?P<label>[^{COLON}`*\n]{{1,30}}?)(?:\*\*)?\s*[{COLON}]\s*"
        r"(?:\*\*)?\s*"
        rf"(?P<value>[A-Za-z][\w.+#-]*|{names})"
        rf"(?=\s*(?:$|[{OPEN}{COMMA}{SEMICOLON}{FULL_STOP_UNSPACED}]|\.(?:\s|$)|\s+[{OPEN}]"
        r"|(?:\s+[\w./:=@+-]+)+\s*$))"
    )


def has_limit(text: str) -> bool:
    """ "代码嵌套≤3层", "Functions under 50 lines", "单个函数不超过 50 行": a numeric limit is
    a concrete constraint on the next edit."""
    return _LIMIT.found(text)


def prohibition_label(raw: str) -> bool:
    """ "避免：`require()`", "Never: …": the label forbids its value."""
    head = _LABEL_SPLIT_RE.split(EMPHASIS_RE.sub("", raw), maxsplit=1)[0].strip().lower()
    return bool(_NEGATION.fullmatch(head))


# "**Testing** — Vitest", "**Styling** - Tailwind only": a bold label set off by a dash is
# the house style's "**Testing:** Vitest"; the bold marks it as a label (an unmarked
# "Foo - bar" may be any sentence).
_DASH_LABEL_RE = re.compile(
    rf"^(\W{{0,3}}(?:\d{{1,2}}\.\s*)?\*\*[^*{COLON}\n]{{1,40}}\*\*)\s+[-—–]{{1,2}}\s+(?=\S)"
)


def colon_label(raw: str) -> str:
    """``raw`` with a leading bold label's dash read as its colon."""
    if "**" not in raw:
        return raw
    return _DASH_LABEL_RE.sub(r"\1: ", raw, count=1)


def labelled_value(claim: Claim) -> bool:
    """A ``Label: value`` line whose label names an artefact (or a moment) and whose
    value is a name to use, not a sentence or a quality."""
    raw = colon_label(claim.raw)
    match = _label_value_re().match(raw)
    if not match or prohibition_label(raw):
        return False
    raw_value = match["value"]
    label, value = match["label"].lower(), raw_value.lower()
    if value in IMPERATIVE or value in _QUALITY_CUES:
        return False  # "Types: Use strong typing …" is a sentence, not a value
    tail = raw[match.end() :].strip()
    more = bool(tail) and not tail.startswith(_VALUE_ENDS)
    if more and not raw_value.islower():
        return False  # a multi-word value is a command ("pnpm run check-types")
    if _PREFERENCE.search(label) or value in STOP or value in _NOT_VALUE:
        return False
    if value in _DELIBERATING:
        return False  # "Linting: considering ESLint" says what is being weighed
    if value in GENERIC or value in EVALUATIVE or value in VAGUE_VERB:
        return False
    if CJK_RE.search(label):
        # "任务完成：pnpm run check-types": a label naming a moment is the trigger
        if _ARTEFACT_PHRASE.search(label.replace(" ", "")) or _EVENT_LABEL.search(label):
            return True
        # "状态管理: Pinia, 禁止零散 reactive": a Latin value in an unspaced line is a name,
        # and the prohibition after it makes it the replacement, whatever the label names.
        rest = tail.lstrip(_ITEM_LEADS).lower()
        if value in _NOT_VALUE:
            return False
        if not more and _PRODUCT_NAME_RE.fullmatch(raw_value.rstrip(".")):
            return True  # "**可视化**: ECharts.": a name in mixed case is a tool's own name
        if not more and MODEL_NAME_RE.fullmatch(value.rstrip(".")):
            return True  # "目标芯片：ESP32-S3": letters run into digits name a model
        return raw_value.isascii() and bool(_NEGATION.search(rest) or _NEGATING_LEAD.match(rest))
    return any(_label_artefact(w) for w in words(label))


def _label_artefact(word: str) -> bool:
    """A label word that names an artefact, or the work on one: "**Testing:** Vitest",
    "Linting: ESLint", "**Routing:** React Router" label the domain of a test, a lint or
    a route as "**Tests:**" does (the -ing form of an artefact word, ``test`` + ``ing``,
    ``style`` + ``ing``, ``log`` + ``ging``)."""
    if word in ARTEFACT or word.rstrip("s") in ARTEFACT:
        return True
    if not word.endswith("ing") or len(word) < 6:
        return False
    stem = word[:-3]
    doubled = len(stem) > 2 and stem[-1] == stem[-2]
    return stem in ARTEFACT or stem + "e" in ARTEFACT or (doubled and stem[:-1] in ARTEFACT)


# "**Indent**: 4 spaces.", "**Package manager:** pnpm | **Dev server:** localhost:4444",
# "**PDF:** pdf-extract + lopdf. **Office:** docx-rs + calamine": one or more short
# settings, each a label and the value to use. The line is a setting when every segment
# is ``label: value`` with a short value that is not a sentence (no item opens with a
# verb, a modal, a quality or a function word), and some label names an artefact (or a
# code span is the value); the situation is the label's domain, the direction is to use
# the value.
_SETTING_SPLIT_RE = re.compile(r"\s+\|\s+|(?<=[^\s.]{2})\.\s+(?=\S)")
_SETTING_RE = re.compile(
    rf"^\W{{0,3}}(?:\d+\.\s*)?(?P<label>(?:`[^`{COLON}\n]{{1,30}}`|[^{COLON}`|\n]){{1,30}}?)"
    rf"\s*[{COLON}]\s*(?P<value>\S.*?)\s*[{FULL_STOP}]?$"
)
_FILE_LABEL_RE = re.compile(r"^`[^`\n]*(?:/|\.[A-Za-z]{1,5})`$")
_MD_LINK_RE = re.compile(r"\[([^\]\n]+)\]\([^)\n]+\)")
_TRAILING_NOTE_RE = re.compile(rf"(?<!\s)\s*[{OPEN}][^{OPEN}{CLOSE}\n]*[{CLOSE}]\s*$")
_INNER_NOTE_RE = re.compile(
    rf"\s*[{OPEN}][^{OPEN}{CLOSE}\n]*[{CLOSE}](?=\s*(?:\+|[{COMMA}{ENUM}]|$))"
)
_NEGATED_ITEM_RE = re.compile(lexicon.source("negated_item"))
_SETTING_ITEMS_RE = re.compile(rf"(?<!\s)\s*(?:[{COMMA}{SEMICOLON}{ENUM}>→]|\s\+\s)\s*")
# "JDK 17+", "Windows 11", "Python 3.12": a capitalised name, then its version number
# ("GMT+8" is a time zone, "Phase 2" a step: no name of a tool).
_NAME_VERSION_RE = re.compile(r"([A-Z][\w#.-]*)\s+v?\d+(?:\.\d+)*\+?(?=\s|$)")
# "ECharts", "TypeScript", "PostgreSQL", "GitHub": a Latin word with a capital inside it
# is a product's own name ("Done", "Alice", "WIP" are not).
_PRODUCT_NAME_RE = re.compile(r"[A-Z]*[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}[a-z]+[A-Za-z0-9]*")
# "considering ESLint", "evaluating Bun": a value led by a verb of deliberating says what
# is being weighed, not what to use.
_DELIBERATING = lexicon.words("deliberating", spaced=True)
_SETTING_MAX_WORDS = 5
_SETTING_LIST_MAX = 4  # verbless settings in one line of them
_SETTING_MAX_UNSPACED = 6  # characters of an unspaced language in one value


# "日报格式：粗体小标题 + emoji + 分割线 + 碎碎念", "PR template: summary + test plan": a
# label naming a format, then the parts it is made of joined by "+" or an arrow; the
# parts are the value to use, whatever the label's other words name. Parts that are only
# qualities ("清晰 + 简洁", "clean + readable") name no part.
_FORMAT_LABEL = lexicon.matcher("format_label")
_UNSPACED_EVALUATIVE = lexicon.matcher("evaluative", spaced=False)
_FORMAT_PARTS_RE = re.compile(r"\s\+\s|\s*(?:→|->)\s*")


def _format_parts(label: str, value: str) -> bool:
    if "+" not in value and ">" not in value and "→" not in value:
        return False
    parts = [p.strip() for p in _FORMAT_PARTS_RE.split(value) if p.strip()]
    if len(parts) < 2 or not _FORMAT_LABEL.search(label.lower()):
        return False
    named = False
    for part in parts:
        if CJK_RE.search(part):
            rest = _UNSPACED_EVALUATIVE.sub(part)
            if len(CJK_RE.findall(rest)) < 2 and not re.search(r"[A-Za-z0-9]", rest):
                return False
            named = named or bool(_ARTEFACT_PHRASE.search(part))
            continue
        ws = words(part.lower())
        if all(w in EVALUATIVE or w in STOP or w in GENERIC for w in ws):
            return False
        named = named or any(w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in ws)
    # "格式：随意 + 自由发挥" lists manners, not parts: some part must be a thing
    return named


def _names_version(item: str) -> bool:
    match = _NAME_VERSION_RE.match(item.strip())
    return match is not None and match.group(1).lower() not in _ORDINAL_NOUN


def _setting_segment(segment: str) -> tuple[bool, bool] | None:
    """(label names an artefact, value is concrete) for one ``label: value`` segment, or
    None when the segment is not a short setting."""
    match = _SETTING_RE.match(segment.strip())
    if not match:
        return None
    label, value = match["label"].strip(), match["value"].strip()
    if _FILE_LABEL_RE.match(label):
        return None  # "`docs/STANDARDS.md`: Style guides": an index entry, what a file holds
    if _PREFERENCE.search(label) or "prefer" in label.lower():
        return None
    value = _MD_LINK_RE.sub(r"\1", value)
    if _PENDING.search(value.lower()):
        return None  # "@livekit/agents (when available for Node.js)": not settled yet
    value = _TRAILING_NOTE_RE.sub("", value).strip()
    # "Vue 3 (Composition API + `<script setup>`) + Vite": a note inside a stack list
    # qualifies the item before it; it is no item of its own
    value = _INNER_NOTE_RE.sub("", value).strip() if _any(_OPENS, value) else value
    if not value:
        return None
    items = [i for i in _SETTING_ITEMS_RE.split(value) if i.strip()]
    # "Commits: single-line message, no Co-Authored-By tag": a value to use, then what it
    # rules out; the value is the replacement, on the same line. A value that is only
    # ruled out, or a negation inside an item, says what not to use.
    ruled_out = [i for i in items if _NEGATED_ITEM_RE.match(i.strip().lower())]
    items = [i for i in items if i not in ruled_out]
    if not items or _NEGATION.search(" ".join(items).lower()):
        return None
    # "单引号、行宽 200、尾随逗号": each item of an unspaced value is short, as each word
    # group of a spaced one is
    if any(len(CJK_RE.findall(i)) > _SETTING_MAX_UNSPACED for i in items) or len(items) > 6:
        return None
    # "FFmpeg subprocess: explicit arg list, `shell=False`", "Commits: short single-line
    # message, no Co-Authored-By tag": a quality may lead an item that names a thing of its
    # own when the setting pins its value elsewhere, in code or in what it rules out.
    pinned = bool(ruled_out) or any("`" in i for i in items)
    for item in items:
        if len(item.split()) > _SETTING_MAX_WORDS:
            return None
        item_words = words(item.lower())
        first = item_words[0] if item_words else ""
        if (
            pinned
            and (first in EVALUATIVE or first in _QUALITY_CUES)
            and len([w for w in item_words[1:] if w not in STOP]) >= 2
        ):
            continue
        if first and (
            first in _NOT_VALUE
            or first in _DELIBERATING  # "considering ESLint": a state, no value
            or first in IMPERATIVE
            or first in STOP
            or first in EVALUATIVE
            or first in _QUALITY_CUES
            or first in VAGUE_VERB
            or first in GENERIC
        ):
            return None
    if "`" in value or any(_names_version(item) for item in items) or _format_parts(label, value):
        # "背景：米黄色 `#f5f4ed`": a code value names the artefact; "构建: Maven + JDK 17+",
        # "Platform: Windows 11": a name with its version pins the tool, whatever the label
        label_domain = True
    elif CJK_RE.search(label):
        label_domain = bool(_ARTEFACT_PHRASE.search(label.replace(" ", "")))
    else:
        label_words = words(label.lower())
        if not label_words or len(label_words) > 4:
            return None
        label_domain = any(_label_artefact(w) for w in label_words)
    concrete = bool(re.search(r"[\d`_+/#@.A-Za-z-]", value))
    return label_domain, concrete


@functools.lru_cache(maxsize=4096)
def labelled_setting(claim: Claim) -> bool:
    """True when the line is one or more short ``label: value`` settings (see above).
    Memoised: the gradient gate asks it of the same claim at each of its tests."""
    raw = colon_label(claim.raw)
    if not _any(_COLONS, raw) or prohibition_label(raw):
        return False
    body = EMPHASIS_RE.sub("", raw.replace("`", "\x00")).replace("\x00", "`")
    segments = [s for s in _SETTING_SPLIT_RE.split(body) if s.strip()]
    parts = [_setting_segment(s) for s in segments]
    if not parts or parts[0] is None:
        return False
    # After the first setting, a verbless convention continues it ("**Models:** Value
    # types (`struct`) for data. `@Model` classes for SwiftData only.").
    for segment, part in zip(segments[1:], parts[1:], strict=True):
        if part is None and _convention_shape(segment.strip().rstrip(_STOPS).lower()):
            continue
        if part is None or not part[1]:
            return False
    return parts[0][1] and any(p[0] for p in parts if p is not None)


def _one_per(clause: str) -> bool:
    """ "每个组件单独一个文件": one of a thing per artefact; "每个人负责一个模块" assigns
    people and "每个文件一个想法" gives a file no artefact, so both sides name one."""
    match = _ONE_PER.match(clause)
    return (
        match is not None
        and bool(_ARTEFACT_PHRASE.search(match["each"]))
        and bool(_ARTEFACT_PHRASE.search(match["one"]))
    )


def _names_artefact(ws: list[str]) -> bool:
    return any(w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in ws)


def _convention_shape(clause: str, spanned: bool = False) -> bool:
    """ "Tabs for indentation", "camelCase for JSON keys", "Dates as YYYY-MM-DD", "All
    timestamps in UTC": a short verbless convention, a value for a named artefact (with
    ``spanned``, the line's code span names it: "Panics only in `main`")."""
    match = _CONVENTION.match(clause) or _RESTRICTION.match(clause)
    if not match:
        return False
    lead = words(match["value"])
    if lead and lead[0] in _QUANTIFIER and lead[0] not in _BARE_NEGATOR:
        lead = lead[1:]  # "All timestamps in UTC": the quantifier scopes the value
    if lead and lead[0] in STOP:
        return False
    value = [w for w in lead if w not in STOP]
    scope = [w for w in words(match["scope"]) if w not in STOP]
    only = match["scope"] == ""  # "named exports only": the restriction is the scope
    if (
        not value
        or not (scope or only)
        or any(w in IMPERATIVE or w in VAGUE_VERB for w in value[:1])
    ):
        return False
    coded = bool(CODE_TOKEN_RE.search(match["value"]))  # "snake_case for SQL columns"
    if not coded and any(w in EVALUATIVE or w in ABSTRACT or w in EVENT_NOUNS for w in value):
        return False
    # "Replies in Markdown", "Answers in Chinese": every reply is the situation, so a
    # generic word is a fine subject when the scope names the artefact to use.
    if scope and all(w in ABSTRACT or w in EVALUATIVE for w in scope):
        return False  # "Docs written with care": the scope is a quality
    prep = match["prep"].split()[0] if match["prep"] else ""
    if prep in _PLACE_PREP and not (spanned or CODE_TOKEN_RE.search(match["scope"])):
        return False  # "Logs under review": no named place
    if prep == "with" and not (_names_artefact(value) and _names_artefact(scope)):
        return False  # "Code review with the team": "with" joins two artefacts
    scoped = any(w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in scope)
    if not coded and any(w in GENERIC and not (scoped and w in _REPLY_NOUN) for w in value):
        return False
    if only and MODEL_NAME_RE.search(match["value"]):
        return True  # "ESP32-S3 exclusively", "Python3.12 only": a model or version named
    return spanned or any(w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in value + scope)


_CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")


def _code_replaces(claim: Claim, idx: int) -> bool:
    """ "`std.mem.trimEnd` (not `trimRight`)", "`uv`，不要用 `pip`": a clause that is only
    a code span, beside clauses that forbid other code spans, names the thing to use
    instead of them; the artefact's own domain is the situation. A forbidden quality
    ("`foo` (not stable)") names no alternative."""
    if "`" not in claim.raw:
        return False
    spans = [" ".join(s.lower().split()) for s in _CODE_SPAN_RE.findall(claim.raw)]
    if claim.clauses[idx].strip(" *_" + _STOPS) not in spans:
        return False
    others = [c for i, c in enumerate(claim.clauses) if i != idx]
    return all(any(span in c for span in spans) for c in others)


# "Python项目 → python-pro", "Go services → `go-reviewer`": one short case, an arrow, and
# the one named thing (an identifier: a code span, or a name joined by - _ . /) to use
# for it. "成功→存储" or "Auto-archive: After 30 days → weekly summary" name no such thing.
_ARROW_MAP_RE = re.compile(
    rf"^\W{{0,3}}(?P<case>[^→\n{COLON}]{{1,40}}?)\s*(?:→|->|=>)\s*"
    rf"(?P<name>`[^`\n]+`|[A-Za-z]\w*(?:[-./]\w+)+|[A-Za-z][a-z0-9]*_\w+)\s*[{FULL_STOP}]?$"
)
_ARROW_CASE_MAX_WORDS = 4


def arrow_mapping(claim: Claim) -> bool:
    """True when the line maps one case to the named thing to use for it (see above): the
    case is the situation, the name the direction."""
    if "→" not in claim.raw and ">" not in claim.raw:
        return False
    match = _ARROW_MAP_RE.match(claim.raw.strip())
    if match is None:
        return False
    case = match["case"].strip()
    case_words = words(case.lower())
    if len(case_words) > _ARROW_CASE_MAX_WORDS or len(CJK_RE.findall(case)) > _SETTING_MAX_UNSPACED:
        return False
    # the case names an artefact of the work ("心情不好 → hug-me" names none)
    if CJK_RE.search(case):
        return bool(_ARTEFACT_PHRASE.search(case.replace(" ", "")))
    return _names_artefact(case_words) or bool(CODE_TOKEN_RE.search(case))


def _setting_list(claim: Claim) -> bool:
    """ "2-space indentation, single quotes", "Tabs for indentation, LF line endings": a
    line of short verbless settings, one of them a measured or styled convention and
    each of the others a noun phrase naming an artefact, is the conventions to use."""
    if not 1 < len(claim.clauses) <= _SETTING_LIST_MAX or CJK_RE.search(claim.lower):
        return False
    if _any(_COLONS + _OPENS, claim.raw):
        return False  # a labelled setting, or a note beside one, is judged as such
    shaped = [
        styled(c) or _convention_shape(c.strip().rstrip(_STOPS), spanned="`" in claim.raw)
        for c in claim.clauses
    ]
    return any(shaped) and all(
        ok or named_phrase(c) for ok, c in zip(shaped, claim.clauses, strict=True)
    )


# "Vulnerability scanning of dependencies (cargo audit)", "代码格式化（`cargo fmt`）": a
# verbless practice whose closing note is the tool or command that does it; the note is
# what to run ("Appropriate use of smart pointers (Box, Rc, Arc)" names types, no tool;
# "Security scanning (regularly)" names none).
_PRACTICE_NOTE_RE = re.compile(
    rf"^(?P<head>[^{OPEN}{CLOSE}\n]+?)\s*[{OPEN}](?P<note>[^{OPEN}{CLOSE}\n]{{1,60}})[{CLOSE}]"
    rf"[\s{FULL_STOP}]*$"
)
# A name that runs letters into digits ("esp32-s3", "rp2040", "es2020"): a model or a
# version, a thing named ("phase 2" is two words, a step; "q3" a quarter).
MODEL_NAME_RE = re.compile(r"(?<![\w.-])[a-z]{2,}\d{2,}(?:[.-]?[a-z0-9]+)*(?![\w-])")
_CODE_NOTE_RE = re.compile(r"`[^`\n]+`")
_PRACTICE_MAX_WORDS = 5
_PRACTICE_MAX_UNSPACED = 12


def tooled_practice(claim: Claim) -> bool:
    """True when the line is a practice named without a verb and the tool that does it
    (see ``_PRACTICE_NOTE_RE``)."""
    match = _PRACTICE_NOTE_RE.match(EMPHASIS_RE.sub("", claim.raw.strip()))
    if match is None:
        return False
    note = match["note"].strip()
    lead = words(note.lower())[:1]
    if not (_CODE_NOTE_RE.fullmatch(note) or (lead and lead[0] in TOOL)):
        return False
    head = match["head"].strip(" -*#>").lower()
    if _NEGATION.search(head) or _LIMIT.search(head):
        return False
    if CJK_RE.search(head):
        count = len(CJK_RE.findall(head))
        rest = _UNSPACED_EVALUATIVE.sub(head)
        if not 2 <= count <= _PRACTICE_MAX_UNSPACED or len(CJK_RE.findall(rest)) != count:
            return False
        return bool(_PRACTICE_END.search(head))
    ws = [w for w in words(head) if w not in STOP]
    if not ws or len(ws) > _PRACTICE_MAX_WORDS or ws[0] in IMPERATIVE or ws[0] in VAGUE_VERB:
        return False
    if any(w in EVALUATIVE or w in ABSTRACT or w in GENERIC or w in _COPULA for w in ws):
        return False
    # "Dependency auditing", "scanning of dependencies": the practice is named with what
    # it acts on, a singular modifier or an "of" object ("Tests failing" is a plural
    # subject and its state).
    every = words(head)
    for at, w in enumerate(every):
        if not w.endswith("ing") or len(w) <= 5 or w in _STATE_PARTICIPLE or w in _DELIBERATING:
            continue
        before = every[at - 1] if at else ""
        if before in ARTEFACT and not before.endswith("s"):
            return True
        if every[at + 1 : at + 2] == ["of"]:
            return True
    return False


def normative_clauses(claim: Claim) -> list[tuple[int, str]]:
    """(index, verb) of clauses in that normative present, subject an artefact; a
    ``Label: `value``` line ("Model string: `claude-sonnet-4-5`") names the value to use."""
    if (
        len(claim.clauses) > 1
        and (LABELLED_CODE_RE.match(colon_label(claim.raw)) or labelled_value(claim))
        and not prohibition_label(claim.raw)
    ):
        return [(1, "use")]
    if len(claim.clauses) > 1 and labelled_setting(claim):
        return [(len(claim.clauses) - 1, "use")]
    if len(claim.clauses) == 2 and arrow_mapping(claim):
        return [(1, "use")]
    if len(claim.clauses) > 1 and tooled_practice(claim):
        return [(len(claim.clauses) - 1, "run")]
    if _setting_list(claim):
        return [(idx, "use") for idx in range(len(claim.clauses))]
    found = []
    for idx, clause in enumerate(claim.clauses):
        if (
            _PASSIVE_NORM.search(clause)
            or arranged(clause, claim.lower, "`" in claim.raw)
            or standing_passive(clause)
        ):
            found.append((idx, "prefer"))
            continue
        if has_limit(clause):
            found.append((idx, "limit"))
            continue
        if _PLACED.match(clause) or _PLACED_FILE.search(clause):
            found.append((idx, "put"))
            continue
        if quantified_copula(clause) or naming_convention(clause):
            found.append((idx, "use"))
            continue
        if len(claim.clauses) > 1 and unspaced_setting(claim, idx):
            found.append((idx, "use"))
            continue
        forbids = len(claim.clauses) > 1 and rest_forbids(claim, idx)
        if (len(claim.clauses) == 1 or forbids) and (
            _convention_shape(clause, spanned="`" in claim.raw)
            or (len(claim.clauses) > 1 and named_phrase(clause) and _NAMED_RE.search(claim.raw))
            or styled(clause)
            or _one_per(clause)
            or (forbids and _code_replaces(claim, idx))
        ):
            found.append((idx, "use"))
            continue
        match = _NORMATIVE.match(clause)
        if match and any(
            w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(match["subject"])
        ):
            found.append((idx, match["verb"]))
            continue
        verb = present_norm(clause, spanned="`" in claim.raw, replaces=forbids)
        if verb is None and forbids:
            verb = present_choice(clause)
        if verb is not None:
            found.append((idx, verb))
    return found
