"""Language-light text handling for English and Chinese (CJK) memory text.

Everything here is pure: tokenising (lowercase, light English stemming, a small
synonym fold, CJK character bigrams), trigger/direction clause splitting for board
lines, and the marker lexicons the scanner judges events with (corrections,
standing instructions, preferences, greetings/receipts, transient questions).
Every detector returns the matched marker so decisions can carry a reason.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import cast

from shared.language import lexicon
from shared.language.lexicon.script import CJK_CHAR

_TOKEN_RE = re.compile(rf"[a-z0-9]+(?:'[a-z]+)?|{CJK_CHAR}+")
# Function characters split CJK runs so bigrams do not straddle particles.
_CJK_PARTICLES = frozenset(lexicon.phrases("particle"))
STOPWORDS: frozenset[str] = lexicon.words("stopword", spaced=True)

# Tokens too generic to identify a rule's trigger on their own (EN and CJK bigrams).
GENERIC_CUES: frozenset[str] = lexicon.words("generic_cue")

# A deliberately small synonym fold: canonical stem <- variants (after stemming).
_SYNONYMS: dict[str, str] = {
    variant: name.removeprefix("synonym:")
    for name in lexicon.names("synonym:")
    for variant in lexicon.phrases(name)
}


# A turn's text passes through every detector, each normalising it; a small cache makes
# that once per text (pure function; at most a few MB held).
@functools.lru_cache(maxsize=64)
def normalise(text: str) -> str:
    """NFKC-fold, lowercase and straighten quotes so lexicons match any input form."""
    # NFKC leaves ASCII unchanged; most spine text is ASCII and this runs per event.
    folded = (text if text.isascii() else _nfkc(text)).lower()
    return folded.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")


_FULLWIDTH_RE = re.compile("[\uff01-\uff5e\u3000]")


def _nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, cheaper for typical CJK text.

    What NFKC changes in such text is mostly full-width punctuation (，：！) and the
    ideographic space; each decomposes to one ASCII character, so mapping them first
    leaves the NFKC result unchanged, and when nothing else needs normalising the
    mapped text is that result (the checks are fast, the general algorithm is not).
    """
    if unicodedata.is_normalized("NFKC", text):
        return text
    narrowed = text
    for wide in set(_FULLWIDTH_RE.findall(text)):
        narrowed = narrowed.replace(wide, " " if wide == "\u3000" else chr(ord(wide) - 0xFEE0))
    if narrowed is not text and unicodedata.is_normalized("NFKC", narrowed):
        return narrowed
    return unicodedata.normalize("NFKC", text)


def stem(word: str) -> str:
    """Very light English suffix stripping; good enough to fold plurals and tenses."""
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("sses", "ss")):
        if word.endswith(suffix):
            return word[: -len(suffix)] + repl
    for suffix in ("ingly", "edly", "ing", "ed", "ly", "es", "s", "e"):
        if word.endswith(suffix) and not word.endswith("ss"):
            base = word[: -len(suffix)]
            if len(base) >= 3:
                if suffix in {"ing", "ed"} and len(base) > 3 and base[-1] == base[-2]:
                    base = base[:-1]
                return base
    return word


@functools.lru_cache(maxsize=65536)
def _fold(word: str) -> str:
    stemmed = stem(word)
    return _SYNONYMS.get(stemmed, _SYNONYMS.get(word, stemmed))


_PARTICLE_RE = re.compile("[" + "".join(sorted(_CJK_PARTICLES)) + "]")


def _cjk_bigrams(run: str) -> list[str]:
    out: list[str] = []
    pieces = _PARTICLE_RE.split(run)
    for piece in pieces:
        if len(piece) == 1:
            out.append(piece)
        # Adjacent-character pairs, paired in C rather than sliced one by one.
        out.extend(map(str.__add__, piece, piece[1:]))
    return out


