"""self-reference: lines about the memory system instead of foreground behavior.

A claim that names the memory machinery (board, broadcast layer, committer, weaver,
compression, lint, internal prompts or quality rules, "this file", a memory bank,
recording lessons) is rejected unless it also teaches behavior in an external
interaction: it mentions the user's world (a user, reply, message, request ...) and is
shaped as a rule (trigger or direction). A line whose direction edits the memory file
itself ("update this file", "更新本文件"), one that writes into a memory file ("add it
to lessons.md"), one that records a lesson ("add a row when a correction reveals a
pattern", "记住 X → 立即记录") and an unfilled template placeholder ("[Tribal knowledge
1]", "{简要说明…}") are rejected whatever else they say.

The memory is named in many words: the journals, notes and tracking files the agent keeps
("the work journal", "进度文档", "值得记住的坑"), reading the instructions when a session
starts or the files put into every session, a knowledge kind recorded ("Add new
learnings …", "重要决策和发现及时记录到文档中"), a new understanding written down, the
rules edited ("失败→更新规则"), the agent improving itself ("自我改进"), how the rules
rank against the user's word, a label that files the line under the memory, pruning the
file's own entries ("purge deprecated entries", "清理过时的条目"; a store's entries are
named by the store) and a maintenance verb with no object but a time ("Update when you
learn something about your human").
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    PATH_RE,
    Claim,
    analyse,
    direction_clauses,
    find_trigger,
    strip_label,
    trigger_clause,
)
from shared.language.claims.claim import CODE_SPAN_RE
from shared.language.lexicon.script import CJK, CJK_RE, simplified
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "self-reference"
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
_TAG_LITERAL = rf"(?![A-Z][A-Z0-9_-]*\s*[:：]\s*(?:[A-Z][A-Z0-9_-]*|[{CJK}]+)\])"
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
_RECORD_VERB = lexicon.matcher("record_verb")
# A file's name is not the user's world: "读取 SOUL.md 和 USER.md" names no user.
_FILE_NAME_RE = re.compile(r"(?<![a-z0-9_.-])[a-z0-9_.-]+\.(?:md|mdc|json|jsonl|txt|ya?ml)\b")


# "每日报告：`memory/daily/YYYY-MM-DD.md`", "读取 `memory/YYYY-MM-DD.md` 文件": a path in
# the memory directory, which the line only locates, reads or writes.
_MEMORY_DIR_PATH_RE = re.compile(r"(?<![\w/.-])\.?memory/[\w./-]+")
_CONSULT_VERB = lexicon.matcher("consult_verb")


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
    if found is None or not found.group(0).startswith(("(", "（")):
        return False
    rest = analyse(outside_code[: found.start()] + outside_code[found.end() :])
    trig = trigger_clause(rest)
    return trig is not None and any(idx != trig for idx, _ in direction_clauses(rest, trig))


# "读取 `directories.json` 文件。该文件定义了…", "@.agents/tagging.md … 读取该文件": a
# demonstrative after a file the line names is that file, not the memory file it sits in.
_ANAPHOR_RE = re.compile(r"(?:该|此|这个|这份)(?:文件|文档)|\b(?:this|that) file\b")


def _anaphors_resolved(text: str) -> str:
    out, at = [], 0
    for found in _ANAPHOR_RE.finditer(text):
        before = text[: found.start()]
        named = [m.group(0) for m in _FILE_NAME_RE.finditer(before)]
        if named and not _MEMORY_FILE_RE.search(named[-1]):
            out += [text[at : found.start()], "it"]
            at = found.end()
    return "".join(out) + text[at:] if out else text


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject memory-maintenance lines (see module docstring)."""
    text = claim.lower
    if "文件" in text or "文档" in text or " file" in text:
        text = _anaphors_resolved(text)
    text = PATH_RE.sub(_path_keep, text) if "/" in text else text
    # Brackets inside code spans (`dict[str, Any]`) are code, not unfilled forms.
    outside_code = (
        CODE_SPAN_RE.sub(_keep_placeholder, claim.raw) if "`" in claim.raw else claim.text
    )
    if _SELF_EDIT.found(text) or (
        _PLACEHOLDER.found(outside_code) and not _bracket_note(claim, outside_code)
    ):
        return _FINDING
    if _MEMORY_FILE_RE.search(text) and _RECORD_VERB.found(text):
        return _FINDING
    if (
        ctx.kind is FileKind.BOARD
        and ctx.section
        and _MEMORY_SECTION.search(ctx.section.lower()) is not None
        and find_trigger(claim) is None
    ):
        # with no situation of its own, a line under such a heading keeps the memory; only
        # the nearest heading counts, as a whole rules file may sit under "# Memory bank"
        return _FINDING
    # under a heading on writing the file's own entries, a line's situation is when to
    # write one ("After a root-cause analysis …"); a file's title speaks for all of it
    inner = ctx.headings[1:] if ctx.headings else ctx.trail
    if ctx.kind is FileKind.BOARD and any(_UPKEEP_SECTION.search(h.lower()) for h in inner):
        return _FINDING
    if ctx.kind is FileKind.BOARD and (
        _PURPOSE.match(claim.raw) or _locates_memory(claim) or _FOLLOW_OWN_RULES.found(text)
    ):
        return _FINDING
    # ("记录架构和实现决策。" in a decision log says what the file records, in a dossier too)
    if _RECORD_LEAD.match(claim.lower) and _KNOWLEDGE_KIND.found(claim.lower):
        return _FINDING
    hit = _MEMORY.found(text) or (
        ctx.kind is FileKind.BOARD and _FRAGMENT.found(text) and not _CODE_FRAGMENT.found(text)
    )
    if not hit:
        return None
    if _DEMONSTRATIVE.found(text) or _RANKING.found(text):
        # the line talks about its own file or rules, or how they rank against the
        # user's word, whoever it mentions
        return _FINDING
    if ctx.kind is FileKind.BOARD and _memory_label(claim):
        return _FINDING  # "**记忆记录**：用户驱动 …": the line is filed under the memory
    external = _EXTERNAL.found(_FILE_NAME_RE.sub(" ", text) if "." in text else text)
    trig = trigger_clause(claim)
    if external and (trig is not None or direction_clauses(claim, trig)):
        return None
    return _FINDING


_FINDING = Finding(
    RULE_ID,
    f"{RULE_ID}: memory-maintenance line",
    "the line describes memory maintenance rather than behavior in an external interaction",
)
