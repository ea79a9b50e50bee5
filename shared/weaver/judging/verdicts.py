"""The closed vocabularies of fragments and board decisions.

``StrEnum`` members are ``str`` subclasses, so they compare equal to, hash like and
serialise (JSON, front matter) as the bare strings the files and messages carry.
"""

from __future__ import annotations

from enum import StrEnum


class Trajectory(StrEnum):
    """What a fragment says about its board line (docs/formats.md §10.2)."""

    STRENGTHENING = "STRENGTHENING"
    NEUTRAL = "NEUTRAL"
    WEAKENING = "WEAKENING"
    NEW_SIGNAL = "NEW_SIGNAL"


class Activation(StrEnum):
    """Whether the line was acted on in the judged turn."""

    ACTIVATED = "activated"
    MISSED = "missed"
    WAITING = "waiting"


class Signal(StrEnum):
    """The signal class of the event that made a fragment."""

    CORRECTION = "correction"
    INSTRUCTION = "instruction"
    PREFERENCE = "preference"
    TRIGGER = "trigger"
    DOSSIER_READ = "dossier-read"
    DIRECTED = "directed"


class WeakeningKind(StrEnum):
    """What a WEAKENING fragment says about its line (the updater's edit depends on it)."""

    RECALL_MISS = "recall-miss"
    DIRECTION_CHANGED = "direction-changed"
    OBSOLETE = "obsolete"


class RootCause(StrEnum):
    """Why the agent missed a line, when the judged turn's trace shows it."""

    RECALL_MISS = "recall-miss"
    DIRECTION_WRONG = "direction-wrong"


class LineAction(StrEnum):
    """What the updater does to one board line."""

    KEEP = "keep"
    REWRITE = "rewrite"
    REMOVE = "remove"
    REPAIR = "repair"
    ADD = "add"
