"""Clause analysis the review gates share, over every registered language (pure).

A claim is normalised and split into clauses (:mod:`.claim`); each clause is checked
for a trigger, a recognisable situation (:mod:`.triggers`), or a direction, an
imperative or a modal of obligation (:mod:`.directions`); a direction is vague when it
names only a value (:mod:`.vagueness`) and concrete when it acts on an artefact
(:mod:`.domain`) or sets a norm (:mod:`.norms`). The words and phrases live in
:mod:`shared.language.lexicon`, one module per language.
"""

from __future__ import annotations

from shared.language.claims.claim import (
    MODAL_TAG_RE,
    PATH_RE,
    Claim,
    analyse,
    strip_label,
    words,
)
from shared.language.claims.conventions import standing_passive
from shared.language.claims.directions import direction_clauses, unnamed_skill
from shared.language.claims.domain import domain_concrete
from shared.language.claims.norms import (
    LABELLED_CODE_RE,
    has_limit,
    labelled_setting,
    normative_clauses,
)
from shared.language.claims.triggers import find_trigger, trigger_clause
from shared.language.claims.vagueness import (
    complement_only,
    hedged_after,
    is_vague,
    object_follows,
    unnamed_standard,
)

__all__ = [
    "LABELLED_CODE_RE",
    "MODAL_TAG_RE",
    "PATH_RE",
    "Claim",
    "analyse",
    "complement_only",
    "direction_clauses",
    "domain_concrete",
    "find_trigger",
    "has_limit",
    "hedged_after",
    "is_vague",
    "labelled_setting",
    "normative_clauses",
    "object_follows",
    "standing_passive",
    "strip_label",
    "trigger_clause",
    "unnamed_skill",
    "unnamed_standard",
    "words",
]
