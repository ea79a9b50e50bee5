"""gradient: a broadcast line needs a trigger, a direction and an activation.

* trigger — a recognisable situation: "when/if/before/after/whenever/once ...",
  a leading scope ("With <Person>, ...", "For deploy questions, ..."), or
  每当/当/如果/遇到/...时; generic situations ("when answering questions", "if
  needed") do not count. On the board the situation may be implicit in the line's
  own domain when its direction acts on a concrete artefact ("Prefer pnpm over npm
  for installs", "Use parameterized SQL queries only"); the test is structural
  (``lexicon.domain_concrete``): a code span, path or identifier; an artefact word
  (English or Chinese); a product or tool name; a labelled value ("Package manager:
  yarn", "主要语言：中文") or a line of short settings ("**Indent**: 4 spaces.",
  "**Linter:** ruff | **Tests:** pytest"); a "use/prefer X for/over Y" choice; a verbless convention
  ("Tabs for indentation"); a stack list of named tools, a bracketed note inside it
  qualifying its item ("**前端**：Vue 3 (Composition API) + Vite + …"); a kind of a mass
  artefact in a standing passive ("Shared code is created as a package in `packages/`");
  what every artefact of a kind needs ("Every animation needs a `useReducedMotion`
  fallback"); a numeric limit; or an imperative acting on a thing rather
  than on a quality, an abstraction or a person ("Write clean code", "简单优先",
  "请询问我" name none);
* direction — a clause, other than the trigger, led by an imperative verb or a modal
  of obligation (should/must/always/never, "are to be started" ...; 应该/先/要/不要/直接,
  a bare 应 or 须 after the subject: "返回值应为节点名", "须由用户启动" ...); on the board a
  bare pointer ("See `docs/x.md` for Y") or a line labelled as a goal or a principle
  ("**Goal**: …", "**核心原则**：…") gives none;
* activation — a ``[[slug]]`` pointer, a ``Details: <path>``, or a self-contained
  action: a concrete verb with an object, not a vague one ("be careful", "use
  judgment"), not hedged ("where appropriate", "updated appropriately", "合理使用"),
  not an object left open ("Create necessary types", "创建必要的类型"; a numeric limit on
  the line bounds a quality: "Keep functions short (≤40 lines)"), not only a quality of a bare
  artefact ("Write descriptive commit messages"), not an unnamed procedure or norm
  ("follow the usual checklist", "follow the repository's patterns", "基于最佳实践"; a
  named guide is one: "Follow PEP 8", "遵循 PEP8 代码规范") and not
  content left to the following lines ("…, including:").
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    Claim,
    analyse,
    complement_only,
    direction_clauses,
    domain_concrete,
    find_trigger,
    has_limit,
    hedged_after,
    is_vague,
    labelled_setting,
    normative_clauses,
    object_follows,
    unnamed_skill,
    unnamed_standard,
)
from shared.language.claims.claim import CODE_SPAN_RE, CODE_TOKEN_RE, strip_label, words
from shared.language.claims.norms import colon_label, prohibition_label
from shared.language.claims.vocabulary import ARTEFACT, EVALUATIVE, IMPERATIVE
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "gradient"

_LIST_OPENER = lexicon.matcher("list_opener")
_BARE_POINTER = lexicon.matcher("bare_pointer")
_GOAL_LABEL = lexicon.matcher("goal_label")
_VALUE_LABEL = lexicon.matcher("value_label")
_REMEDY_LABEL = lexicon.words("remedy_label")
_CODE_CONTRAST = lexicon.matcher("code_contrast")
_VERBLESS_CONTRAST = lexicon.matcher("verbless_contrast")
# "背景色 `#F2F2F7`。", "单次识别 **8秒超时**。", "Line length `100`": a short noun label
# then its value (a code span, or a bold value with a number), with no colon, is a setting
# as "Label: value" is; a pointer word ("See `x`", "参见 `x`") labels nothing.
_SPAN_SETTING_RE = re.compile(
    r"^\W{0,3}(?P<label>[\u4e00-\u9fff]{2,6}|[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2})"
    r"\s*(?:`[^`\n]+`|\*\*[^*\n]*\d[^*\n]*\*\*)[\s.。]*$"
)
_NEGATION = lexicon.matcher("negation")
_BARE_NEGATOR = lexicon.words("bare_negator", spaced=True)
_SHOUT = lexicon.words("shout", spaced=True)
_POINTER_WORD = frozenset({"see", "cf", "refer", "read", "check", "view", "visit", "consult"})
_STATE_WORD = frozenset({"current", "currently", "now", "latest", "version", "status", "today"})
# a Chinese label that describes ("未净化的"), negates or points ("参见", "详见") is no noun
_NOT_A_LABEL_RE = re.compile(r"[的未不没见参]|当前|目前|版本|进度|状态")
_VERSION_VALUE_RE = re.compile(r"`v?\d+(?:\.\d+)+[^`]*`")

MISSING_TRIGGER = Finding(
    RULE_ID,
    f"{RULE_ID}: missing concrete trigger",
    "the line names no recognizable situation that would activate it in the next session",
)
NO_DIRECTION = Finding(
    RULE_ID,
    f"{RULE_ID}: no action direction",
    "the line gives no concrete direction for the next action",
)
NO_ACTIVATION = Finding(
    RULE_ID,
    f"{RULE_ID}: missing skill or pointer activation",
    "the line's action is neither self-contained nor backed by a [[slug]] or Details: pointer",
)


def judge(
    claim: Claim, *, require_activation: bool = True, implicit_domain: bool = True
) -> Finding | None:
    """The three-part gradient test on one claim; None when it passes.

    With ``implicit_domain`` a line without a concrete explicit trigger still has one
    when its direction acts on a concrete artefact: the situation is implicit in the
    line's own domain ("Prefer pnpm over npm for installs").
    """
    found = find_trigger(claim)
    trig = None if found is None else found[0]
    directions = direction_clauses(claim, trig)
    if implicit_domain and not directions:
        directions = normative_clauses(claim)
    elif (
        implicit_domain
        and all(idx == 0 for idx, _ in directions)
        and claim.clauses[0] not in _REMEDY_LABEL
        and labelled_setting(claim)
    ):
        # "Deploy: `npx vercel --prod --yes`", "**Indent**: 4 spaces.": a verb or a noun
        # that labels a setting names its domain; the direction is to use the value
        # ("**Fix:** `…`" records one problem's remedy instead).
        directions = [*directions, *(d for d in normative_clauses(claim) if d[0] != 0)]
    concrete = found is not None and found[1]
    if (
        implicit_domain
        and not directions
        and "`" in claim.raw
        and _VERBLESS_CONTRAST.found(claim.raw)
    ):
        return None  # "Casts in `casts()`, not `$casts`": what to write against what it replaces
    if implicit_domain and not directions and _span_setting(claim):
        return None
    if not concrete and not (implicit_domain and directions and domain_concrete(claim, directions)):
        return MISSING_TRIGGER
    if not directions or (require_activation and _states_no_action(claim, directions, concrete)):
        return NO_DIRECTION
    if not require_activation or claim.has_pointer or claim.has_details:
        return None
    if implicit_domain and claim.clauses[0] not in _REMEDY_LABEL and labelled_setting(claim):
        return None  # "`/internal/**` endpoints: `X-Api-Key` only": the value is the action
    if unnamed_skill(claim, trig) or _LIST_OPENER.search(claim.lower):
        return NO_ACTIVATION  # an unnamed procedure, or content left to the next lines
    last, cue = directions[-1]
    if last == len(claim.clauses) - 1 and object_follows(claim.raw, claim.clauses[last], cue):
        return None  # "Before committing, run:": the object is the list below
    if "`" in claim.raw and _CODE_CONTRAST.found(claim.raw):
        return None  # "`fetch('api/x')` not `fetch('/api/x')`": what to write is spelled out
    marked = {idx for idx, _ in directions} | ({trig} if trig is not None else set())
    # Beside a prohibition an unnamed standard is the replacement ("No print statements
    # (use proper logging)"): what it replaces says which.
    forbids = any(
        _NEGATION.match(c) or next(iter(words(c)), "") in _BARE_NEGATOR for c in claim.clauses
    )
    # "Keep functions short (target ≤40 lines)", "函数保持简短（不超过 40 行）": a numeric
    # limit on the line makes the quality asked for a bound one can check.
    if any(has_limit(c) for c in claim.clauses):
        return None
    if all(
        is_vague(claim.clauses[idx], cue)
        or hedged_after(claim.clauses, idx, marked)
        # "Use efficient `Map` lookups": a code span names which one
        or (
            not forbids
            and "`" not in claim.raw
            and unnamed_standard(claim.clauses[idx], cue)
            and not _means_named(claim.clauses[idx])
        )
        for idx, cue in directions
    ):
        return NO_ACTIVATION
    # "Keep commit messages concise but descriptive": a line that only asks an artefact
    # to have qualities leaves how to the reader.
    if len(claim.clauses) == 1 and all(complement_only(claim.clauses[i], c) for i, c in directions):
        return NO_ACTIVATION
    return None


# "Write comprehensive tests using pytest", "Implement proper error handling with custom
# exception classes": the means named after the standard say how to meet it.
_MEANS_RE = re.compile(r"\b(?:using|with|via|through)\s+(?P<means>.+)$")


def _means_named(clause: str) -> bool:
    found = _MEANS_RE.search(clause)
    return found is not None and any(
        w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(found["means"])
    )


def _span_setting(claim: Claim) -> bool:
    """A short noun label and its value with no colon (see ``_SPAN_SETTING_RE``)."""
    found = _SPAN_SETTING_RE.match(claim.raw)
    if found is None:
        return False
    label = found["label"].lower()
    if _BARE_POINTER.match(label) or _VALUE_LABEL.match(label) or _NOT_A_LABEL_RE.search(label):
        return False
    if _VERSION_VALUE_RE.search(claim.raw):
        return False  # "版本 `1.2.3`": a version is a state, not a setting
    return not any(
        w in IMPERATIVE or w in _POINTER_WORD or w in EVALUATIVE or w in _STATE_WORD
        for w in words(label)
    )


def _states_no_action(claim: Claim, directions: list[tuple[int, str]], concrete: bool) -> bool:
    """On the board, a line that only points, or is labelled as what is wanted, directs
    nothing: "See `docs/testing.md` for test conventions" (a bare pointer, with no
    situation of its own), "**Goal**: Save tokens." (a goal with no check or number),
    "**Core Principle**: …" (a value, with no situation and no code artefact)."""
    if not concrete and all(_BARE_POINTER.match(claim.clauses[idx]) for idx, _ in directions):
        return True
    raw = colon_label(claim.raw)  # "**Core principle** — …" is labelled as "**…**:" is
    if _GOAL_LABEL.match(raw) and not _measurable(claim):
        return True
    return not concrete and bool(_VALUE_LABEL.match(raw)) and not _names_code(claim)


def _names_code(claim: Claim) -> bool:
    # "工程原则：SOLID、DRY": a principle's acronym is the slogan itself, not code.
    return any(
        m.group(0).strip("`") not in _SHOUT for m in CODE_TOKEN_RE.finditer(strip_label(claim.raw))
    )


def _measurable(claim: Claim) -> bool:
    """ "**Goal**: `pnpm build` passes with zero warnings", "reduce cold start under
    200ms": a goal that names its check or a number is a target one can test."""
    body = strip_label(claim.raw)
    return "`" in body or any(ch.isdigit() for ch in body)


