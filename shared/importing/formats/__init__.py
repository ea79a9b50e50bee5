"""One reader per transcript format, each a :class:`~shared.importing.records.FormatReader`.

:data:`FORMATS` maps a format's name (its source kind and session-key prefix) to the
module that holds its ``READER``; modules load on first use.
"""

from __future__ import annotations

import importlib

from shared.errors import ConfigError
from shared.importing.records import FormatReader

FORMATS: dict[str, str] = {
    "claude-code": "claude_code",
    "codex": "codex",
    "specstory": "specstory",
    "aider": "aider",
}


def reader(name: str) -> FormatReader:
    """The reader of format ``name``.

    Raises:
        ConfigError: no such format (the message lists the known ones).
    """
    module = FORMATS.get(name)
    if module is None:
        raise ConfigError(
            f"unknown transcript format {name!r}: use one of {', '.join(sorted(FORMATS))}"
        )
    loaded = importlib.import_module(f"shared.importing.formats.{module}")
    found: FormatReader = loaded.READER
    return found