def _word_token(word: str, keep_stopwords: bool) -> str | None:
    """The token an English word of ``_TOKEN_RE`` contributes (None: dropped)."""
    bare = word.replace("'", "")
    if not keep_stopwords and (bare in STOPWORDS or word in STOPWORDS):
        return None
    if len(bare) < 2 and not bare.isdigit():
        return None
    return _fold(bare)


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Normalised tokens: stemmed/folded English words and CJK bigrams, in order.

    Single CJK characters are kept only when a run is one character long.
    """
    out: list[str] = []
    for word in _TOKEN_RE.findall(normalise(text)):
        # _TOKEN_RE's English branch is ASCII-only and its CJK branch has no ASCII.
        if not word.isascii():
            out.extend(_cjk_bigrams(word))
            continue
        token = _word_token(word, True) if keep_stopwords else _content_token(word)
        if token is not None:
            out.append(token)
    return out


# Words recur across texts; each is stemmed and folded once.
@functools.lru_cache(maxsize=16384)
def _content_token(word: str) -> str | None:
    return _word_token(word, False)


_EN_WORD_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CJK_PAIR_RE = re.compile(f"(?=({CJK_CHAR}{CJK_CHAR}))")
_CJK_SINGLE_RE = re.compile(f"(?<!{CJK_CHAR}){CJK_CHAR}(?!{CJK_CHAR})")


def _chunk_set(chunk: str) -> frozenset[str]:
    # The two branches of _TOKEN_RE share no character, so each can be found on its
    # own; a repeated word is folded once.
    found: set[str | None] = set(map(_content_token, set(_EN_WORD_RE.findall(chunk))))
    found.discard(None)
    out = cast("set[str]", found)
    if not chunk.isascii():
        # With particles blanked, the CJK runs are _cjk_bigrams' pieces: their
        # adjacent pairs, and the pieces of one character.
        pieces = _PARTICLE_RE.sub(" ", chunk)
        out.update(_CJK_PAIR_RE.findall(pieces))
        out.update(_CJK_SINGLE_RE.findall(pieces))
    return frozenset(out)


# Only short chunks (words, a short phrase) are remembered: they recur, long ones
# rarely do, and the cache stays small.
_SHORT_CHUNK = 24
_short_chunk_set = functools.lru_cache(maxsize=8192)(_chunk_set)


def token_set(text: str) -> frozenset[str]:
    """The set of content tokens of ``text`` (``frozenset(tokens(text))``)."""
    # No token spans whitespace, so the set is the union over whitespace-separated
    # chunks; a word recurs across texts, so a short chunk's set is remembered.
    chunks = normalise(text).split()
    if not chunks:
        return frozenset()
    if len(chunks) == 1:
        chunk = chunks[0]
        return _short_chunk_set(chunk) if len(chunk) <= _SHORT_CHUNK else _chunk_set(chunk)
    if max(map(len, chunks)) <= _SHORT_CHUNK:
        return frozenset().union(*map(_short_chunk_set, chunks))
    return frozenset().union(
        *(_short_chunk_set(c) if len(c) <= _SHORT_CHUNK else _chunk_set(c) for c in chunks)
    )


def token_witnesses(token: str) -> tuple[str, ...]:
    """Substrings one of which occurs in ``normalise(text).replace("'", "")`` whenever
    ``token`` is in ``token_set(text)``: a cheap test that proves a token absent.

    A CJK token is a substring of the text. An English token is the fold of a word
    without its apostrophe: its stem (a prefix of the word, or a prefix + "y" for
    "-ies"/"-ied"), or the canonical form a synonym variant (stemmed or not) folds to.
    So the token's prefix (without a final "y") or a variant's prefix occurs.
    """
    if not token.isascii():
        return (token,)
    forms = {token, *(v for v, canon in _SYNONYMS.items() if canon == token)}
    prefixes = {f[:-1] if f.endswith("y") else f for f in forms}
    # A witness containing another can only occur where that one does.
    return tuple(sorted(p for p in prefixes if not any(q != p and q in p for q in prefixes)))


def coverage(cues: Iterable[str], text_tokens: frozenset[str]) -> tuple[int, float]:
    """How many of ``cues`` occur in ``text_tokens``, and that as a share of the cues."""
    cue_set = set(cues)
    if not cue_set:
        return 0, 0.0
    hit = len(cue_set & text_tokens)
    return hit, hit / len(cue_set)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two token sets (0.0 for two empty sets)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


# --- board line clauses -------------------------------------------------------------

_POINTER_RE = re.compile(r"\[\[([^\]\n]+)\]\]")
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@functools.cache
def _rule_shapes() -> tuple[re.Pattern[str], ...]:
    """A rule sentence's (trigger, direction) shapes, in the order they are tried."""
    return tuple(re.compile(regex) for _label, regex in lexicon.markers("rule_shape_marker"))


