"""Marker lexicons the scanner judges events with, for English and Chinese.

Corrections, standing instructions, preferences, approvals, greetings/receipts and
transient questions; each detector returns the matched marker (so a decision can
carry it as its reason) or None. Also the "wanted behaviour" a correction states and
the candidate (trigger, direction) rule of a standing instruction. Pure functions.
Every table is matched through :mod:`shared.language.prefilter`: one pass finds a text's
literals for all tables, and only the patterns owning one of them run.
"""

from __future__ import annotations

import functools
import re

from shared.language.prefilter import LiteralScanner, MarkerTable
from shared.language.text import CJK_CHAR, CJK_RUN_RE, normalise, one_line, split_trigger, tokens


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_CORRECTION_PATTERNS: tuple[tuple[str, str], ...] = (
    ("no,", r"^\s*no\b\s*[,.!;:\-\u2013\u2014]"),
    ("nope", r"^\s*nope\b"),
    ("that's wrong", r"\bthat'?s (?:wrong|not right|incorrect|not it)\b"),
    ("wrong", r"\b(?:wrong|incorrect)\b"),
    ("not what I asked", r"\bnot what i (?:asked|wanted|meant|said)\b"),
    ("I told you", r"\bi (?:told|asked|said to|already said|already told) you\b"),
    ("I said", r"\bi (?:said|told you)\b"),
    ("again you", r"\b(?:again,? you|you again|you keep|you still|yet again|once again)\b"),
    ("you ... again", r"\byou \w+\b[^.?!]{0,60}\bagain\b"),
    ("stop", r"\bstop\s+(?!by\b)\w+"),
    ("don't", r"\b(?:don'?t|do not|dont)\b"),
    ("actually", r"^\s*actually\b"),
    ("instead", r"\binstead\b"),
    ("you forgot", r"\byou (?:forgot|missed|ignored|didn'?t|did not|should have)\b"),
    ("should have", r"\bshould(?:'ve| have)\b"),
    ("why did you", r"\bwhy (?:did|do) you\b"),
    ("you ... without", r"\byou \w+ without\b"),
    ("still doesn't", r"\bstill (?:doesn'?t|does not|isn'?t|is not|hasn'?t|not)\b"),
    ("out of date", r"\b(?:out of date|outdated|obsolete|no longer|we stopped|cancel+ed)\b"),
    ("must ... now", r"\b(?:must|has to|have to|needs? to)\b[^.!?]{0,80}\bnow\b"),
    ("不对", r"不对"),
    ("错了", r"错了|搞错|弄错|错误"),
    ("不是", r"(?<!是)不是(?!吗)"),
    ("我说过", r"我(?:说过|讲过|告诉过你|已经说)"),
    ("别再", r"别再|别"),
    ("不要", r"不要"),
    ("应该是", r"应该是|应该"),
    ("又", r"又"),
    ("重新", r"重新|重做|再来"),
    ("你忘了", r"你(?:忘了|没有|没)"),
    ("改成", r"改成|改为|换成|改用"),
    ("过时", r"过时|不用再|不再需要|取消了|作废"),
)
_INSTRUCTION_PATTERNS: tuple[tuple[str, str], ...] = (
    ("always", r"\balways\b"),
    ("from now on", r"\bfrom now on\b"),
    ("never", r"\bnever\b(?! mind)"),
    ("every time", r"\b(?:every|each) time\b|\bwhenever\b"),
    ("going forward", r"\bgoing forward\b|\bin (?:the )?future\b|\bnext time\b"),
    ("remember to", r"\bremember (?:to|that)\b|\bdon'?t forget\b"),
    ("please make sure", r"\bmake sure\b|\bbe sure to\b"),
    ("by default", r"\bby default\b|\bas a rule\b"),
    ("以后", r"以后|往后"),
    ("每次", r"每次|每当"),
    ("永远", r"永远|始终|总是"),
    ("记住", r"记住|记得|别忘了"),
    ("一律", r"一律|统一"),
    ("务必", r"务必|必须|一定要"),
    ("今后", r"今后|从现在开始|从今天起|下次"),
)
_PREFERENCE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("I prefer", r"\bi(?:'d| would)? prefer\b|\bmy preference\b"),
    ("I'd rather", r"\bi'?d rather\b|\bi would rather\b"),
    ("I like", r"\bi (?:really )?like (?:it )?when\b|\bi like\b"),
    ("I don't like", r"\bi (?:don'?t|do not) (?:like|want|enjoy)\b|\bi (?:hate|dislike)\b"),
    ("I want you to", r"\bi (?:want|need|'d like|would like) you to\b"),
    ("我喜欢", r"我(?:更|比较|不|不太)?喜欢|我讨厌|我不想要"),
    ("我希望", r"我希望|希望你"),
    ("我偏好", r"我(?:偏好|倾向|习惯)"),
    ("我要你", r"我要你|我想要你|我需要你"),
)
_APPROVAL_PATTERNS: tuple[tuple[str, str], ...] = (
    ("perfect", r"\b(?:perfect|exactly|spot on|well done|great job|nice work|nailed it)\b"),
    ("that's right", r"\bthat'?s (?:right|correct|it|what i wanted|exactly what)\b"),
    ("正是", r"正是|没错|完美|很好|非常好|就是这样|对了|做得好"),
)


