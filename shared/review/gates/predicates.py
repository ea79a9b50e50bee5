"""The tests more than one gate applies, so that no gate module imports another.

* ``gradient_test``: the gradient's three-part test (a trigger, a direction and an
  activation; the gradient gate's docstring says what each is). The gradient gate applies
  it to a board line and its readings, the dossier gate to an instruction-shaped dossier
  line, asking for no activation; its findings are the gradient's.
* ``memory_maintenance``: the self-reference test (the self-reference gate's docstring).
  The self-reference gate rejects what it finds; inner-outer and status-shape leave such
  a line to that diagnosis.

A gate module imports ``base``, this module and the language layer, never another gate;
``registry`` alone names them all (``tests/test_layering.py`` holds both to it).
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    PATH_RE,
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
    strip_label,
    trigger_clause,
    unnamed_skill,
    unnamed_standard,
)
from shared.language.claims.claim import CODE_SPAN_RE, CODE_TOKEN_RE, words
from shared.language.claims.norms import colon_label
from shared.language.claims.vocabulary import ARTEFACT, EVALUATIVE, IMPERATIVE
from shared.language.lexicon.script import CJK, CJK_RE, simplified
from shared.language.prefilter import guarded
from shared.language.punct import COLON, FULL_STOP
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.rules import RULES

# ------------------------------------------------------------ the gradient's test
GRADIENT_RULE = "gradient"

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
    rf"^\W{{0,3}}(?P<label>{lexicon.source('span_label')})"
    rf"\s*(?:`[^`\n]+`|\*\*[^*\n]*\d[^*\n]*\*\*)[\s{FULL_STOP}]*$"
)
_NEGATION = lexicon.matcher("negation")
_BARE_NEGATOR = lexicon.words("bare_negator", spaced=True)
_SHOUT = lexicon.words("shout", spaced=True)
# a label word that points ("See", "参见") or names a state ("version", "当前") is no noun
_NOT_A_LABEL_WORD = lexicon.words("not_a_label", spaced=True)
_NOT_A_LABEL = lexicon.matcher("not_a_label", spaced=False)
_VERSION_VALUE_RE = re.compile(r"`v?\d+(?:\.\d+)+[^`]*`")

MISSING_TRIGGER = RULES["gradient.missing-concrete-trigger"].finding()
NO_DIRECTION = RULES["gradient.no-action-direction"].finding()
NO_ACTIVATION = RULES["gradient.missing-skill-or-pointer-activation"].finding()


def gradient_test(
    claim: Claim, *, require_activation: bool = True, implicit_domain: bool = True
) -> Finding | None:
    """The gradient's three-part test on one claim (trigger, direction, activation:
    the gradient gate's docstring says what each is); None when it passes.

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
_MEANS_RE = re.compile(lexicon.source("means_named"))


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
    if _BARE_POINTER.match(label) or _VALUE_LABEL.match(label) or _NOT_A_LABEL.search(label):
        return False
    if _VERSION_VALUE_RE.search(claim.raw):
        return False  # "版本 `1.2.3`": a version is a state, not a setting
    return not any(
        w in IMPERATIVE or w in _NOT_A_LABEL_WORD or w in EVALUATIVE for w in words(label)
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


# ------------------------------------------------------------ the self-reference test
_EXTERNAL = lexicon.matcher("external", prefilter=True)

_MEMORY = lexicon.matcher("memory_artefact", prefilter=True)
# "## Memory Bank Structure", "## 记忆管理": a heading naming the memory or its upkeep
_MEMORY_SECTION = lexicon.matcher("memory_section")
_UPKEEP_SECTION = lexicon.matcher("upkeep_section")
_FOLLOW_OWN_RULES = lexicon.matcher("follow_own_rules")
_FRAGMENT = lexicon.matcher("fragment")
_CODE_FRAGMENT = lexicon.matcher("code_fragment")
# The direction edits the memory file itself: maintenance whatever else the line says.
_SELF_EDIT = lexicon.matcher("self_edit", prefilter=True)
# Template placeholders ("[Tribal knowledge 1]", "{简要说明该功能做什么}", "_User
# preferences will be learned_"): an unfilled form, not memory. Checkboxes, modal tags,
# [[pointers]] and markdown links are not placeholders, nor is a literal tag whose key
# and value are upper-case names ("[MODE: RESEARCH]", "`[MODE: MODE_NAME]`"): a format
# to write out as it stands, in any language.
_TAG_LITERAL = rf"(?![A-Z][A-Z0-9_-]*\s*[{COLON}]\s*(?:[A-Z][A-Z0-9_-]*|[{CJK}]+)\])"
_PLACEHOLDER = lexicon.matcher(
    "placeholder_prompt",
    neutral=(
        # a bracket in quotation marks ("[IMAGE 1]:") is a marker quoted as written
        rf"(?<![\[\"“'])\[(?![ xX✓]\]){_TAG_LITERAL}(?!\[)[^\[\]\n]*\s[^\[\]\n]*\](?![(\[\]])"
        # "/{模块}/{接口}": a route parameter of a path, not a form to fill
        rf"|(?<!/)\{{[^{{}}\n]*[{CJK}][^{{}}\n]*\}}"
    ),
)
# "此规则是强制性的", "本文件为 … 提供指导": the line points at its own rules or file.
_DEMONSTRATIVE = lexicon.matcher("demonstrative")
# "Purpose: capture recurring failure modes ...": a line that states what its file or
# section is for describes the memory artefact, not foreground behaviour.
_PURPOSE = lexicon.matcher("purpose_label")
# "记录会影响后续实现方式的决策", "Record decisions that affect …": a line that opens by
# telling its reader to record a kind of knowledge (decisions, lessons, places to be
# careful) keeps the memory file; recording the work itself ("Record session start")
# does not.
_RECORD_LEAD = lexicon.matcher("record_lead")
_KNOWLEDGE_KIND = lexicon.matcher("knowledge_kind")
# "Read and strictly follow ../AGENTS.md": an instruction or memory file named at the end
# of a path is still that file (file names, the same in every language), and so is one
# whose name only ends in such a stem ("docs/.local-progress.md", "team_lessons.md").
_STEMS = (
    r"claude|agents|memory|gemini|lessons|learnings|soul|identity|scratchpad|"
    r"copilot-instructions|activecontext|productcontext|techcontext|systempatterns|"
    r"projectbrief|progress|(?:claude|gemini|agents?|copilot|cursor|codex)[-_]notes"
)
# the rule files of the other agent tools: Trae's, Cursor's, Copilot's, Kiro's
_RULES_DIR = r"\.trae/rules/|\.cursor/rules/|\.kiro/steering/"
_RULES_FILE = (
    r"\.cursorrules\b|\.windsurfrules\b|\.clinerules\b|\b(?:project|user)_rules\.md\b"
    rf"|{_RULES_DIR}|\b[\w-]+\.instructions\.md\b"
)
_RULES_DIR_RE = re.compile(_RULES_DIR)
_INSTRUCTION_PATH_RE = re.compile(rf"(?:^|[/\s`(._-])(?:{_STEMS})\.md\b|{_RULES_FILE}")
# "把新学到的偏好写进 SOUL.md", "When the user corrects you, add it to lessons.md": writing
# into a memory file keeps that file, whoever the trigger names.
_MEMORY_FILE_RE = re.compile(
    rf"(?<![a-z0-9_.-])(?:[a-z0-9_.-]*[-_.])?(?:{_STEMS})\.md\b|{_RULES_FILE}"
)
# Most lines name no memory file: one scan for the literals every such name holds
# comes first (a tenth of the regex's own search).
_MEMORY_FILE = guarded(_MEMORY_FILE_RE)
_RECORD_VERB = lexicon.matcher("record_verb")
# A file's name is not the user's world: "读取 SOUL.md 和 USER.md" names no user.
_FILE_NAME_RE = re.compile(r"(?<![a-z0-9_.-])[a-z0-9_.-]+\.(?:md|mdc|json|jsonl|txt|ya?ml)\b")


# "每日报告：`memory/daily/YYYY-MM-DD.md`", "读取 `memory/YYYY-MM-DD.md` 文件": a path in
# the memory directory, which the line only locates, reads or writes.
_MEMORY_DIR_PATH_RE = re.compile(r"(?<![\w/.-])\.?memory/[\w./-]+")
_CONSULT_VERB = lexicon.matcher("consult_verb")


# "`memory/`", "`.memory`": the memory directory itself, named bare
_MEMORY_DIR_RE = re.compile(r"\.?memory/?")


def names_memory_file(code: str) -> bool:
    """Whether a code span names a memory or instruction file, or the memory directory
    ("`techContext.md`", "`memory/`", "`.cursorrules`"), rather than the project's own."""
    text = code.strip().lower()
    return bool(
        _MEMORY_FILE_RE.search(text)
        or _INSTRUCTION_PATH_RE.search(text)
        or _MEMORY_DIR_PATH_RE.search(text)
        or _MEMORY_DIR_RE.fullmatch(text)
    )


def _locates_memory(claim: Claim) -> bool:
    """The line names a file in the memory directory and does nothing but say where it
    is, read it or write it: its directions are all verbs of consulting or recording (or
    it has none, a labelled location). A direction acting on anything else ("run `make
    deploy` (see memory/topics/deploy.md)") keeps the line a rule with a pointer."""
    if "memory/" not in claim.lower or not _MEMORY_DIR_PATH_RE.search(claim.lower):
        return False
    trig = trigger_clause(claim)
    if trig is not None:
        return False
    return all(
        _CONSULT_VERB.fullmatch(cue) or _RECORD_VERB.fullmatch(cue)
        for _, cue in direction_clauses(claim, trig)
    )


def _path_keep(match: re.Match[str]) -> str:
    """A path that names an instruction file stays (as its file name); other paths go."""
    path = match.group(0)
    if _RULES_DIR_RE.search(path):
        return path  # ".cursor/rules/style.mdc": the folder says it is a rules file
    return path.rsplit("/", 1)[-1] if _INSTRUCTION_PATH_RE.search(path) else " "


_WHOLE_PLACEHOLDER_RE = re.compile(r"^\[[^\[\]\n]*\s[^\[\]\n]*\]$|^<[^<>\n]*\s[^<>\n]*>$")


# "规则文件的优先级高于用户的临时指令", "These rules override the user's requests": how an
# instruction file ranks against the user's word is about the file.
_RANKING = lexicon.matcher("ranking")


def _memory_label(claim: Claim) -> bool:
    """The line's leading label names the memory ("**记忆记录**：…", "Memory bank: …")."""
    body = strip_label(claim.raw)
    if body is claim.raw or len(body) == len(claim.raw):
        return False
    head = claim.raw[: len(claim.raw) - len(body)].lower()
    return _MEMORY.found(simplified(head) if CJK_RE.search(head) else head)


def _keep_placeholder(match: re.Match[str]) -> str:
    """A code span that is wholly a placeholder (`[test command]`) stays; code goes."""
    return match.group(1) if _WHOLE_PLACEHOLDER_RE.match(match.group(1)) else " "


def _bracket_note(claim: Claim, outside_code: str) -> bool:
    """ "When completing a task, stage every file you changed (list paths explicitly)":
    a bracketed "(list …)" after a rule with its own trigger and direction elaborates
    that rule; a prompt in brackets is an unfilled form only where it stands for the
    line's content ("**Steps**: (list the steps here)")."""
    found = _PLACEHOLDER.search(outside_code)
    if found is None or not found.group(0).startswith(_OPENS):
        return False
    rest = analyse(outside_code[: found.start()] + outside_code[found.end() :])
    trig = trigger_clause(rest)
    return trig is not None and any(idx != trig for idx, _ in direction_clauses(rest, trig))


# "读取 `directories.json` 文件。该文件定义了…", "@.agents/tagging.md … 读取该文件": a
# demonstrative after a file the line names is that file, not the memory file it sits in.
_ANAPHOR = lexicon.matcher("file_anaphor", prefilter=True)
_ANAPHOR_RE = re.compile(lexicon.source("file_anaphor"))
_OPENS = tuple(lexicon.chars("punct:open"))


def _anaphors_resolved(text: str) -> str:
    out, at = [], 0
    for found in _ANAPHOR_RE.finditer(text):
        before = text[: found.start()]
        named = [m.group(0) for m in _FILE_NAME_RE.finditer(before)]
        if named and not _MEMORY_FILE(named[-1]):
            out += [text[at : found.start()], "it"]
            at = found.end()
    return "".join(out) + text[at:] if out else text


def memory_maintenance(claim: Claim, ctx: ReviewContext) -> bool:
    """The self-reference test: the line keeps the memory system rather than teaching
    behaviour in an external interaction (the self-reference gate's docstring says
    how). Inner-outer and status-shape leave such a line to that gate's diagnosis."""
    text = claim.lower
    if _ANAPHOR.search(text):
        text = _anaphors_resolved(text)
    text = PATH_RE.sub(_path_keep, text) if "/" in text else text
    # Brackets inside code spans (`dict[str, Any]`) are code, not unfilled forms.
    outside_code = (
        CODE_SPAN_RE.sub(_keep_placeholder, claim.raw) if "`" in claim.raw else claim.text
    )
    if _SELF_EDIT.found(text) or (
        _PLACEHOLDER.found(outside_code) and not _bracket_note(claim, outside_code)
    ):
        return True
    if _MEMORY_FILE(text) and _RECORD_VERB.found(text):
        return True
    if (
        ctx.kind is FileKind.BOARD
        and ctx.section
        and _MEMORY_SECTION.search(ctx.section.lower()) is not None
        and find_trigger(claim) is None
    ):
        # with no situation of its own, a line under such a heading keeps the memory; only
        # the nearest heading counts, as a whole rules file may sit under "# Memory bank"
        return True
    # under a heading on writing the file's own entries, a line's situation is when to
    # write one ("After a root-cause analysis …"); a file's title speaks for all of it
    inner = ctx.headings[1:] if ctx.headings else ctx.trail
    if ctx.kind is FileKind.BOARD and any(_UPKEEP_SECTION.search(h.lower()) for h in inner):
        return True
    if ctx.kind is FileKind.BOARD and (
        _PURPOSE.match(claim.raw) or _locates_memory(claim) or _FOLLOW_OWN_RULES.found(text)
    ):
        return True
    # ("记录架构和实现决策。" in a decision log says what the file records, in a dossier too)
    if _RECORD_LEAD.match(claim.lower) and _KNOWLEDGE_KIND.found(claim.lower):
        return True
    hit = _MEMORY.found(text) or (
        ctx.kind is FileKind.BOARD and _FRAGMENT.found(text) and not _CODE_FRAGMENT.found(text)
    )
    if not hit:
        return False
    if _DEMONSTRATIVE.found(text) or _RANKING.found(text):
        # the line talks about its own file or rules, or how they rank against the
        # user's word, whoever it mentions
        return True
    if ctx.kind is FileKind.BOARD and _memory_label(claim):
        return True  # "**记忆记录**：用户驱动 …": the line is filed under the memory
    external = _EXTERNAL.found(_FILE_NAME_RE.sub(" ", text) if "." in text else text)
    trig = trigger_clause(claim)
    # a rule of the user's world (a trigger or a direction) that names the memory passes
    return not (external and (trig is not None or bool(direction_clauses(claim, trig))))