def strip_pointers(text: str) -> str:
    """``text`` without ``[[...]]`` pointer tokens and without a leading list bullet."""
    body = _BULLET_RE.sub("", text)
    if "[[" in body:
        body = _POINTER_RE.sub("", body)
    # Collapsing runs of whitespace: str.split() and re's \s agree (str.isspace).
    return " ".join(body.split())


def pointer_targets(text: str) -> list[str]:
    """Every ``[[target]]`` in ``text`` (trimmed), in order."""
    return [m.group(1).strip() for m in _POINTER_RE.finditer(text)]


def split_trigger(text: str) -> tuple[str, str]:
    """Split a rule sentence into (trigger clause, direction clause).

    "When a reply opens with filler, lead with the answer" -> ("a reply opens with
    filler", "lead with the answer"); "当用户问价格时，先给数字" -> ("用户问价格", "先给数字").
    Without a recognisable trigger word the trigger is empty and the whole sentence
    is the direction.
    """
    body = strip_pointers(text)
    for regex in _rule_shapes():
        match = regex.match(body)
        if match:
            return match.group(1).strip(), match.group(2).strip(" .。")
    return "", body.strip(" .。")


def one_line(text: str, limit: int = 240) -> str:
    """Collapse whitespace (incl. newlines) and clip to ``limit`` characters."""
    # Collapsing as strip_pointers does.
    flat = " ".join(text.split())
    flat = flat.replace("\0", "")
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def ascii_slug(text: str, max_words: int = 4) -> str:
    """A short lowercase ``a-z0-9-`` slug of the content words of ``text`` ('' if none)."""
    words = [w for w in re.findall(r"[a-z0-9]+", normalise(text)) if w not in STOPWORDS]
    return "-".join(words[:max_words])


_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
# A pasted line: indented code, a quote, a comment, a stack frame, a log record, a
# diff line, a shell prompt, or a line without a letter of any script.
_PASTED_LINE = re.compile(
    r"^(?:[ \t]{4,}|\t|>|//|/\*|\*\s|#!|\s*at\s+\S+\(|\s*File \"|[+-]{1,3}\s|\$ |PS |"
    r"\d{4}-\d\d-\d\d[T ]\d\d:|\[[\w.:-]+\]\s|\w+Error\b|Traceback\b|\s*[{}\[\]()<>;,]*$)"
)
# ... or a compiler's or linter's diagnostic anywhere in the line.
_DIAGNOSTIC = re.compile(
    r"(?:\)|\d):\s*(?:fatal )?(?:error|warning)\b|\b(?:error|warning) [A-Z]+\d{3,}\b"
)
# ... or a terminal's own drawing: box and block characters, a braille spinner (rich,
# tqdm, ora), a log record's time stamp or its padded level ("INFO     Loaded …"), a
# shell prompt (zsh's "➜ repo git:(main)", "❯") or a tool's "error:" / "hint:" line.
_TERMINAL = re.compile(
    r"[\u2500-\u259f\u2800-\u28ff]|^\[?\d{1,4}[/-]\d\d[/-]\d{2,4}[ T]\d\d:\d\d"
    r"|\b(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL)\s{2,}"
    r"|^\s*[➜❯]\s|^(?:error|fatal|warning|hint|remote)(?:\[\w+\])?:\s"
)
_LETTER = re.compile(r"[^\W\d_]")


_PASTE_LEAD = lexicon.matcher("paste_lead")
# How long the rest after a paste lead must be to be taken as pasted: a user's own list
# of points after "see below:" is short.
_PASTED_REST_CHARS = 400


def own_words(text: str) -> str:
    """``text`` without what the user pasted (fenced blocks, code, logs, quotes, stack
    traces): the words a marker of theirs can stand in. Lines are dropped whole, so
    what is left is the user's lines as written."""
    if "\n" not in text and "```" not in text:
        return text
    kept = []
    lines = _FENCE.sub("\n", text).split("\n")
    rest = sum(len(line) for line in lines)
    for line in lines:
        rest -= len(line)  # now the characters after this line
        if rest >= _PASTED_REST_CHARS and _PASTE_LEAD.search(line):
            kept.append(line)
            break  # "See below:" and a long rest: what follows is pasted
        if (
            not line.strip()
            or _PASTED_LINE.match(line)
            or _DIAGNOSTIC.search(line)
            or _TERMINAL.search(line)
        ):
            continue
        if not _LETTER.search(line):
            continue
        kept.append(line)
    return "\n".join(kept)
