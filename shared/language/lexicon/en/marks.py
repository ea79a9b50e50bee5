"""English (and every Latin-script language's) punctuation marks, one character each
(data only).

A rule that reads a mark in whatever language it is written asks for the concept
(``lexicon.chars("punct:colon")``, ``lexicon.charset(...)`` inside a regex class) and
gets every registered language's form of it: ":" here, "：" in Chinese.
"""

from __future__ import annotations

from shared.language.lexicon.concept import Entry

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    "punct:colon": (":",),
    "punct:semicolon": (";",),
    "punct:comma": (",",),
    "punct:stop": (".",),
    "punct:exclaim": ("!",),
    "punct:question": ("?",),
    "punct:open": ("(",),
    "punct:close": (")",),
    # After a list item's number: "1." and "1)".
    "punct:number_mark": (".", ")"),
}
