"""Marker lexicons the scanner judges events with, for English and Chinese.

Corrections, standing instructions, preferences, approvals, greetings/receipts and
transient questions; each detector returns the matched marker (so a decision can
carry it as its reason) or None. Also the "wanted behaviour" a correction states and
the candidate (trigger, direction) rule of a standing instruction. Pure functions.
"""

from __future__ import annotations

import re

from shared.text import CJK_RUN_RE, normalise, one_line, split_trigger, tokens


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


_COMPILED: dict[str, re.Pattern[str]] = {}


def _first(patterns: tuple[tuple[str, str], ...], text: str) -> str | None:
    norm = normalise(text)
    for label, pattern in patterns:
        regex = _COMPILED.get(pattern)
        if regex is None:
            regex = _COMPILED[pattern] = re.compile(pattern)
        if regex.search(norm):
            return label
    return None


def correction_marker(text: str) -> str | None:
    """The first correction marker found in ``text`` ("no,", "不对", ...), or None."""
    return _first(_CORRECTION_PATTERNS, text)


def instruction_marker(text: str) -> str | None:
    """The first standing-instruction marker ("always", "以后", ...), or None."""
    return _first(_INSTRUCTION_PATTERNS, text)


def preference_marker(text: str) -> str | None:
    """The first preference marker ("I prefer", "我喜欢", ...), or None."""
    return _first(_PREFERENCE_PATTERNS, text)


def is_greeting_or_receipt(text: str) -> bool:
    """True for short messages made only of greeting / thanks / receipt words."""
    norm = normalise(text)
    zh = norm
    for word in sorted(_GREETING_ZH, key=len, reverse=True):
        zh = zh.replace(word, " ")
    if CJK_RUN_RE.search(zh):
        return False
    words = re.findall(r"[a-z0-9']+", zh)
    if len(words) > 8:
        return False
    return all(w.replace("'", "") in _GREETING_WORDS or w == "it" for w in words) and (
        bool(words) or zh != norm
    )


_APPROVAL_PATTERNS: tuple[tuple[str, str], ...] = (
    ("perfect", r"\b(?:perfect|exactly|spot on|well done|great job|nice work|nailed it)\b"),
    ("that's right", r"\bthat'?s (?:right|correct|it|what i wanted|exactly what)\b"),
    ("正是", r"正是|没错|完美|很好|非常好|就是这样|对了|做得好"),
)


def approval_marker(text: str) -> str | None:
    """The first approval marker ("perfect", "没错", ...) in ``text``, or None."""
    return _first(_APPROVAL_PATTERNS, text)


_ONE_OFF_RE = re.compile(
    r"\b(?:this time|just this once|for now|for today|today only|right now|yet)\b"
    r"|这次|这一次|这回|今天先|暂时|先这样"
)


def one_off_marker(text: str) -> str | None:
    """A qualifier that limits a request to this occasion ("this time", "这次"), or None."""
    match = _ONE_OFF_RE.search(normalise(text))
    return match.group(0) if match else None


def is_question(text: str) -> bool:
    """True when ``text`` reads as a question (EN or ZH)."""
    norm = normalise(text).strip()
    return norm.endswith(("?", "？")) or bool(
        _QUESTION_START_RE.match(norm) or _ZH_QUESTION_RE.search(norm)
    )


def is_transient_question(text: str) -> bool:
    """A question with no correction, instruction or preference marker in it."""
    return (
        is_question(text)
        and correction_marker(text) is None
        and instruction_marker(text) is None
        and preference_marker(text) is None
    )


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


def wanted_behaviour(text: str) -> str | None:
    """The behaviour a correction or instruction asks for, when the text states one."""
    norm = normalise(text).strip()
    for pattern in _WANTED_PATTERNS:
        match = re.search(pattern, norm)
        if match:
            clause = re.split(r"[.!。！\n]", match.group(1).strip())[0].strip(" ,，;；")
            if len(tokens(clause)) >= 1 and len(clause) >= 2:
                return clause
    return None


_LEAD_RE = re.compile(
    r"^(?:(?:from now on|going forward|in (?:the )?future|next time|please|remember to|"
    r"make sure to|make sure|always|by default|also|and|so|ok|okay|no|actually|"
    r"以后|今后|从现在开始|下次|记住|记得|请|务必|一律|另外|还有)[\s,，:：]*)+",
    re.IGNORECASE,
)


def candidate_rule(text: str) -> tuple[str, str]:
    """(trigger, direction) of a standing instruction, after dropping its lead words.

    "From now on, when I ask for a summary, use bullets" -> ("I ask for a summary",
    "use bullets"). The trigger is '' when the sentence names none.
    """
    first = re.split(r"(?<=[.!?。！？])\s*|\n", one_line(text, 1000))
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
