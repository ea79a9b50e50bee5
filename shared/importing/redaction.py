"""Credentials out of a text before it is written anywhere.

:func:`redact` replaces every credential it finds with ``[redacted: <kind>]`` and says
which kinds it took out, in order (for counting; never the values). A text with nothing
secret-looking comes back as the same object. Redacting twice changes nothing more.

What counts as a credential is the table in :mod:`shared.importing.redaction_rules`:
one record per shape, with the texts it must redact and must leave alone beside it.

Why detect-secrets. Of the maintained catalogues (gitleaks' rules, trufflehog's
detectors, secrets-patterns-db, detect-secrets), detect-secrets (Yelp) is the one in
Python, importable, with its patterns as compiled regexes on each plugin (``denylist``)
and its heuristics as plain functions; gitleaks and trufflehog are Go programs
(gitleaks' rule list was read for the shapes below) and secrets-patterns-db a YAML file
of 1,600 regexes for other scanners to load. But its scanner is built for files, not for a
stream of texts: ``scan_line`` runs every plugin and every filter on every line, about
0.1 MB/s, and its eager high-entropy search flags most words. So this module takes the
plugins' ``denylist`` patterns (at first use, cached: importing this module does not
import detect-secrets) for AWS, Slack, Stripe, GitHub, GitLab, PyPI, SendGrid, Twilio,
Discord, Telegram, Mailchimp, Square and URL basic auth, its JWT structure check, its
keyword list (``KeywordDetector.DENYLIST``, kept covered by a test) and its Shannon
entropy with its limits (4.5 for base64, 3.0 for hex), and runs them behind a literal
prefilter, some 30 MB/s.

What it lacks, added here (shapes from gitleaks' rules): Anthropic ``sk-ant-`` keys and
OAuth tokens, OpenAI ``sk-proj-``/``sk-svcacct-``/``sk-admin-`` keys and other ``sk-``
keys (DeepSeek, OpenRouter), Groq, Perplexity, xAI and Replicate keys, GitHub
fine-grained ``github_pat_`` tokens, Google ``AIza`` keys, npm ``npm_`` tokens, Hugging
Face ``hf_`` tokens, Slack ``xapp-`` tokens, Stripe test keys and webhook secrets, Entra
ID client secrets, ``.npmrc`` auth tokens, whole private-key blocks (also ``ENCRYPTED
PRIVATE KEY``, and cut before their END line), passwords in URLs with ``!$&'()*+,;=``,
``Authorization`` headers (Bearer, Basic, token), ``curl -u``, command-line options and
assignments labelled in Chinese (密码, 口令, 密钥, 令牌). Some of its own patterns are
replaced: OpenAI's, the JWT one and npm's backtrack quadratically over a long run
(20,000 repeats of ``sk-`` take 5 s; two write ``[A-Za-z0-9-_]``, a range from ``9`` to
``_``), npm's also reads to the end of the line, Azure's takes its label with the key;
the rules' notes say which.

Cost. A token rule is tried only inside the runs of 20 or more token characters that
hold one of its literals; any other rule only where one of its literals starts (found
with ``bytes.find`` in the text's lowercased UTF-8). Prose with neither comes back after
one regex pass and a literal search. Every pattern is linear: bounded or possessive
repeats, no nested unbounded ones, so a 5 MB text or a million-character run costs a
pass or two per rule. An assignment's value must look like a secret: not a placeholder
(``xxx``, ``<your-key>``, ``${VAR}``, ``changeme``, ``****``), a reference
(``os.environ[...]``, ``process.env.X``), a literal (``None``, ``true``) or a path, and
random (letters with digits, or detect-secrets' entropy) or, when quoted or assigned
with ``=``, long enough.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from shared.importing.redaction_rules import RULES, Rule


@dataclass(frozen=True)
class Redacted:
    """A text with its credentials replaced, and the kinds taken out, in text order."""

    text: str
    kinds: tuple[str, ...]


# A check sees the match and the secret's span in it, and the rule's kind; it answers
# the span to take out (possibly narrowed) or None to leave the match alone.
Check = Callable[[re.Match[str], int, int, str], tuple[int, int] | None]

_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
# A token rule's match lies in a run like this (``Rule.token``).
_RUNS = re.compile(r"[A-Za-z0-9_+/=.~:-]{20,}")
_MARK = "[redacted: {}]"

# ------------------------------------------------------------------ value tests
_PLACEHOLDER = re.compile(
    r"(?i)your|example|placeholder|change_?me|changeit|replace|dummy|sample|redacted"
    r"|xxx|todo|fixme|insert|foobar|\.\.\.|…|\*\*\*|<|>"
)
_LITERAL_WORDS = frozenset(
    {
        *("none", "null", "nil", "true", "false", "yes", "no", "undefined", "empty"),
        *("required", "optional", "default", "hidden", "masked", "value", "env"),
        *("string", "str", "bytes", "int", "bool"),
        *("secret", "secrets", "password", "passwd", "pass", "token", "key", "apikey"),
    }
)
# $VAR, ${VAR}, $(cmd), %(name)s, %VAR%, {name}, {{ var }}, [list], (expr)
_TEMPLATE = re.compile(r"\$[{(A-Za-z_]|%[({A-Za-z_]|[{\[(]")
# Letters shaped like words or identifiers: password, PASSWORD, Password, SecretStr.
# Possessive: a run of lowercase letters is never re-split (no backtracking blow-up).
_WORDLIKE = re.compile(r"(?:[A-Z]?+[a-z]++)++|[A-Z]++[a-z]*+")
# os.environ[...], process.env.X, settings.SECRET_KEY, getenv(...), Optional[str]: a
# dotted name, or any name called or indexed.
_IDENT = r"[A-Za-z_$][\w$]*"
_REFERENCE = re.compile(
    rf"{_IDENT}(?:(?:\.|->|::){_IDENT})*[(\[]|{_IDENT}(?:(?:\.|->|::){_IDENT})+$"
)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MASK_CHARS = frozenset("*xX•·.#?-_0 ")
_PATH_START = re.compile(r"(?:~|\.{1,2})?/|[A-Za-z]:[\\/]")
_PATH_SEGMENT = re.compile(r"[A-Za-z0-9][a-z0-9._-]*|[a-z0-9._-]+|[A-Z0-9._-]+")
_PATH_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}$")
_LINE_SUFFIX = re.compile(r"(?::\d+){1,2}$")
# The rest of a label naming something about the secret rather than the secret:
# password_min_length, token_type, secret_name, api_key_header, PASSWORD_FILE.
_META = re.compile(
    r"(?i)(?:^|[_.-])(?:len|length|min|max|count|limit|type|kind|name|id|ids|file|path|dir"
    r"|url|uri|endpoint|env|var|field|label|prompt|hint|regex|pattern|policy|expiry|expires"
    r"|expiration|ttl|timeout|header|prefix|suffix|format|version|arn|ref|required|enabled"
    r"|mode|source|provider|store|manager|backend|location|scope|usage|index|stdin)s?$"
)
_STRONG_SEPARATORS = frozenset({"=", "==", "===", ":=", "=>"})
_TRAILING = ".,:;)]}>!"  # "!": TypeScript's non-null assertion (process.env.X!)
# JavaScript's typed arrays and buffers: the type of a key, never a key.
_TYPE_NAME = re.compile(
    r"(?:Big)?U?[Ii]nt(?:8|16|32|64)(?:Clamped)?Array|Float(?:32|64)Array|ArrayBuffer|Buffer"
)


def _is_path(value: str) -> bool:
    value = _LINE_SUFFIX.sub("", value)  # "rules.md:69" cites a line of a file
    if _PATH_START.match(value):
        segments = re.split(r"[\\/]+", value.lstrip("~."))
    elif "/" in value and _PATH_EXTENSION.search(value):
        segments = value.split("/")
    else:
        return False
    return all(_PATH_SEGMENT.fullmatch(s) for s in segments if s and not s.endswith(":"))


def _is_masked(value: str) -> bool:
    return len(set(value)) == 1 or set(value) <= _MASK_CHARS


def is_placeholder(value: str) -> bool:
    """A value standing for a secret rather than being one: a template, a masked or
    example value, a literal such as None or a type name, a reference to a variable,
    an environment lookup, a URL, an address or a path."""
    low = value.lower()
    return bool(
        low in _LITERAL_WORDS
        or _PLACEHOLDER.search(value)
        or _TEMPLATE.match(value)
        or _is_masked(value)
        or _REFERENCE.match(value)
        or _URL.match(value)
        or _EMAIL.fullmatch(value)
        or _is_path(value)
        or _TYPE_NAME.fullmatch(value)
    )


@functools.cache
def _entropy() -> tuple[Callable[[str], float], float, Callable[[str], float], float]:
    """detect-secrets' Shannon entropy over the base64 and hex alphabets, and its limits."""
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    b64, hexa = Base64HighEntropyString(), HexHighEntropyString()
    return (
        b64.calculate_shannon_entropy,
        b64.entropy_limit,
        hexa.calculate_shannon_entropy,
        hexa.entropy_limit,
    )


