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

from shared.language.claims import Claim
from shared.language.claims.claim import CODE_SPAN_RE
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.predicates import memory_maintenance, names_memory_file
from shared.review.gates.rules import RULES

RULE_ID = "self-reference"


_FINDING = RULES["self-reference.memory-maintenance-line"].finding()


_DOSSIER_KINDS = (FileKind.DOSSIER, FileKind.TOPIC)


def _project_code(claim: Claim, ctx: ReviewContext) -> bool:
    """In a dossier, a line whose code spans all name the project's own things ("Linting
    is configured in `analysis_options.yaml` with these rules", "`SQL/` — scripts and
    study notes") states a fact of the project in the memory's words; one naming a
    memory file ("A more concise `techContext.md`") keeps the memory."""
    if ctx.kind not in _DOSSIER_KINDS or "`" not in claim.raw:
        return False
    spans = CODE_SPAN_RE.findall(claim.raw)
    return bool(spans) and not any(names_memory_file(span) for span in spans)


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject memory-maintenance lines (see module docstring)."""
    if memory_maintenance(claim, ctx) and not _project_code(claim, ctx):
        return _FINDING
    return None
