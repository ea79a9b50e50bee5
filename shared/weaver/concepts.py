"""Shared concepts of durable instructions in English and Chinese (issue #11, item 5).

The same standing instruction, given in English in one session and in Chinese in
another, must count as one recurring signal (labelling "Paraphrase and language").
English tokens (stems) and Chinese bigrams share nothing, so the clustering of
NEW_SIGNAL fragments also compares *concepts*: a small fixed bilingual table of the
key terms instructions are made of (the artefact: report, summary, file, table,
email ...; the action: attach, reply, send, check, translate ...; the order or
manner: first, short, bullets ...). Each concept lists the English stems
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

from shared.language.text import jaccard, normalise, token_set

# concept -> (English stems as token_set gives them, Chinese words)
_TABLE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "report": (("report",), ("报告", "周报", "日报", "月报", "汇报")),
    "weekly": (("week",), ("每周", "周报", "本周")),
    "summary": (("summar",), ("摘要", "总结", "概要", "小结")),
    "file": (("file",), ("文件", "文档", "附件")),
    "table": (("tabl", "spreadsheet", "sheet", "csv"), ("表格", "数据表", "CSV", "csv")),
    "data": (("data", "raw"), ("数据", "原始")),
    "email": (("email", "mail"), ("邮件", "邮箱")),
    "message": (("messag", "chat"), ("消息", "信息")),
    "link": (("link", "url"), ("链接", "网址")),
    "attach": (("attach", "includ"), ("附上", "附带", "附加", "带上")),
    "answer": (("answer",), ("回复", "回答", "答复")),
    "send": (("send", "post", "shar"), ("发送", "发给", "发到", "分享")),
    "check": (("check",), ("检查", "核对", "确认", "核实")),
    "translate": (("translat", "translation"), ("翻译",)),
    "chines": (("chines",), ("中文", "汉语")),
    "english": (("english",), ("英文", "英语")),
    "first": (("first", "before"), ("先", "之前", "首先")),
    "short": (("short", "sentenc"), ("简短", "简洁", "一句话", "一句")),
    "list": (("list",), ("列表", "要点", "列出")),
    "meet": (("meet",), ("会议", "开会")),
    "record": (("record", "minut", "not"), ("录音", "记录", "纪要", "笔记")),
    "group": (("group", "channel", "team"), ("群里", "群", "频道", "团队")),
    "price": (("price",), ("价格", "报价", "多少钱")),
    "number": (("number", "figur"), ("数字", "数据", "金额")),
    "test": (("test",), ("测试",)),
    "deploy": (("deploy",), ("部署", "发布", "上线")),
    "commit": (("commit",), ("提交",)),
    "date": (("date", "deadlin"), ("日期", "截止")),
    "time": (("timezon", "zone"), ("时区",)),
    "source": (("sourc",), ("来源", "出处")),
}
_BY_STEM: dict[str, str] = {}
for _concept, (_stems, _words) in _TABLE.items():
    for _stem in _stems:
        _BY_STEM[_stem] = _concept


@functools.lru_cache(maxsize=1024)
def concepts(text: str) -> frozenset[str]:
    """The table's concepts ``text`` names, in either language."""
    found = {_BY_STEM[t] for t in token_set(text) if t in _BY_STEM}
    folded = normalise(text)
    if not folded.isascii():
        for concept, (_stems, words) in _TABLE.items():
            if any(w.lower() in folded for w in words):
                found.add(concept)
    return frozenset(found)


def same_instruction(a: str, b: str) -> bool:
    """Two candidate rules read as one instruction: their content tokens mostly
    agree, or (across languages) they name mostly the same key concepts, at least
    three of them."""
    if jaccard(token_set(a), token_set(b)) >= 0.45:
        return True
    ca, cb = concepts(a), concepts(b)
    return len(ca & cb) >= 3 and jaccard(ca, cb) >= 0.6