_GREETING_WORDS = _words(
    """hi hello hey yo thanks thank thx ty ok okay k kk got it cool great nice good morning
    evening afternoon night bye goodbye cheers sure yes yep yeah alright perfect awesome
    sounds fine understood noted you much lot a so very all right welcome np"""
)
_GREETING_ZH = (
    "你好",
    "您好",
    "谢谢",
    "多谢",
    "感谢",
    "收到",
    "好的",
    "好滴",
    "嗯",
    "早上好",
    "早安",
    "晚安",
    "再见",
    "拜拜",
    "明白",
    "知道了",
    "了解",
    "可以",
    "行",
    "好",
    "哈",
    "辛苦了",
    "没问题",
    "对",
    "是的",
)
_QUESTION_START_RE = re.compile(
    r"^\s*(?:what|how|when|where|why|who|which|is|are|was|were|do|does|did|can|could|"
    r"will|would|should|have|has)\b",
    re.IGNORECASE,
)
_ZH_QUESTION_RE = re.compile(r"吗[？?。.!！]*\s*$|[？?]\s*$|什么|怎么|几点|多少|哪|谁|是不是")


_WANTED_PATTERNS: tuple[str, ...] = (
    r"(?:^|[,.;!:]\s*|\bplease\s+|\b(?:could|can|would|will) you (?:please )?)"
    r"((?:stop|don'?t|do not|never)\s+\w.+)",
    r"(?:^|[，,。；;！!：:]\s*)((?:别再|不要|别)\S.+)",
    r"\binstead,?\s+(?:please\s+)?(.+)",
    r"\b(?:you should|you need to|you must|please)\s+(.+)",
    r"\bi (?:want|need|asked for|told you to|said to|wanted)\s+(.+)",
    r"\b(?:always|from now on,?|going forward,?|remember to)\s+(.+)",
    r"应该是?(.+)",
    r"(?:而是|改成|改为|换成)(.+)",
    r"(?:请|要|一律|务必|记得|记住)(.+)",
)

_ONE_OFF_PATTERN = (
    r"\b(?:this time|just this once|for now|for today|today only|right now|yet)\b"
    r"|这次|这一次|这回|今天先|暂时|先这样"
)

_CORRECTIONS = MarkerTable(_CORRECTION_PATTERNS)
_INSTRUCTIONS = MarkerTable(_INSTRUCTION_PATTERNS)
_PREFERENCES = MarkerTable(_PREFERENCE_PATTERNS)
_APPROVALS = MarkerTable(_APPROVAL_PATTERNS)
_WANTED = MarkerTable(tuple((pattern, pattern) for pattern in _WANTED_PATTERNS))
_ONE_OFF = MarkerTable((("one-off", _ONE_OFF_PATTERN),))
# One pass over a text finds the literals of every table; the detectors a turn runs
# (and is_transient_question / candidate_rule re-running them) share it via the cache.
_SCANNER = LiteralScanner(
    lit
    for table in (_CORRECTIONS, _INSTRUCTIONS, _PREFERENCES, _APPROVALS, _WANTED, _ONE_OFF)
    for lit in table.all_literals()
)


@functools.lru_cache(maxsize=256)
def _present(norm: str) -> frozenset[str]:
    return _SCANNER.present(norm)


def _first(table: MarkerTable, text: str) -> str | None:
    norm = normalise(text)
    return table.first(norm, _present(norm))


@functools.lru_cache(maxsize=256)
def markers(text: str) -> tuple[str | None, str | None, str | None]:
    """(correction, instruction, preference) markers of ``text``: what the judge asks
    of every turn, and is_transient_question again, from one normalisation and scan."""
    norm = normalise(text)
    present = _present(norm)
    return (
        _CORRECTIONS.first(norm, present),
        _INSTRUCTIONS.first(norm, present),
        _PREFERENCES.first(norm, present),
    )


def correction_marker(text: str) -> str | None:
    """The first correction marker found in ``text`` ("no,", "不对", ...), or None."""
    return _first(_CORRECTIONS, text)


def instruction_marker(text: str) -> str | None:
    """The first standing-instruction marker ("always", "以后", ...), or None."""
    return _first(_INSTRUCTIONS, text)


