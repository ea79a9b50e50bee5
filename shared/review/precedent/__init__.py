"""The precedent judge: a second opinion on board lines (and on entity dossiers when
the model names a dossier threshold; the shipped one names none), fitted to labelled
real lines.

``features`` (what a line is read by), ``training`` (the deterministic fit), ``model``
(the shipped file, read at first use) and ``judge`` (when it overrules the written
gates). ``python -m bench.precedent fit`` refits it from the tune part of the corpus.
"""
