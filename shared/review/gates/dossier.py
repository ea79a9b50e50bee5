"""dossier: the lighter review of entity and topic dossiers.

Dossiers may hold supporting facts, examples and provenance, but a line is rejected
when it carries internal runtime state (inbox items, locks, offsets, session keys),
a stale repair instruction (TODO, "fix this link", "needs merging"), an instruction
shaped like a broadcast gradient that lacks its direction, or its trigger when the
line does not name the entity either (outside Condition/Procedure-style sections,
where the section supplies the trigger), or an
unsupported claim: an absolute or speculative assertion with neither a modal tag
(``[observation]``, ``[inference]`` ...) nor provenance (a pointer or a path).
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import MODAL_TAG_RE, Claim, words
from shared.language.prefilter import Prefiltered
from shared.review.gates import gradient
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "dossier"
_IMPERATIVE = lexicon.words("imperative", spaced=True)

INTERNAL_STATE_RE = Prefiltered(
    r"\b(?:kernel lock|index\.lock|lock file|lease|fence|inbox items?|\.pending|"
    r"pending items?|session[_ ]key|session id|byte offset|watermark|run/locks|"
    r"scan-gap|\.scan\.json|scan progress|last scanned|partition state|backoff|cooldown|"
    r"cooldown_ticks|board_layer_hash|source_line_hash|meta-memory-state)\b"
    r"|\bvar/[\w./-]+"
    r"|收件箱|待处理项|会话ID|偏移量|游标|冷却|退避|锁文件"
)
REPAIR_RE = Prefiltered(
    r"\b(?:todo|fixme|xxx|tbd)\b"
    r"|\b(?:fix|repair|rewrite|merge|split|rename|clean up|cleanup|re-?run|re-?scan|rebuild|"
    r"regenerate|update|delete|remove|converge|sink)\s+(?:this|the|that)\s+(?:dossier|file|"
    r"line|link|pointer|section|node|entry|board line|heading|note|card)\b"
    r"|\b(?:needs?(?: to be)?|should be|must be|to be)\s+(?:fixed|repaired|rewritten|merged|"
    r"split|renamed|cleaned up|updated|removed|deleted|converged|rebuilt|regenerated)\b"
    r"|\b(?:broken|dead|stale) (?:link|card|pointer|reference)\b"
    r"|待修复|需修复|需要修复|待合并|需要合并|待重写|需要重写|待清理|待更新|需要更新|"
    r"修复链接|修复指针|失效链接|死链|待办"
)
ABSOLUTE_RE = Prefiltered(
    r"\b(?:always|never|everyone|everybody|nobody|no one|definitely|certainly|undoubtedly|"
    r"obviously|clearly|guaranteed|without (?:a )?doubt|for sure|the best|the worst|"
    r"the only|probably|surely|secretly|deep down|is trying to|must be|must have)\b"
    r"|\ball (?:users|people|customers|clients)\b|100%"
    r"|一定|肯定|绝对|必然|毫无疑问|显然|所有人|总是|从来不|从不|永远|最好的|唯一|大概|估计|也许"
)
PROVENANCE_RE = re.compile(
    r"\b(?:source|evidence|per|see|via|from|according to|cited|citing|fragment)\b\s*[:：]?"
    r"|https?://|\(\s*\d{4}-\d{2}-\d{2}\s*\)|来源|证据|据"
)
STEP_SECTIONS_RE = re.compile(
    r"(?i)condition|procedure|steps?|references?|how|usage|checklist|trigger|"
    r"条件|步骤|流程|做法|参考"
)
ENTITY_REF_RE = re.compile(
    r"\b(?:she|he|they|her|him|his|hers|their|them|its)\b|他们|她们|他|她|对方|该客户|该公司"
)
INSTRUCTION_LEAD_RE = re.compile(
    r"^(?:always|never|should|must|do not|don't)\b|^(?:应该|必须|务必|不要|请|先|一定要)"
)


def _finding(reason: str, why: str) -> Finding:
    return Finding(RULE_ID, f"{RULE_ID}: {reason}", why)


def _instruction_shaped(claim: Claim) -> bool:
    """An ``[instruction]`` tag, or an untagged line led by an imperative or a modal.
    Lines tagged as observation / inference / hypothesis are statements, not orders."""
    if "[instruction]" in claim.tags:
        return True
    if claim.tags:
        return False
    first = next(iter(words(claim.lower)), "")
    return first in _IMPERATIVE or bool(INSTRUCTION_LEAD_RE.search(claim.lower))


def _anchored(claim: Claim) -> bool:
    """Inside a dossier the entity itself is the trigger when the instruction names it:
    a pointer or path, a pronoun for the entity, or a proper noun after the first word."""
    if claim.has_pointer or claim.has_details:
        return True
    if ENTITY_REF_RE.search(claim.lower):
        return True
    return any(w[:1].isupper() for w in claim.text.split()[1:])


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a dossier line that fails the dossier rules (see module docstring)."""
    text = claim.lower
    raw = claim.raw.lower()
    if INTERNAL_STATE_RE.search(raw):
        return _finding(
            "internal runtime state",
            "the line records internal runtime state rather than the entity's world",
        )
    if REPAIR_RE.search(raw):
        return _finding(
            "stale repair instruction",
            "the line is a repair instruction for the memory files, not a durable fact",
        )
    conditional = any(t.startswith("[conditional") for t in claim.tags)
    if _instruction_shaped(claim) and not conditional and not STEP_SECTIONS_RE.search(ctx.section):
        found = gradient.judge(claim, require_activation=False, implicit_domain=False)
        if found is gradient.MISSING_TRIGGER and _anchored(claim):
            found = None
        if found is not None:
            return found
    tagged = bool(MODAL_TAG_RE.search(claim.raw))
    supported = tagged or claim.has_pointer or claim.has_details or PROVENANCE_RE.search(text)
    if not supported and ABSOLUTE_RE.search(text) and not _instruction_shaped(claim):
        return _finding(
            "unsupported claim",
            "the line asserts an absolute or speculative claim with no modal tag or provenance",
        )
    return None