# "**Styles:** Tailwind only, no CSS modules", "**Tests** — Vitest + Testing Library",
# "3. **测试验证**：提交前运行 `pnpm test`": a house style's leading label (bold, or a short
# "Label:"), then its rule. The label only names the rule's domain, so a body that passes
# by itself makes the line pass; a label cut from the body's own words can hide it.
_LEADING_LABEL_RE = re.compile(
    r"^[^\w*`]{0,4}(?:\d{1,2}[.)．、]\s*)?(?:\*\*(?P<bold>[^*\n]{1,40}?)\s*[:：]?\*\*"
    r"\s*(?:[:：]|[-—–]+(?=\s))?|(?P<plain>[^:：`*\n]{1,30}?)\s*[:：])\s*(?=\S)"
)


def _labelled_body(claim: Claim) -> Claim | None:
    """The rule after a leading label, when the label is neutral: a goal or principle
    label states a value, a remedy label one problem's fix, a prohibition label
    ("**No Hand-Editing:** …") forbids what its body describes; each is judged with its
    label."""
    match = _LEADING_LABEL_RE.match(claim.raw)
    if match is None:
        return None
    label = (match["bold"] or match["plain"] or "").strip().lower()
    raw = colon_label(claim.raw)
    if (
        not label
        or _GOAL_LABEL.match(raw)
        or _VALUE_LABEL.match(raw)
        or label in _REMEDY_LABEL
        or prohibition_label(claim.raw)
        or _NEGATION.match(label)
        or next(iter(words(label)), "") in _BARE_NEGATOR
    ):
        return None
    body = claim.raw[match.end() :]
    # "**Package Manager**: Using Bun for …": a decision recorded as what is in use
    # says what to use
    if body[:6].lower() == "using " and body[6:7].strip():
        body = "Use " + body[6:]
    return analyse(body)


