"""The words and letter runs the precedent judge reads a line by.

Three views of one line, each weighted by how rare it is among the labelled lines and
scaled to unit length: letter runs of one to four characters inside each
space-separated word (what carries meaning in Chinese, where a "word" is a whole run of
ideographs, and in English morphology), single words and word pairs, and the words of
the heading the line sits under (a status list and a rule list can hold the same words;
their headings tell them apart). The line's file kind is one more feature, because a
dossier may hold what a board may not.

The kernel's own structure is not read: ``[[pointers]]``, ``Details: memory/…`` clauses
and modal tags (``[observation]``) are the board's and dossiers' format, which no
labelled line was written in, and the rule gates already judge them.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping

from shared.language import lexicon
from shared.language.claims import MODAL_TAG_RE
from shared.language.claims.claim import POINTER_RE

_WORD_RE = re.compile(r"\b\w+\b")
_LONGEST_RUN = 4
DOSSIER = "k:dossier"
_DETAILS = lexicon.matcher("details")


def readable(raw: str) -> str:
    """The line without the kernel's pointers, details clauses and modal tags."""
    text = raw
    if "[" in text:
        text = POINTER_RE.sub(" ", MODAL_TAG_RE.sub(" ", text))
    if "/" in text or ":" in text or "：" in text or "见" in text:
        text = _DETAILS.sub(text, " ")
    return text


def letter_runs(text: str) -> Counter[str]:
    """Runs of 1-4 characters inside each word, the word padded with one space each side."""
    runs: list[str] = []
    for word in text.lower().split():
        runs += letter_runs_of(word)
    return Counter(runs)


@functools.lru_cache(maxsize=65536)
def letter_runs_of(word: str) -> tuple[str, ...]:
    """The letter runs of one lowercased word, in :func:`letter_runs`' order."""
    # Words repeat across lines far more than lines do: their runs are worth keeping.
    padded = f" {word} "
    size = len(padded)
    return tuple(
        "c:" + padded[at : at + n] for n in range(1, _LONGEST_RUN + 1) for at in range(size - n + 1)
    )


def word_runs(text: str) -> Counter[str]:
    """Single words and adjacent word pairs."""
    words = _WORD_RE.findall(text.lower())
    counts: Counter[str] = Counter("w:" + w for w in words)
    counts.update("w:" + a + " " + b for a, b in itertools.pairwise(words))
    return counts


def heading_runs(heading: str) -> Counter[str]:
    """The words of the nearest heading, apart from the line's own words."""
    return Counter("h:" + w for w in _WORD_RE.findall(heading.lower()))


def weigh(counts: Mapping[str, int], idf: Mapping[str, float]) -> dict[str, float]:
    """Sub-linear counts times rarity, scaled to unit length; unknown runs are dropped."""
    out = {}
    rarity = idf.get
    for f, n in counts.items():
        w = rarity(f)
        if w is not None:
            # most runs occur once, and 1 + log(1) is exactly 1: skip the logarithm
            out[f] = w if n == 1 else (1.0 + math.log(n)) * w
    norm = math.sqrt(sum(v * v for v in out.values()))
    return {f: v / norm for f, v in out.items()} if norm else {}


def vector(
    text: str, dossier: bool, idf: Mapping[str, float], heading: str = ""
) -> dict[str, float]:
    """The whole feature vector of one line under ``heading``."""
    text = readable(text)
    out = weigh(letter_runs(text), idf)
    out.update(weigh(word_runs(text), idf))
    if heading:
        out.update(weigh(heading_runs(heading), idf))
    if dossier:
        out[DOSSIER] = 1.0
    return out
