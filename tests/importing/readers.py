"""What the format tests share: one read of a reader, split into utterances and problems."""

from __future__ import annotations

import io

from shared.importing.records import FormatReader, Problem, ReadState, Role, Utterance


def read_all(
    reader: FormatReader, data: bytes, name: str, state: ReadState | None, final: bool
) -> tuple[list[Utterance], list[Problem], ReadState]:
    """Every item ``reader`` yields for ``data``, as (utterances, problems, state)."""
    state = state or ReadState()
    items = list(reader.read(io.BytesIO(data), name, state, final=final))
    said = [i for i in items if isinstance(i, Utterance)]
    problems = [i for i in items if isinstance(i, Problem)]
    assert len(said) + len(problems) == len(items)
    return said, problems, state


def of(said: list[Utterance], role: Role) -> list[Utterance]:
    return [u for u in said if u.role == role]
