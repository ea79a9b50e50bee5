"""secret: a line holding a credential is never committed, in any allowlisted file.

Uses the importer's detector (``shared.importing.redaction``: the detect-secrets
catalogue plus the shapes it misses), so what an import would redact a reviewer rejects.
The finding names the credential's kind only: the value is never quoted, and the
reviewer replaces it in the line's quote (audit records, review output, the report)
with ``[redacted: <kind>]``.
"""

from __future__ import annotations

from shared.importing.redaction import redact
from shared.language.claims import Claim
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.rules import RULES

RULE_ID = "secret"


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a line holding a credential (every file kind)."""
    found = redact(claim.raw)
    if not found.kinds:
        return None
    kinds = ", ".join(dict.fromkeys(found.kinds))
    return RULES["secret.credential"].finding(detail=kinds)


def quoted(text: str) -> str:
    """``text`` as any output may quote it: every credential replaced by its kind."""
    return redact(text).text
