"""English: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.en import (
    alone,
    cadence,
    claims,
    domain,
    events,
    gates,
    marks,
    terms,
    tokens,
)

LANGUAGE = Language(
    code="en",
    spaced=True,
    # The direction keeps the user's case: no capitalising (text integrity).
    line_shape="When {trigger}, {direction}",
    concepts=merged(
        claims.CONCEPTS,
        domain.CONCEPTS,
        gates.CONCEPTS,
        cadence.CONCEPTS,
        events.CONCEPTS,
        terms.CONCEPTS,
        tokens.CONCEPTS,
        marks.CONCEPTS,
    ),
    alone=alone.ALONE,
)