_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=")
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


def high_entropy(value: str) -> bool:
    """Random by detect-secrets' measure: over its limit for the base64 alphabet, 4.5
    bits per character, or for a hex string the hex one, 3.0 bits."""
    b64, b64_limit, hexa, hex_limit = _entropy()
    chars = set(value)
    if chars <= _HEX_CHARS and hexa(value) > hex_limit:
        return True
    return chars <= _B64_CHARS and b64(value) > b64_limit


def looks_secret(value: str, *, strong: bool, numeric: bool = False, min_len: int = 6) -> bool:
    """Whether an assigned value looks like a real secret.

    Not a placeholder (:func:`is_placeholder`); then random (high entropy, or letters
    with digits), or, where the context says it is a value (``strong``: quoted, ``=``,
    a Chinese label, an option), letters with symbols or letters alone. In a weak
    context (``password: x``, ``password is x``) letters with symbols need both cases and
    letters alone must not be shaped like a word or an identifier. Digits alone count
    only where ``numeric`` (a password with a strong context: ``PIN=482913``). A phrase
    of several words counts only with a digit in it.
    """
    if len(value) < min_len or is_placeholder(value):
        return False
    if high_entropy(value):
        return True
    alpha = any(c.isalpha() for c in value)
    digit = any(c.isdigit() for c in value)
    if not alpha:
        return numeric and strong and digit
    if " " in value:
        # A passphrase is a few words; a sentence is prose (a JSON note, a dossier line),
        # and so is a file reference with words after it.
        return digit and value.count(" ") < 6 and not _is_path(value.split()[0])
    if digit:
        return True
    upper = any(c.isupper() for c in value)
    lower = any(c.islower() for c in value)
    if not value.isalpha():
        if not strong and all(p and _WORDLIKE.fullmatch(p) for p in value.split("_")):
            return False  # an identifier (``--- PASS: TestWrite_NoSessions``), not a secret
        return strong or (upper and lower)
    if strong:
        return True
    # Words run together (TestTrackCommandDetachedSkipsNilCommand) name things.
    return not _WORDLIKE.fullmatch(value)


