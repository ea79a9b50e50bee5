"""Entity promotion, node-create messages and entity-converge (crystallizer writes).

Entity dossiers are merged, never flattened: bullets derived from fragments are added
when absent, the one-line Trend is replaced, and all four canonical headings exist
after a promotion. Node-create messages go to the pattern-tracker inbox once per slug.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from shared.constants import PATTERN_TRACKER
from shared.errors import InputError
from shared.formats.board import Board, BoardLine
from shared.formats.dossiers import (
    SECTIONS,
    merge_bullets,
    new_dossier,
    read_dossier,
    render_dossier,
    replace_section,
)
from shared.formats.effectiveness import Candidate
from shared.kernel.files import safe_basename
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.language.text import strip_pointers
from shared.memcheck.forget import tombstones
from shared.memcheck.links import is_safe_slug
from shared.settings import Settings
from shared.timestamps import filename_ts
from shared.weaver.crystallize.store import StoredFragment, rel_path, write_if_changed
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.verdicts import Signal


def _entity_refs(sf: StoredFragment) -> list[str]:
    out = []
    for row in sf.fragment.pointers:
        if row.startswith("entity: [[") and row.endswith("]]"):
            out.append(row[len("entity: [[") : -2].strip())
    return out


def promote_entities(
    paths: KernelPaths,
    settings: Settings,
    stored: list[StoredFragment],
    lease: Lease,
    writer: DossierWriter,
) -> tuple[list[str], list[str]]:
    """Merge fragment evidence into ``entities/<slug>.md`` for every entity backed by
    at least ``settings.promotion_threshold`` distinct fragments.

    Returns (kernel-relative paths written, "path:line: reason" of unreadable dossiers).
    """
    written: list[str] = []
    malformed: list[str] = []
    by_entity: dict[str, list[StoredFragment]] = defaultdict(list)
    for sf in stored:
        for slug in _entity_refs(sf):
            by_entity[slug].append(sf)
    for slug in sorted(by_entity):
        group = by_entity[slug]
        if len(group) < settings.promotion_threshold:
            continue
        try:
            path = paths.entities_dir / f"{slug}.md"
            current = read_dossier(path)
        except (InputError, ValueError) as exc:
            malformed.append(str(exc))
            continue
        bodies = writer.entity_sections(slug, group)
        if current is None:
            dossier = new_dossier(slug, bodies)
        else:
            dossier = current
            for heading in SECTIONS:
                # entity-lint wants all four headings; a section stays empty until
                # fragments support it.
                if heading == "Trend" and bodies.get(heading):
                    dossier = replace_section(dossier, heading, bodies[heading])
                elif bodies.get(heading) or dossier.section(heading) is None:
                    dossier = merge_bullets(dossier, heading, bodies.get(heading, []))
        if write_if_changed(path, render_dossier(dossier), lease):
            written.append(rel_path(paths, path))
    return written, malformed


def post_node_create(
    paths: KernelPaths, settings: Settings, candidates: list[Candidate], lease: Lease
) -> list[str]:
    """Post one node-create ``.pending`` to the pattern-tracker inbox per recurring
    behavioural NEW_SIGNAL candidate (once per slug; none when the node exists).

    Returns the basenames posted.
    """
    names: list[str] = []
    record = paths.subcon_state_dir / "weaver-node-create.json"
    try:
        posted = set(json.loads(record.read_text(encoding="utf-8")))
    except (FileNotFoundError, ValueError, TypeError):
        posted = set()
    before = set(posted)
    forgotten = tombstones(paths)
    for cand in candidates:
        if cand.count < settings.promotion_threshold:
            continue
        if cand.signal not in {Signal.CORRECTION, Signal.INSTRUCTION, Signal.PREFERENCE}:
            continue
        node_type = "lesson" if cand.signal == Signal.CORRECTION else "groove"
        slug = f"{node_type}-{cand.slug}"
        if slug in forgotten:
            # Forgotten as a stale orphan: asked for again only on evidence newer than
            # the forgetting (a fragment's name starts with its event's time).
            since = filename_ts(forgotten[slug])
            if not any(Path(x.path).name[: len(since)] > since for x in cand.samples):
                continue
            posted.discard(slug)
        if (paths.topics_dir / f"{slug}.md").exists() or slug in posted:
            continue
        name = f"node-create-{slug}.pending"
        body = "\n".join(
            [
                "node-create signal from entity-crystallizer",
                f"type: {node_type}",
                f"slug: {slug}",
                f"trigger: {cand.trigger or 'none'}",
                f"direction: {cand.direction}",
                "fragments:",
                *(f"- {s.path}" for s in cand.samples),
            ]
        )
        target = paths.inbox_dir(PATTERN_TRACKER) / name
        if write_if_changed(target, body + "\n", lease):
            names.append(name)
        posted.add(slug)
    if posted != before:
        # Posted once per slug: the node tracker deletes the message when it acts.
        write_if_changed(record, json.dumps(sorted(posted)) + "\n", lease)
    return names


def converge_entity(paths: KernelPaths, slug: str, lease: Lease) -> tuple[str, str | None]:
    """Give ``entities/<slug>.md`` the four canonical sections, keeping its content.

    Returns (status line, changed kernel-relative path or None).
    """
    try:
        path = paths.entities_dir / f"{safe_basename(slug)}.md"
        current = read_dossier(path)
    except InputError as exc:
        return f"NO_NEW_GRADIENT: entity dossier unreadable ({exc})", None
    if current is None:
        return "NO_NEW_GRADIENT: the entity dossier does not exist; nothing to converge", None
    missing = current.missing_sections()
    if not missing:
        return "NO-OP: the entity dossier already has the four sections", None
    dossier = current
    for heading in missing:
        dossier = merge_bullets(
            dossier, heading, ["[hypothesis (unratified)] no fragment evidence yet"]
        )
    write_if_changed(path, render_dossier(dossier), lease)
    rel = rel_path(paths, path)
    return f"UPDATED: {rel} converged ({len(missing)} sections added)", rel


_NODE_TITLES = {"lesson-": "Lesson", "groove-": "Groove", "pattern-": "Pattern"}


def _bootstrap_text(pointer: str, line: BoardLine, group: list[StoredFragment]) -> str:
    """A minimal dossier for ``pointer`` from its board line and fragments: the
    line's own clauses as written (never normalised), the fragments by path."""
    body = strip_pointers(line.text)
    refs = [sf.rel for sf in sorted(group, key=lambda g: g.rel)][:5]
    prefix = next((p for p in _NODE_TITLES if pointer.startswith(p)), None)
    if prefix is not None:
        out = ["---", f"occurrences: {len(group)}", "---", ""]
        out += [f"# {_NODE_TITLES[prefix]}: {body}", "", "## Condition", ""]
        out += [f"- {line.trigger or body}", "", "## Procedure", ""]
        out += [f"- {line.direction or body}"]
        if prefix == "groove-" and refs:
            out += ["", "## References", ""] + [f"- {r}" for r in refs]
        return "\n".join(out) + "\n"
    bodies = {
        "What it is now": [f'- [instruction] "{body}" ({line.ref})'],
        "Relationship / stance": [],
        "Open variables": [],
        "Trend": [],
    }
    bodies["What it is now"] += [f"- [observation] evidence in {r}" for r in refs]
    return render_dossier(new_dossier(pointer, bodies))


