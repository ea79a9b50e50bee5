"""Punctuation marks in every registered language's form, for the rules' regexes.

Each name is the body of a regex character class (``rf"[{COLON}]"`` reads ":" and "：")
built from the lexicon's ``punct:`` concepts, so a rule names the mark it means and
never the forms a language writes it in; a plain-text test of a mark (``rstrip``,
``in``) asks :func:`shared.language.lexicon.chars` for the characters themselves.
"""

from __future__ import annotations

from shared.language.lexicon import charset

COLON = charset("punct:colon")
SEMICOLON = charset("punct:semicolon")
COMMA = charset("punct:comma")
FULL_STOP = charset("punct:stop")
EXCLAIM = charset("punct:exclaim")
QUESTION = charset("punct:question")
OPEN = charset("punct:open")
CLOSE = charset("punct:close")
NUMBER_MARK = charset("punct:number_mark")
ENUM = charset("punct:enum")
# The full stop (and "!", "?") of the languages that write no spaces: it ends a sentence
# with nothing after it (the Latin "." does so only before a space: "v1.2", "e.g.").
FULL_STOP_UNSPACED = charset("punct:stop", spaced=False)
SENTENCE_END_UNSPACED = charset("punct:stop", "punct:exclaim", "punct:question", spaced=False)
# The colon of the languages that write spaces (a space follows it in a label) and of
# those that do not (nothing need follow it).
COLON_SPACED = charset("punct:colon", spaced=True)
COLON_UNSPACED = charset("punct:colon", spaced=False)