# ------------------------------------------------------------------ checks
# An earlier redaction's mark: the kind it names ("[redacted: api-key]") is no label.
_MARK_OPEN = _MARK.split("{", 1)[0]
_MARK_REACH = len(_MARK_OPEN) + 32  # a kind's name is short


def _in_mark(text: str, at: int) -> bool:
    """``at`` lies inside the kind of an earlier redaction's mark."""
    before = text[max(0, at - _MARK_REACH) : at]
    opened = before.rfind(_MARK_OPEN)
    return opened >= 0 and "]" not in before[opened:]


# A bare "pass" after another word is mostly the English noun or verb ("Lighting pass:
# `Shader`", "all pass => passed", "first pass: parse"), unless that word names whose
# password it is: there the value must look random to count.
_PASS_OWNER = frozenset(
    {"db", "database", "admin", "root", "user", "ftp", "smtp", "mail", "wifi", "vpn", "ssh"}
)
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \t]$")


def _prose_pass(m: re.Match[str]) -> bool:
    kw = m.groupdict().get("kw") or ""
    if kw.lower() != "pass" or m.groupdict().get("rest"):
        return False
    before = _WORD_BEFORE.search(m.string, 0, m.start("kw"))
    return before is not None and before.group(1).lower() not in _PASS_OWNER


