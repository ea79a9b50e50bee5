"""English stems of the key terms durable instructions are made of (data only).

Each ``term:<name>`` concept lists the stems :func:`shared.language.text.token_set`
yields; the other languages list the words that name the same term, so the
clustering of new signals (:mod:`shared.weaver.concepts`) can match an instruction
given in English with one given in Chinese.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "term:report": ("report",),
    "term:weekly": ("week",),
    "term:summary": ("summar",),
    "term:file": ("file",),
    "term:table": ("tabl", "spreadsheet", "sheet", "csv"),
    "term:data": ("data", "raw"),
    "term:email": ("email", "mail"),
    "term:message": ("messag", "chat"),
    "term:link": ("link", "url"),
    "term:attach": ("attach", "includ"),
    "term:answer": ("answer",),
    "term:send": ("send", "post", "shar"),
    "term:check": ("check",),
    "term:translate": ("translat", "translation"),
    "term:chines": ("chines",),
    "term:english": ("english",),
    "term:first": ("first", "before"),
    "term:short": ("short", "sentenc"),
    "term:list": ("list",),
    "term:meet": ("meet",),
    "term:record": ("record", "minut", "not"),
    "term:group": ("group", "channel", "team"),
    "term:price": ("price",),
    "term:number": ("number", "figur"),
    "term:test": ("test",),
    "term:deploy": ("deploy",),
    "term:commit": ("commit",),
    "term:date": ("date", "deadlin"),
    "term:time": ("timezon", "zone"),
    "term:source": ("sourc",),
}
