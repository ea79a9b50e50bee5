"""Shared concepts of durable instructions in English and Chinese (issue #11, item 5).

The same standing instruction, given in English in one session and in Chinese in
another, must count as one recurring signal (labelling "Paraphrase and language").
English tokens (stems) and Chinese bigrams share nothing, so the clustering of
NEW_SIGNAL fragments also compares *concepts*: a small fixed bilingual table of the
key terms instructions are made of (the artefact: report, summary, file, table,
email ...; the action: attach, reply, send, check, translate ...; the order or
manner: first, short, bullets ...). Each term is a ``term:<name>`` concept of the
lexicon (``shared/language/lexicon/*/terms.py``): the English stems
:func:`shared.language.text.token_set` yields and the Chinese words that name it.

Why a table and not translation or embeddings: it needs no model or dependency,
runs in microseconds, is deterministic and explainable (a reader can see which
terms made two signals one), and it can only *add* matches between texts that name
the same key terms; two instructions still need most of their concepts in common.
Terms outside the table simply do not match across languages, which errs toward
not adding a line.
"""

from __future__ import annotations

import functools
import re

from shared.language import lexicon
from shared.language.text import jaccard, normalise, token_set

_FAMILY = "term:"
_SPAN = re.compile(r"`([^`\n]{2,120})`")


@functools.cache
def _table() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(stem -> term) over the spaced languages' stems, and term -> the unspaced
    languages' words, from the lexicon's ``term:`` concepts."""
    by_stem: dict[str, str] = {}
    words: dict[str, tuple[str, ...]] = {}
    for name in lexicon.names(_FAMILY):
        term = name.removeprefix(_FAMILY)
        for stem in lexicon.phrases(name, spaced=True):
            by_stem[stem] = term
        words[term] = lexicon.phrases(name, spaced=False)
    return by_stem, words


@functools.lru_cache(maxsize=1024)
def concepts(text: str) -> frozenset[str]:
    """The table's concepts ``text`` names, in either language."""
    by_stem, words = _table()
    found = {by_stem[t] for t in token_set(text) if t in by_stem}
    folded = normalise(text)
    if not folded.isascii():
        for term, names in words.items():
            if any(w.lower() in folded for w in names):
                found.add(term)
    return frozenset(found)


def same_instruction(a: str, b: str) -> bool:
    """Two candidate rules read as one instruction: their content tokens mostly
    agree, they hold the same code spans, or (across languages) they name mostly the
    same key concepts, at least three of them."""
    if jaccard(token_set(a), token_set(b)) >= 0.45:
        return True
    spans_a, spans_b = set(_SPAN.findall(a)), set(_SPAN.findall(b))
    if spans_a and spans_a == spans_b:
        # The same commands, names or paths in code spans, whatever the language around
        # them: `ruff check` before a commit in English and in Chinese is one rule.
        return True
    if _latin_terms_shared(a, b) or _latin_terms_shared(b, a):
        return True
    ca, cb = concepts(a), concepts(b)
    return len(ca & cb) >= 3 and jaccard(ca, cb) >= 0.6


def _latin_terms_shared(cjk: str, other: str) -> bool:
    """A Chinese instruction keeps its technical terms in Latin letters ("先 squash
    commits"): when it holds two or more and the other text holds them all, they name
    the same thing."""
    folded = normalise(cjk)
    if folded.isascii() or not normalise(other).isascii():
        return False
    latin = token_set(" ".join(re.findall(r"[a-z][a-z0-9_.-]+", folded)))
    return len(latin) >= 2 and latin <= token_set(other)