def preference_marker(text: str) -> str | None:
    """The first preference marker ("I prefer", "我喜欢", ...), or None."""
    return _first(_PREFERENCES, text)


# Longest first, so a greeting containing a shorter one is removed whole.
_GREETING_ZH_ORDER = tuple(sorted(_GREETING_ZH, key=len, reverse=True))
# A CJK character in no greeting word survives every removal below, so its presence
# alone decides "not a greeting" without doing them.
_NON_GREETING_CJK_RE = re.compile(
    "(?![" + "".join(sorted(set("".join(_GREETING_ZH)))) + "])" + CJK_CHAR
)
_GREETING_WORD_RE = re.compile(r"[a-z0-9']+")


# The judge and then the scanner ask this of the same text; the cache makes it once.
@functools.lru_cache(maxsize=256)
def is_greeting_or_receipt(text: str) -> bool:
    """True for short messages made only of greeting / thanks / receipt words."""
    norm = normalise(text)
    zh = norm
    if not norm.isascii():
        if _NON_GREETING_CJK_RE.search(norm):
            return False
        for word in _GREETING_ZH_ORDER:
            zh = zh.replace(word, " ")
        if CJK_RUN_RE.search(zh):
            return False
    # At most eight words, each a greeting word; the first that is not decides.
    count = 0
    for match in _GREETING_WORD_RE.finditer(zh):
        count += 1
        word = match.group()
        if count > 8 or not (word.replace("'", "") in _GREETING_WORDS or word == "it"):
            return False
    return count > 0 or zh != norm


def approval_marker(text: str) -> str | None:
    """The first approval marker ("perfect", "没错", ...) in ``text``, or None."""
    return _first(_APPROVALS, text)


def one_off_marker(text: str) -> str | None:
    """A qualifier that limits a request to this occasion ("this time", "这次"), or None."""
    norm = normalise(text)
    if not _ONE_OFF.candidates(_present(norm)):
        return None
    match = _ONE_OFF.regexes[0].search(norm)
    return match.group(0) if match else None


def is_question(text: str) -> bool:
    """True when ``text`` reads as a question (EN or ZH)."""
    norm = normalise(text).strip()
    if norm.endswith(("?", "？")) or _QUESTION_START_RE.match(norm):
        return True
    # In ASCII text only its "?$" branch could match, and the ending was checked.
    return not norm.isascii() and bool(_ZH_QUESTION_RE.search(norm))


def is_transient_question(text: str) -> bool:
    """A question with no correction, instruction or preference marker in it."""
    return is_question(text) and markers(text) == (None, None, None)


_CLAUSE_END_RE = re.compile(r"[.!。！\n]")


@functools.lru_cache(maxsize=256)
def wanted_behaviour(text: str) -> str | None:
    """The behaviour a correction or instruction asks for, when the text states one."""
    full = normalise(text)
    norm = full.strip()
    # A literal absent from the text is absent from its stripped form too.
    for i in _WANTED.candidates(_present(full)):
        match = _WANTED.regexes[i].search(norm)
        if match:
            clause = _CLAUSE_END_RE.split(match.group(1).strip())[0].strip(" ,，;；")
            if len(tokens(clause)) >= 1 and len(clause) >= 2:
                return clause
    return None


_LEAD_RE = re.compile(
    r"^(?:(?:from now on|going forward|in (?:the )?future|next time|please|remember to|"
    r"make sure to|make sure|always|by default|also|and|so|ok|okay|no|actually|"
    r"以后|今后|从现在开始|下次|记住|记得|请|务必|一律|另外|还有)[\s,，:：]*)+",
    re.IGNORECASE,
)


_SENTENCE_END_RE = re.compile(r"(?<=[.!?。！？])\s*|\n")


def candidate_rule(text: str) -> tuple[str, str]:
    """(trigger, direction) of a standing instruction, after dropping its lead words.

    "From now on, when I ask for a summary, use bullets" -> ("I ask for a summary",
    "use bullets"). The trigger is '' when the sentence names none.
    """
    first = _SENTENCE_END_RE.split(one_line(text, 1000))
    for sentence in first:
        if (
            instruction_marker(sentence)
            or preference_marker(sentence)
            or wanted_behaviour(sentence)
        ):
            body = _LEAD_RE.sub("", _straight(sentence).strip())
            trigger, direction = split_trigger(body)
            return trigger, _LEAD_RE.sub("", direction).strip(" .。!！")
    return split_trigger(_LEAD_RE.sub("", _straight(text).strip()))