# "Storybook for UI components (`pnpm storybook`)", "端到端测试用 Playwright（`pnpm e2e`）": a
# closing note in brackets gives an example, a command or a reason for the rule before
# it; cut off as a clause of its own it leaves a one-clause convention in two pieces.
_TRAILING_NOTE_RE = re.compile(r"(?<=\S)\s*[(（][^()（）\n]{1,120}[)）][\s.。]*$")
_VAGUE_HEDGE = lexicon.matcher("vague_hedge")
_HEDGE = lexicon.matcher("hedge")
_APPROPRIATE = lexicon.matcher("appropriate")
_PENDING = lexicon.words("pending", spaced=True)


_CONDITION_WORDS = frozenset({"when", "if", "until", "once"})


def _defers(note: str, *, sentence: bool = False) -> bool:
    """True when the text hedges the rule or puts it off. A bracketed note that opens a
    condition ("(when available)") puts it off; a sentence of its own may state one
    ("Be consistent once chosen.")."""
    pending = _PENDING - _CONDITION_WORDS if sentence else _PENDING
    return bool(
        _VAGUE_HEDGE.search(note)
        or _HEDGE.search(note)
        or _APPROPRIATE.search(note)
        or any(w in pending for w in words(note))
    )


def _without_note(claim: Claim) -> Claim | None:
    """The line without its closing bracketed note, unless the note hedges or defers
    the rule ("(where appropriate)", "(when available)"): that note is part of it."""
    if not claim.raw.rstrip(" .。").endswith((")", "）")):
        return None
    match = _TRAILING_NOTE_RE.search(claim.raw)
    if match is None:
        return None
    if _defers(match.group(0).lower()):
        return None
    head = analyse(claim.raw[: match.start()])
    return head if head.clauses else None


