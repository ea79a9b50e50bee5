"""self-reference: lines about the memory system instead of foreground behavior.

A claim that names the memory machinery (board, broadcast layer, committer, weaver,
compression, lint, internal prompts or quality rules, "this file", a memory bank,
recording lessons) is rejected unless it also teaches behavior in an external
interaction: it mentions the user's world (a user, reply, message, request ...) and is
shaped as a rule (trigger or direction). A line whose direction edits the memory file
itself ("update this file", "更新本文件") and an unfilled template placeholder
("[Tribal knowledge 1]", "{简要说明…}") are rejected whatever else they say.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import PATH_RE, Claim, direction_clauses, trigger_clause
from shared.language.prefilter import Prefiltered
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "self-reference"
_EXTERNAL = lexicon.matcher("external", prefilter=True)

MEMORY_RE = Prefiltered(
    r"\bmemory (?:board|system|file|files|layer|maintenance|pipeline|line|lines|entry|"
    r"entries|store|format|quality|hygiene|budget|card|cards)\b"
    r"|\bbroadcast (?:board|layer|line|lines|file)\b|\bboard lines?\b"
    r"|\bclaude\.md\b"
    r"|\b(?:committer|memory-weaver|weaver|crystallizer|spine[- ]scanner|intuition[- ]updater|"
    r"pattern[- ]tracker|subconscious|partition prompts?|effectiveness files?|review gates?|"
    r"quality rules?|gradient lines?)\b"
    r"|\b(?:compression|compressing)\b|\b(?:lint|linting|linter)\s+(?:the\s+)?(?:board|memory|kernel|"
    r"dossiers?)\b|\bmemory lint"
    r"|\b(?:agents|memory|lessons|gemini|copilot-instructions)\.md\b|\.cursorrules\b"
    r"|\bfuture (?:claude |agent |ai )?sessions?\b|\bcontext window\b"
    r"|\bcompress(?:es|ed)? (?:the )?(?:board|memory|file|lines?)\b"
    r"|\binternal (?:prompts?|quality rules?|rules)\b"
    r"|\bthis (?:board|memory|dossier|file|card)\b|\bthese (?:lines|memory lines|entries)\b"
    r"|\b(?:durable|long-term|persistent) memory\b|\bmemory[- ]?banks?\b|\bmemory files?\b"
    r"|\b(?:record|capture|log|add|write|append|review)\b[^.;]{0,30}\blessons?\b"
    r"|\b(?:add|append|rewrite|edit|keep)\s+(?:one\s+|a\s+new\s+|new\s+|the\s+|historical\s+)?"
    r"(?:entry|entries)\b"
    r"|\b(?:activecontext|productcontext|techcontext|systempatterns|projectbrief|progress)\.md\b"
    r"|\bthese (?:rules|instructions|guidelines)\b|\bthis (?:document|guide|rules? file)\b"
    r"|\b(?:curated )?memories\b|\bdaily notes\b"
    r"|\b(?:capture|create|save|store|update|add|write)_?memor(?:y|ies)\b"
    r"|记忆板|记忆系统|记忆文件|记忆条目|记忆维护|记忆层|广播层|广播板|广播行|本文件|这份文件|"
    r"此文件|该文件|本宪章|本指南|"
    r"这些规则|本规则|此规则|规则文件|这份规则|本文档|此文档|这份文档|这个文档|"
    r"这个文件|压缩记忆|提交器|有效性文件|潜意识|分区提示|内部提示词|系统提示词|质量规则"
)
FRAGMENT_RE = re.compile(r"\bfragments?\b|碎片")
# The direction edits the memory file itself: maintenance whatever else the line says.
SELF_EDIT_RE = Prefiltered(
    r"\b(?:update|edit|append to|write to|add to|keep|maintain)\s+(?:this|the)\s+"
    r"(?:file|memory|board|dossier)\b|(?:更新|修改|写入|补充|同步更新)(?:本|这份|这个)文件|"
    r"记下来|写入记忆|更新记忆|记到记忆|记入(?:以下|下列|这个|该)?文件"
)
# Template placeholders ("[Tribal knowledge 1]", "{简要说明该功能做什么}", "_User
# preferences will be learned_"): an unfilled form, not memory. Checkboxes, modal tags,
# [[pointers]] and markdown links are not placeholders.
PLACEHOLDER_RE = re.compile(
    r"(?<!\[)\[(?![ xX✓]\])(?!\[)[^\[\]\n]*\s[^\[\]\n]*\](?![(\[\]])"
    r"|\{[^{}\n]*[\u4e00-\u9fff][^{}\n]*\}"
    r"|^_[^_\n]*\b(?:will be|to be|describe|list)\b[^_\n]*_$"
    r"|(?:在这里写|此处填写|待补充|待填写)"
    r"|\((?i:add|fill in|insert|describe|list)\b[^)]*\)"
)


# "此规则是强制性的", "本文件为 … 提供指导": the line points at its own rules or file.
DEMONSTRATIVE_RE = re.compile(
    r"此规则|本规则|这些规则|这份规则|本文件|此文件|这份文件|这个文件|本文档|此文档|这份文档|"
    r"本宪章|本指南|\bthis (?:file|document|guide|rules? file)\b|\bthese (?:rules|instructions)\b"
)
# "Purpose: capture recurring failure modes ...": a line that states what its file or
# section is for describes the memory artefact, not foreground behaviour.
PURPOSE_RE = re.compile(r"^\W*(?:purpose|用途|目的)\s*[:：]", re.IGNORECASE)


_CODE_SPAN_RE = re.compile(r"`([^`\n]*)`")
_WHOLE_PLACEHOLDER_RE = re.compile(r"^\[[^\[\]\n]*\s[^\[\]\n]*\]$|^<[^<>\n]*\s[^<>\n]*>$")


def _keep_placeholder(match: re.Match[str]) -> str:
    """A code span that is wholly a placeholder (`[test command]`) stays; code goes."""
    return match.group(1) if _WHOLE_PLACEHOLDER_RE.match(match.group(1)) else " "


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject memory-maintenance lines (see module docstring)."""
    text = PATH_RE.sub(" ", claim.lower) if "/" in claim.lower else claim.lower
    # Brackets inside code spans (`dict[str, Any]`) are code, not unfilled forms.
    outside_code = (
        _CODE_SPAN_RE.sub(_keep_placeholder, claim.raw) if "`" in claim.raw else claim.text
    )
    if PLACEHOLDER_RE.search(outside_code) or SELF_EDIT_RE.search(text):
        return _FINDING
    if ctx.kind is FileKind.BOARD and PURPOSE_RE.match(claim.raw):
        return _FINDING
    hit = MEMORY_RE.search(text) or (ctx.kind is FileKind.BOARD and FRAGMENT_RE.search(text))
    if not hit:
        return None
    if DEMONSTRATIVE_RE.search(text):
        return _FINDING  # the line talks about its own file or rules, whoever it mentions
    external = _EXTERNAL.search(text)
    trig = trigger_clause(claim)
    if external and (trig is not None or direction_clauses(claim, trig)):
        return None
    return _FINDING


_FINDING = Finding(
    RULE_ID,
    f"{RULE_ID}: memory-maintenance line",
    "the line describes memory maintenance rather than behavior in an external interaction",
)