def bootstrap_dossiers(
    paths: KernelPaths,
    board: Board,
    by_marker: dict[str, list[StoredFragment]],
    lease: Lease,
) -> list[str]:
    """Write a minimal dossier for every board pointer that has neither a topic nor
    an entity file (the original's ``BOOTSTRAPPED:`` path), so the line keeps a
    resolvable pointer: ``topics/<pointer>.md`` for lesson/groove/pattern markers,
    ``entities/<pointer>.md`` otherwise. Existing files are never touched.

    Returns the kernel-relative paths written.
    """
    written: list[str] = []
    seen: set[str] = set()
    for line in board.lines:
        for pointer in line.pointers:
            if pointer in seen or not is_safe_slug(pointer) or safe_name(pointer) != pointer:
                continue
            seen.add(pointer)
            topic = paths.topics_dir / f"{pointer}.md"
            entity = paths.entities_dir / f"{pointer}.md"
            if topic.exists() or entity.exists():
                continue
            node = pointer.startswith(tuple(_NODE_TITLES))
            target = topic if node else entity
            if target.parent.exists() and not target.parent.resolve().is_relative_to(
                paths.kernel.resolve()
            ):
                continue  # a dossier directory linked out of the kernel is never written
            text = _bootstrap_text(pointer, line, by_marker.get(pointer, []))
            if write_if_changed(target, text, lease):
                written.append(rel_path(paths, target))
    return written


def safe_name(pointer: str) -> str:
    """``pointer`` when it is a plain file name (else a different string)."""
    try:
        return safe_basename(pointer)
    except InputError:
        return ""