# "优先使用结构化输出 (Pydantic) 而非文本解析": a short note inside the line names the
# thing the word before it means; split off as a clause of its own it leaves that word
# without its name.
_INNER_NOTE_RE = re.compile(r"\s*[(（]([^()（）\n]{1,40})[)）]\s*(?=\S)")


def _note_inlined(claim: Claim) -> Claim | None:
    """The line with its inner notes read as part of the clause they sit in, unless a
    note hedges or defers the rule (as for ``_without_note``)."""
    spans = [m.span() for m in CODE_SPAN_RE.finditer(claim.raw)]
    notes = [
        m
        for m in _INNER_NOTE_RE.finditer(claim.raw)
        if not any(a <= m.start() < b for a, b in spans)  # a bracket in code is code
    ]
    if not notes:
        return None
    if any(_defers(match.group(1).lower()) for match in notes):
        return None
    raw = claim.raw
    for match in reversed(notes):
        raw = f"{raw[: match.start()]} {match.group(1)} {raw[match.end() :]}"
    inlined = analyse(raw)
    return inlined if inlined.clauses else None


# "Package manager: npm, unless the human tells you otherwise. Be consistent once
# chosen.": a sentence after the rule that only exhorts adds nothing to act on, and
# takes nothing away from the rule before it.
_SENTENCE_END_RE = re.compile(r"(?<=[^\s.]{2}[.!?])\s+(?=[A-Z*`])|(?<=[。！？])(?=\S)")


def _first_sentence(claim: Claim) -> Claim | None:
    parts = _SENTENCE_END_RE.split(claim.raw.strip(), maxsplit=1)
    if len(parts) < 2 or _defers(parts[1].lower(), sentence=True):
        return None  # "Use Redis. Only where appropriate.": the rest hedges the rule
    first = analyse(parts[0])
    if not first.clauses:
        return None
    if _NEGATION.search(first.lower):
        # "Don't ask permission. Just do it.": after a prohibition, a vague direction is
        # what the line asks instead, and it asks nothing concrete
        rest = analyse(parts[1])
        found = find_trigger(rest)
        asked = direction_clauses(rest, None if found is None else found[0])
        if asked and all(is_vague(rest.clauses[idx], cue) for idx, cue in asked):
            return None
    return first


def _readings(claim: Claim) -> list[Claim]:
    """The line's rule read without a leading label, as its first sentence alone, without
    a closing note, with its inner notes inlined, or a combination of these."""
    body = _labelled_body(claim)
    out = [body] if body is not None and body.clauses else []
    first = _first_sentence(claim)
    if first is not None:
        out.append(first)
    for reading in (claim, *out):
        head = _without_note(reading)
        if head is not None:
            out.append(head)
        inlined = _note_inlined(reading)
        if inlined is not None:
            out.append(inlined)
    return out


# "你是一个深度知识管理专家，用来帮助用户…": a role given to the agent, which the rest of
# the line describes; it directs nothing a next session would do
_PERSONA_RE = re.compile(
    r"^\W*(?:你是|您是|你现在是)(?:一个|一名|一位)?[^，。,]{0,24}?(?:专家|助手|工程师|架构师|顾问|"
    r"开发者|程序员|导师|伙伴|管家|分析师|设计师|编辑|作家|编剧)"
)


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a board line that fails the gradient test (see module docstring)."""
    if _PERSONA_RE.match(claim.text) and find_trigger(claim) is None:
        return NO_DIRECTION
    found = judge(claim)
    if found is None:
        return None
    if any(judge(reading) is None for reading in _readings(claim)):
        return None
    return found
