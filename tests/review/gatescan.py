"""What the gate modules write, read from their source: the rule ids they name."""

from __future__ import annotations

import re
from pathlib import Path

from shared.review.gates import base

GATES_DIR = Path(base.__file__).parent

_NAMED_RE = re.compile(r'RULES\["([^"]+)"\]')
_SLUG_RE = re.compile(r'_finding\(\s*"([^"]+)"')
_GATE_RE = re.compile(r'^RULE_ID = "([^"]+)"$', re.M)
_TUPLE_RE = re.compile(r"^DOSSIER_RULES: tuple\[str, \.\.\.\] = \(([^)]*)\)", re.M)


def gate_sources() -> dict[str, str]:
    return {p.stem: p.read_text("utf-8") for p in sorted(GATES_DIR.glob("*.py"))}


def written_rule_ids() -> set[str]:
    """Every rule id the gate modules name: ``RULES["<id>"]``, a status-shape or dossier
    ``_finding("<slug>", …)`` and the slugs of their ``DOSSIER_RULES``."""
    out: set[str] = set()
    for stem, source in gate_sources().items():
        if stem == "rules":
            continue
        out |= set(_NAMED_RE.findall(source))
        gate = _GATE_RE.search(source)
        slugs = _SLUG_RE.findall(source)
        for found in _TUPLE_RE.findall(source):
            slugs += re.findall(r'"([^"]+)"', found)
        if slugs:
            assert gate is not None, stem
            out |= {f"{gate.group(1)}.{slug}" for slug in slugs}
    return out
