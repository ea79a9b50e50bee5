"""The labelled corpus: every labelled external event gets exactly its expected fragments."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from shared.formats.board import parse_board
from shared.formats.fragments import parse_fragment, render_fragment
from shared.language.text import token_set
from shared.weaver.scan.judge import JudgeContext
from shared.weaver.scan.scanner import scan_events
from tests.weaver.helpers import corpus_events, load_corpus


@functools.lru_cache(maxsize=1)
def _judged() -> tuple[dict[str, Any], dict[str, list[list[str]]], list[str]]:
    corpus = load_corpus()
    board = parse_board("\n".join(corpus["board"]))
    ctx = JudgeContext(
        dossiers=frozenset(corpus["topics"] + corpus["entities"]),
        entities=frozenset(corpus["entities"]),
        dossier_cues={k: token_set(v) for k, v in corpus.get("topic_text", {}).items()},
    )
    got: dict[str, list[list[str]]] = {}
    texts = []
    for item in scan_events(board, corpus_events(corpus), ctx, date="2026-01-05"):
        frag = item.fragment
        row = [frag.marker or "none", frag.trajectory]
        if frag.root_cause:
            row.append(frag.root_cause)
        got.setdefault(frag.source_event_id, []).append(row)
        texts.append(render_fragment(frag))
    return corpus, got, texts


def test_corpus_is_large_and_bilingual() -> None:
    corpus = load_corpus()
    labelled = [e for e in corpus["events"] if "expect" in e]
    assert len(labelled) >= 40
    assert sum(1 for e in labelled if any("\u4e00" <= c <= "\u9fff" for c in e["x"])) >= 10
    kinds = {tuple(x[1] for x in e["expect"]) for e in labelled}
    assert {(), ("STRENGTHENING",), ("WEAKENING",), ("NEUTRAL",), ("NEW_SIGNAL",)} <= kinds


@pytest.mark.parametrize("index", range(len(load_corpus()["events"])))
def test_labelled_event(index: int) -> None:
    corpus, got, _ = _judged()
    row = corpus["events"][index]
    event_id = f"evt_{index:03d}"
    if "expect" not in row:
        assert event_id not in got, "internal events are never origins"
        return
    assert sorted(got.get(event_id, [])) == sorted(row["expect"]), row["x"]


def test_corpus_fragments_validate_against_the_format() -> None:
    _, _, texts = _judged()
    assert texts
    for text in texts:
        frag = parse_fragment(text)
        assert render_fragment(frag) == text
        keys = [ln.split(":")[0] for ln in text.split("---\n")[1].splitlines()]
        order = [
            "source_event_id",
            "source_ts",
            "source_kind",
            "session_key",
            "event_type",
            "signal",
            "claude_md_ref",
            "source_line",
            "source_line_hash",
            "trajectory",
            "activation",
            "root_cause",
            "weakening_kind",
        ]
        assert keys == [k for k in order if k in keys]
        if frag.trajectory == "NEW_SIGNAL":
            assert frag.claude_md_ref == "none" and "source_line:" not in text
        else:
            assert frag.claude_md_ref.startswith("memory/CLAUDE.md:L")
        body = text.split("---\n", 2)[2]
        assert body.startswith("\n# Fragment\n\nEvidence:\n\n- ")
        assert "\nEffectiveness note:\n\n- " in body