def _straight(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


# --- text as written, and the kind of a weakening -------------------------------------


def _char_map(text: str) -> list[int] | None:
    """For each character of ``normalise(text)``, the index of the original character it
    came from; None when per-character folding does not rebuild the whole fold (a
    composed sequence), so no span can be mapped back safely."""
    folded = normalise(text)
    if len(folded) == len(text):
        return list(range(len(text)))
    index: list[int] = []
    for i, char in enumerate(text):
        index.extend([i] * len(normalise(char)))
    if len(index) != len(folded) or "".join(normalise(c) for c in text) != folded:
        return None
    return index


def as_written(text: str, clause: str, start: int = 0) -> str | None:
    """The span of ``text`` whose fold is ``clause`` (a substring of ``normalise(text)``
    at or after ``start``), with the writer's case, marks and quotes; None when it
    cannot be found. Kernel files get this, never the folded clause."""
    folded = normalise(text)
    at = folded.find(clause, start)
    if at < 0 or not clause:
        return None
    index = _char_map(text)
    if index is None:
        return None
    end = index[at + len(clause) - 1] + 1
    return text[index[at] : end]


def wanted_as_written(text: str) -> str | None:
    """:func:`wanted_behaviour` as the user wrote it (case, diacritics, quotes kept)."""
    clause = wanted_behaviour(text)
    return as_written(text, clause) if clause else None


# What a correction says about the line it weakens (labelling "Board outcomes"): the
# practice stopped (obsolete), the user now wants another behaviour (direction
# changed), or neither (the caller decides recall miss from the line's own direction).
_OBSOLETE_RE = re.compile(
    r"\b(?:out of date|outdated|obsolete|deprecated|discontinued|cancel+ed|"
    r"no longer (?:needed|relevant|applies|apply|true|necessary|a thing|the case)|"
    r"we (?:stopped|quit|dropped|ended|no longer do|don'?t do that)|"
    r"(?:is|are)(?:n'?t| not) (?:needed|used|relevant|happening) any ?more|"
    r"(?:not|no) (?:doing|needed|using|sending) (?:that|this|it|them) any ?more|"
    r"doesn'?t apply any ?more|don'?t (?:do|need) (?:that|this|it) any ?more)"
    r"|过时|已经取消|取消了|停掉了|停了|不再需要|已经不用|不用再\S{0,8}了|作废|废弃|不再适用"
)
# A replacement behaviour is named: the line's direction changes rather than retires.
_REPLACEMENT_RE = re.compile(
    r"\b(?:instead|rather than|from now on|going forward|switch(?:ed)? to|not the old|"
    r"(?:must|should|needs? to|has to|have to)\b[^.!?。！？]{0,80}\bnow\b|"
    r"\bnow\b[^.!?。！？]{0,12}\b(?:must|should|needs? to|has to|have to)\b)"
    r"|以后改成|改成|改为|换成|改用|而不是|现在要|现在改|从现在开始"
)
_CHANGE_RE = re.compile(r"\bno longer\b|不要再|别再|以后不要|以后别")

# The new direction of a direction change, in the order a reader looks for it; run
# on the folded text and mapped back with :func:`as_written`.
_NEW_DIRECTION_RES: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"(?:以后改成|改成|改为|换成|改用)([^。！!；;\n]+)",
        r"(?:^|[.!?;,:]\s*)(?:please\s+)?([a-z][^.!?;,:\n]*?\s+instead of\s+[^.!?;,\n]+)",
        r"\binstead,?\s+(?!of\b)(?:please\s+)?([^.!?;\n]+)",
        r"\b(?:from now on|going forward),?\s+([^.!?;\n]+)",
        r"(?:^|[.!?;]\s+|,\s*)((?:the |our |my |your |all |every )?[\w'-]+(?: [\w'-]+){0,5} "
        r"(?:must|should|needs? to|has to|have to) [^.!?;\n]*\bnow\b[^.!?;\n]*)",
        r"(?:^|[.!?;,]\s*)((?:please\s+)?[a-z][^.!?;,\n]*?)\s+instead\b",
        r"(?:从现在开始|以后|今后)[，,]?([^。！!；;\n]+)",
    )
)


def new_direction(text: str) -> str | None:
    """The behaviour a direction change asks for, as written; falls back to
    :func:`wanted_as_written`."""
    folded = normalise(text)
    for regex in _NEW_DIRECTION_RES:
        match = regex.search(folded)
        if match:
            clause = match.group(1).strip(" ,，;；:：")
            if len(clause) >= 2:
                found = as_written(text, clause, match.start(1))
                if found:
                    return found
    return wanted_as_written(text)


def weakening_kind(text: str) -> str | None:
    """``obsolete`` / ``direction-changed`` from a correction's own words, else None."""
    folded = normalise(text)
    replaced = bool(_REPLACEMENT_RE.search(folded))
    if _OBSOLETE_RE.search(folded) and not replaced:
        return "obsolete"
    if replaced or _CHANGE_RE.search(folded):
        return "direction-changed"
    return None
