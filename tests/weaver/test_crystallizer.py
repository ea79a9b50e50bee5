"""Crystallizer details: prior counts, entity dossiers, retired files, malformed input."""

from __future__ import annotations

from typing import Any

from shared.constants import WEAVER
from shared.formats.dossiers import parse_dossier
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.pipeline import run_pass_inprocess
from tests.weaver.helpers import (
    DATE,
    TinyLease,
    load_corpus,
    post_scan_gap,
    write_day,
    write_kernel,
)


def _msg(i: int, text: str, session: str, minute: int) -> dict[str, Any]:
    return {
        "type": "channel.message",
        "source": {"kind": "stdio"},
        "session_key": session,
        "payload": {"text": text},
        "id": f"evt_x{i}",
        "ts": f"{DATE}T04:{minute:02d}:00.000Z",
    }


def _reply(i: int, text: str, session: str, minute: int) -> dict[str, Any]:
    return {
        "type": "agent.result",
        "source": {"kind": "runner", "name": "runner"},
        "session_key": session,
        "payload": {"text": text},
        "id": f"evt_r{i}",
        "ts": f"{DATE}T04:{minute:02d}:30.000Z",
    }


def test_tail_window_reports_new_plus_prior_evidence(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    write_day(
        paths,
        [
            _msg(1, "What is the price of the pro plan?", "stdio:a", 1),
            _reply(1, "The exact number is $20; explanation below.", "stdio:a", 1),
        ],
    )
    post_scan_gap(paths, "20260105[04,04]")
    first = run_pass_inprocess(paths, settings, TinyLease())
    assert "lesson-price-number.md): 1 new\n" in first["text"]
    write_day(
        paths,
        [
            _msg(2, "And the price for the team plan, as a quote?", "stdio:b", 30),
            _reply(2, "The exact number is $90; explanation below.", "stdio:b", 30),
        ],
    )
    window = f"{DATE}[{DATE}T04:01:00.000Z,{DATE}T23:59:59.999Z]"
    second = run_pass_inprocess(paths, settings, TinyLease(), interval=window)
    assert "lesson-price-number.md): 1 new + 1 prior = 2 total evidence" in second["text"]
    eff = (paths.effectiveness_dir / "lesson-price-number.md").read_text()
    assert "Evidence: strengthening = 2; neutral = 0; weakening = 0" in eff


def test_entity_dossier_promoted_past_threshold_with_four_sections(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    write_day(
        paths,
        [
            _msg(1, "Remember that Acme Corp pays invoices in EUR.", "stdio:a", 1),
            _msg(2, "From now on, cc the Acme Corp account manager on quotes.", "stdio:b", 2),
        ],
    )
    post_scan_gap(paths, "20260105[04,04]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    path = paths.entities_dir / "acme-corp.md"
    assert "memory/entities/acme-corp.md" in result["changed"]
    dossier = parse_dossier(path.read_text(), path)
    assert dossier.missing_sections() == []
    text = path.read_text()
    assert text.startswith("# acme-corp\n") and "[[acme-corp]]" in text
    assert "[instruction]" in text and "[observation]" in text


def test_entity_below_threshold_is_not_promoted(paths: KernelPaths, settings: Settings) -> None:
    write_kernel(paths, load_corpus())
    write_day(paths, [_msg(1, "Remember that Acme Corp pays invoices in EUR.", "stdio:a", 1)])
    post_scan_gap(paths, "20260105[04,04]")
    run_pass_inprocess(paths, settings, TinyLease())
    assert (paths.entities_dir / "acme-corp.md").read_text() == "# acme-corp\n"


def test_retired_effectiveness_is_deleted_and_untouched_files_keep_their_bytes(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    paths.effectiveness_dir.mkdir()
    retired = paths.effectiveness_dir / "lesson-gone.md"
    retired.write_text("anything\n")
    kept = paths.effectiveness_dir / "lesson-answer-first.md"
    kept.write_text("hand written, not parsed\n")
    write_day(paths, [_msg(1, "hello there", "stdio:a", 1)])
    post_scan_gap(paths, "20260105[04,04]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert not retired.exists()
    assert kept.read_text() == "hand written, not parsed\n"
    assert "memory/effectiveness/lesson-gone.md" in result["changed"]


def test_malformed_fragment_and_spine_lines_are_reported_not_fatal(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    day = paths.fragment_day_dir("2026-01-04")
    day.mkdir(parents=True)
    (day / "broken.md").write_text("no front matter\n")
    path = write_day(
        paths,
        [
            _msg(1, "What is the price of the pro plan?", "stdio:a", 1),
            _reply(1, "The exact number is $20.", "stdio:a", 1),
        ],
    )
    with open(path, "ab") as handle:
        handle.write(b'{"not json\n\xff\xfe\n')
    write_day(paths, [_msg(2, "From now on, always answer in English.", "stdio:b", 2)])
    post_scan_gap(paths, "20260105[04,04]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert result["acked"] == ["scan-gap.md.pending"]
    assert len(result["fragments_new"]) == 2
    assert (day / "broken.md").read_text() == "no front matter\n"


def test_bad_scan_gap_body_stays_on_disk_with_a_note(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    inbox = paths.inbox_dir(WEAVER)
    inbox.mkdir(parents=True)
    (inbox / "scan-gap.md.pending").write_text("[scan-gap] 2026010[99,01]\n")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert (inbox / "scan-gap.md.pending").exists()
    assert result["acked"] == []
    assert "note: scan-gap.md.pending left on disk" in result["text"]


def test_fragment_written_by_the_original_runtime_deduplicates(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    write_day(
        paths,
        [
            _msg(1, "What is the price of the pro plan?", "stdio:a", 1),
            _reply(1, "The exact number is $20; explanation below.", "stdio:a", 1),
        ],
    )
    day = paths.fragment_day_dir(DATE)
    day.mkdir(parents=True)
    original = (
        "---\nsource_event_id: evt_x1\nsource_ts: 2026-01-05T04:01:00.000Z\n"
        "source_kind: stdio\nsession_key: stdio:a\nevent_type: channel.message\n"
        "signal: trigger\nclaude_md_ref: memory/CLAUDE.md:L6\nsource_line: 6\n"
        "trajectory: STRENGTHENING\nactivation: activated\n---\n\n# Fragment\n\n"
        "Evidence:\n\n- price asked, number given\n\nEffectiveness note:\n\n- helps\n"
    )
    (day / "llm-written.md").write_text(original)
    post_scan_gap(paths, "20260105[04,04]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert result["fragments_new"] == []
    assert sorted(p.name for p in day.glob("*.md")) == ["llm-written.md"]
    eff = (paths.effectiveness_dir / "lesson-price-number.md").read_text()
    assert "Evidence: strengthening = 1; neutral = 0; weakening = 0" in eff