def _check_value(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    if _in_mark(m.string, m.start()):
        return None
    groups = m.groupdict()
    rest = groups.get("rest") or ""
    # "tokens", "tokenizer", "passwords", "secretary": the keyword is part of a word.
    if rest[:1].islower() or (rest and _META.search(rest)):
        return None
    quoted = groups.get("qv") is not None or bool(groups.get("q"))
    text = m.string
    if not quoted:
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
    sep = groups.get("sep")
    strong = quoted or sep is None or sep in _STRONG_SEPARATORS or bool(groups.get("cjk"))
    value = text[start:end]
    if kind == "password" and _prose_pass(m):
        # Still a password when the value is random-looking ("my pass: Xk9#mQ2!vLp").
        ok = any(c.isdigit() for c in value) and looks_secret(value, strong=False)
        return (start, end) if ok else None
    ok = looks_secret(value, strong=strong, numeric=kind == "password")
    return (start, end) if ok else None


def _check_token(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    value = m.string[start:end]
    return (start, end) if looks_secret(value, strong=False, min_len=8) else None


def _check_url(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    value = m.string[start:end]
    low = value.lower()
    if len(value) < 3 or low in _LITERAL_WORDS or _PLACEHOLDER.search(value):
        return None
    if _TEMPLATE.match(value) or _is_masked(value):
        return None
    return start, end


def _check_random(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    value = m.string[start:end]
    alpha = any(c.isalpha() for c in value)
    digit = any(c.isdigit() for c in value)
    return (start, end) if alpha and digit else None


def _check_basic(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    value = m.string[start:end]
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    user, colon, password = decoded.partition(":")
    ok = colon and user and password and decoded.isprintable()
    return (start, end) if ok else None


def _check_jwt(m: re.Match[str], start: int, end: int, kind: str) -> tuple[int, int] | None:
    from detect_secrets.plugins.jwt import JwtTokenDetector

    return (start, end) if JwtTokenDetector.is_formally_valid(m.string[start:end]) else None


CHECKS: dict[str, Check] = {
    "value": _check_value,
    "token": _check_token,
    "url": _check_url,
    "random": _check_random,
    "basic": _check_basic,
    "jwt": _check_jwt,
}


# ------------------------------------------------------------------ engine
@dataclass(frozen=True)
class _Compiled:
    rule: Rule
    patterns: tuple[re.Pattern[str], ...]
    triggers: tuple[str, ...]
    anchors: tuple[bytes, ...]
    tail: re.Pattern[str] | None
    check: Check | None


def _plugin_patterns(source: str) -> tuple[re.Pattern[str], ...]:
    """The ``denylist`` of the detect-secrets plugin ``source`` names (or its i-th)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    name, _, index = source.removeprefix("detect-secrets:").partition("#")
    # Typed with an unbound TypeVar upstream: name the value type here.
    mapping = cast("dict[str, type]", get_mapping_from_secret_type_to_class())
    classes = {c.__name__: c for c in mapping.values()}
    denylist = list(cast(Sequence[re.Pattern[str]], vars(classes[name])["denylist"]))
    return (denylist[int(index)],) if index else tuple(denylist)


def _compile(rule: Rule) -> _Compiled:
    if rule.source.startswith("detect-secrets:"):
        patterns = _plugin_patterns(rule.source)
    else:
        patterns = (re.compile(rule.source),)
    return _Compiled(
        rule=rule,
        patterns=patterns,
        triggers=rule.triggers,
        anchors=tuple(t.encode() for t in rule.triggers),
        tail=re.compile(rule.tail) if rule.tail else None,
        check=CHECKS[rule.check] if rule.check else None,
    )


@dataclass(frozen=True)
class _Engine:
    rules: tuple[_Compiled, ...]
    anchors: tuple[bytes, ...]  # every trigger of the rules that are not token rules
    any_anchor: re.Pattern[bytes]  # one of them, to pass over a text without any fast
    token_triggers: tuple[str, ...]  # every trigger of the token rules


@functools.cache
def _engine() -> _Engine:
    """The rules compiled, detect-secrets' patterns fetched: once, at first use."""
    rules = tuple(_compile(rule) for rule in RULES)
    anchors = tuple(sorted({a for c in rules if not c.rule.token for a in c.anchors}))
    token_triggers = tuple(sorted({t for c in rules if c.rule.token for t in c.triggers}))
    any_anchor = re.compile(b"|".join(map(re.escape, anchors)))
    return _Engine(rules, anchors, any_anchor, token_triggers)


class _Scan:
    """One text being searched: its runs of token characters, and where each of the
    anchors (the other rules' triggers) starts in it, case-blind."""

    def __init__(self, text: str, anchors: tuple[bytes, ...], gate: re.Pattern[bytes]) -> None:
        self.text = text
        self.runs = [(m.start(), m.end(), m[0].lower()) for m in _RUNS.finditer(text)]
        self.all_runs = "\n".join(low for *_, low in self.runs)
        # Lowercasing the UTF-8 bytes changes ASCII letters only, and an anchor's byte
        # offset is a character boundary: mapped back by counting the characters.
        folded = text.encode("utf-8", "surrogatepass").lower()
        self.starts: dict[bytes, list[int]] = {}
        if gate.search(folded) is None:
            return
        for anchor in anchors:
            at = folded.find(anchor)
            if at >= 0:
                offsets = self.starts[anchor] = []
                while at >= 0:
                    offsets.append(at)
                    at = folded.find(anchor, at + 1)
        if self.starts and not text.isascii():
            chars: dict[int, int] = {}
            count, last = 0, 0
            for at in sorted({at for offsets in self.starts.values() for at in offsets}):
                count += len(folded[last:at].decode("utf-8", "surrogatepass"))
                chars[at], last = count, at
            for offsets in self.starts.values():
                offsets[:] = [chars[at] for at in offsets]


def _secret_span(c: _Compiled, m: re.Match[str]) -> tuple[int, int] | None:
    for group in c.rule.group:
        if m.start(group) >= 0:
            start, end = m.span(group)
            break
    else:
        return None
    text = m.string
    if c.rule.bounded and m.start() > 0 and text[m.start() - 1] in _ASCII_ALNUM:
        return None
    if c.tail is not None:
        tail = c.tail.match(text, end)
        if tail is not None:
            end = tail.end()
    if c.check is not None:
        return c.check(m, start, end, c.rule.kind)
    return (start, end) if end > start else None


def _matches(c: _Compiled, scan: _Scan) -> list[re.Match[str]]:
    text = scan.text
    found: list[re.Match[str]] = []
    if c.rule.token:
        for start, end, low in scan.runs:
            if any(t in low for t in c.triggers):
                for pattern in c.patterns:
                    found.extend(pattern.finditer(text, start, end))
        return found
    starts = sorted({at for anchor in c.anchors for at in scan.starts.get(anchor, ())})
    for pattern in c.patterns:
        free = 0  # matches do not overlap: the next one starts after the last one
        for at in starts:
            if at >= free:
                m = pattern.match(text, at)
                if m is not None:
                    found.append(m)
                    free = max(m.end(), at + 1)
    return found


def _spans(c: _Compiled, scan: _Scan) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for m in _matches(c, scan):
        span = _secret_span(c, m)
        if span is not None and span[1] > span[0]:
            spans.append(span)
    return spans


def find(index: int, text: str) -> list[tuple[int, int]]:
    """The spans rule ``RULES[index]`` alone takes out of ``text`` (for tests)."""
    c = _engine().rules[index]
    return _spans(c, _Scan(text, c.anchors, re.compile(b"|".join(map(re.escape, c.anchors)))))


def redact(text: str) -> Redacted:
    """``text`` with every credential replaced by ``[redacted: <kind>]``."""
    engine = _engine()
    scan = _Scan(text, engine.anchors, engine.any_anchor)
    if not scan.starts and not scan.runs:
        return Redacted(text, ())
    in_runs = {t for t in engine.token_triggers if t in scan.all_runs} if scan.runs else set()
    found: list[tuple[int, int, int, str]] = []  # start, rule order, end, kind
    for order, c in enumerate(engine.rules):
        if c.rule.token:
            if in_runs.isdisjoint(c.triggers):
                continue
        elif not any(a in scan.starts for a in c.anchors):
            continue
        found.extend((start, order, end, c.rule.kind) for start, end in _spans(c, scan))
    if not found:
        return Redacted(text, ())
    return _replace(text, found)


def _replace(text: str, found: list[tuple[int, int, int, str]]) -> Redacted:
    # Overlapping spans become their union, named by the first-listed rule among them.
    found.sort()
    merged: list[tuple[int, int, int, str]] = []  # start, end, rule order, kind
    for start, order, end, kind in found:
        if merged and start < merged[-1][1]:
            m_start, m_end, m_order, m_kind = merged[-1]
            if order < m_order:
                m_order, m_kind = order, kind
            merged[-1] = (m_start, max(m_end, end), m_order, m_kind)
        else:
            merged.append((start, end, order, kind))
    parts: list[str] = []
    pos = 0
    for start, end, _, kind in merged:
        parts += (text[pos:start], _MARK.format(kind))
        pos = end
    parts.append(text[pos:])
    return Redacted("".join(parts), tuple(kind for *_, kind in merged))
