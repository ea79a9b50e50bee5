"""Chinese punctuation marks, one character each (data only): the full-width forms a
Chinese line writes where English writes ":", ",", "(" ... (see ``en/marks.py``)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "punct:colon": ("：",),
    "punct:semicolon": ("；",),
    "punct:comma": ("，",),
    "punct:stop": ("。",),
    "punct:exclaim": ("！",),
    "punct:question": ("？",),
    "punct:open": ("（",),
    "punct:close": ("）",),
    # After a list item's number: "1．" (the full-width full stop) and "1、".
    "punct:number_mark": ("．", "、"),
    # The enumeration comma between the items of a list ("单引号、行宽 200").
    "punct:enum": ("、",),
}
