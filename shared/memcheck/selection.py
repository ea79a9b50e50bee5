"""One signal the memory check wants delivered to a partition inbox."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Selection:
    """``kind`` (e.g. ``scan-gap.v1``) for ``partition``, as ``filename`` with ``body``
    (bodies end with a single LF)."""

    kind: str
    partition: str
    filename: str
    body: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "partition": self.partition, "file": self.filename}
