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
from collections.abc import Iterator
from dataclasses import replace

from shared.language import lexicon
from shared.language.claims import Claim, analyse, direction_clauses, find_trigger, is_vague
from shared.language.claims.claim import CODE_SPAN_RE, words
from shared.language.claims.norms import colon_label, prohibition_label
from shared.language.lexicon.script import CJK_RE
from shared.language.punct import (
    CLOSE,
    COLON,
    FULL_STOP,
    NUMBER_MARK,
    OPEN,
    SENTENCE_END_UNSPACED,
)
from shared.review.gates.base import Decision, Finding, ReviewContext
from shared.review.gates.predicates import GRADIENT_RULE, NO_DIRECTION, gradient_test
from shared.review.gates.rules import RULES

RULE_ID = GRADIENT_RULE

_GOAL_LABEL = lexicon.matcher("goal_label")
_VALUE_LABEL = lexicon.matcher("value_label")
_REMEDY_LABEL = lexicon.words("remedy_label")
_NEGATION = lexicon.matcher("negation")
_BARE_NEGATOR = lexicon.words("bare_negator", spaced=True)


# "**Styles:** Tailwind only, no CSS modules", "**Tests** — Vitest + Testing Library",
# "3. **测试验证**：提交前运行 `pnpm test`": a house style's leading label (bold, or a short
# "Label:"), then its rule. The label only names the rule's domain, so a body that passes
# by itself makes the line pass; a label cut from the body's own words can hide it.
_LEADING_LABEL_RE = re.compile(
    rf"^[^\w*`]{{0,4}}(?:\d{{1,2}}[{NUMBER_MARK}]\s*)?(?:\*\*(?P<bold>[^*\n]{{1,40}}?)\s*[{COLON}]?\*\*"
    rf"\s*(?:[{COLON}]|[-—–]+(?=\s))?|(?P<plain>[^{COLON}`*\n]{{1,30}}?)\s*[{COLON}])\s*(?=\S)"
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
_TRAILING_NOTE_RE = re.compile(
    rf"(?<=\S)\s*[{OPEN}][^{OPEN}{CLOSE}\n]{{1,120}}[{CLOSE}][\s{FULL_STOP}]*$"
)
_NOTE_END = " " + lexicon.chars("punct:stop")
_CLOSES = tuple(lexicon.chars("punct:close"))
_VAGUE_HEDGE = lexicon.matcher("vague_hedge")
_HEDGE = lexicon.matcher("hedge")
_APPROPRIATE = lexicon.matcher("appropriate")
_PENDING = lexicon.words("pending", spaced=True)


_CONDITION_WORDS = lexicon.words("condition_word", spaced=True)


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
    if not claim.raw.rstrip(_NOTE_END).endswith(_CLOSES):
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
_INNER_NOTE_RE = re.compile(rf"\s*[{OPEN}]([^{OPEN}{CLOSE}\n]{{1,40}})[{CLOSE}]\s*(?=\S)")


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
_SENTENCE_END_RE = re.compile(
    rf"(?<=[^\s.]{{2}}[.!?])\s+(?=[A-Z*`])|(?<=[{SENTENCE_END_UNSPACED}])(?=\S)"
)


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


AS_WRITTEN = "as written"


def _readings(claim: Claim) -> Iterator[tuple[str, Claim]]:
    """The line's rule read without a leading label, as its first sentence alone, without
    a closing note, with its inner notes inlined, or a combination of these: (name,
    reading) pairs, in the order they are tried, each made only when asked for."""
    body = _labelled_body(claim)
    bases = [(AS_WRITTEN, claim)]
    if body is not None and body.clauses:
        bases.append(("without its label", body))
        yield bases[-1]
    first = _first_sentence(claim)
    if first is not None:
        bases.append(("its first sentence", first))
        yield bases[-1]
    for name, reading in bases:
        base = "" if name == AS_WRITTEN else f"{name}, "
        head = _without_note(reading)
        if head is not None:
            yield f"{base}without the closing note", head
        inlined = _note_inlined(reading)
        if inlined is not None:
            yield f"{base}with its notes inlined", inlined


# "你是一个深度知识管理专家，用来帮助用户…": a role given to the agent, which the rest of
# the line describes; it directs nothing a next session would do
_PERSONA = lexicon.matcher("persona")
# "EncoreHub is an AI chat desktop app …", "这是一个 Monorepo 项目…": a description of what the
# project is, whose later clauses ("built on …", "使用 … 开发") describe it, direct nothing
_DESCRIPTION = lexicon.matcher("description_lead")
_MODAL = lexicon.matcher("modal", spaced=True)


# "Fix root cause with minimal impact", "Use meaningful names": a maxim any assistant could
# be told, where the gradient test finds a rule. A code span, a path or a file, a figure, a
# situation of its own or, in a line of another script, a name in Latin letters beside the
# maxim ("keep-alive") ties it to this project, and the line passes as the test read it.
_GENERIC_MAXIM = lexicon.matcher("generic_maxim", prefilter=True)  # searched on every line
_MAXIM = RULES["gradient.generic-maxim"].finding()
_LIST_NUMBER_RE = re.compile(r"^\W*\d+\W")
_PROJECT_THING_RE = re.compile(r"`|\d|[\w-]+/[\w.-]+|\.\w{2,4}\b")
_LATIN_NAME_RE = re.compile(r"[A-Za-z]{2,}")


def _generic_maxim(claim: Claim) -> bool:
    raw = claim.raw
    found = _GENERIC_MAXIM.search(raw.lower())
    if found is None:
        return False
    if _PROJECT_THING_RE.search(_LIST_NUMBER_RE.sub("", raw)) or find_trigger(claim) is not None:
        return False
    rest = raw[: found.start()] + raw[found.end() :]
    return not (CJK_RE.search(raw) and _LATIN_NAME_RE.search(rest))


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a board line that fails the gradient test (see module docstring)."""
    return decide(claim, ctx).finding


def decide(claim: Claim, ctx: ReviewContext) -> Decision:
    """The gradient test's verdict, and, for a line that passes only as another reading
    words it, which reading passed and the rule the line as written failed."""
    if _PERSONA.match(claim.text) and find_trigger(claim) is None:
        return Decision(NO_DIRECTION)
    if (
        _DESCRIPTION.match(claim.text)
        and find_trigger(claim) is None
        and not _MODAL.found(claim.lower)
    ):
        return Decision(NO_DIRECTION)
    found = gradient_test(claim)
    if found is None:
        return Decision(_MAXIM if _generic_maxim(claim) else None)
    tried = False
    for name, reading in _readings(claim):
        if gradient_test(reading) is None:
            # the rule as this reading words it passes, unless it is a generic maxim
            if _generic_maxim(claim):
                return Decision(_MAXIM)
            return Decision(None, passed=name, failed=found.rule)
        tried = True
    # read more than one way, the line is rejected as written
    return Decision(replace(found, reading=AS_WRITTEN) if tried else found)
