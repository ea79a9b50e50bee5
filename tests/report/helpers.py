"""Building blocks for report tests: a real kernel repository and kernel files."""

from __future__ import annotations

from pathlib import Path

from shared.formats.fragments import Fragment, fragment_filename, render_fragment
from shared.jsontext import compact
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.setup.bootstrap import init_kernel


def new_kernel(paths: KernelPaths) -> KernelPaths:
    init_kernel(paths, demo=False, force=False)
    return paths


def commit_board(paths: KernelPaths, text: str, subject: str, body: str, when: str) -> str:
    """Write the board and commit it with committer/author date ``when``; the commit id."""
    paths.board.write_text(text, encoding="utf-8")
    run_git(paths.kernel, "add", "--", "memory/CLAUDE.md")
    dates = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    run_git(paths.kernel, "commit", "-q", "-m", subject, "-m", body, env=dates)
    return run_git(paths.kernel, "rev-parse", "HEAD").stdout.strip()


def write_fragment(
    paths: KernelPaths,
    date: str,
    event: str,
    line: int,
    line_hash: str,
    marker: str | None,
    trajectory: str,
    quote: str,
) -> Path:
    frag = Fragment(
        source_event_id=event,
        source_ts=f"{date}T10:00:00.000Z",
        source_kind="stdio",
        session_key="stdio:default:28d3ca682f86",
        event_type="channel.message",
        signal="trigger",
        claude_md_ref=f"memory/CLAUDE.md:L{line}",
        source_line=line,
        source_line_hash=line_hash,
        trajectory=trajectory,
        activation="activated",
        evidence=(quote,),
        notes=("a note",),
        pointers=(f"line: [[{marker}]]",) if marker else (),
    )
    day = paths.fragments_dir / date
    day.mkdir(parents=True, exist_ok=True)
    path = day / fragment_filename(frag)
    path.write_text(render_fragment(frag), encoding="utf-8")
    return path


def event_line(kind: str, ts: str, text: str = "hi") -> str:
    return compact(
        {
            "type": "channel.message",
            "source": {"kind": kind, "name": kind},
            "payload": {"text": text},
            "id": f"evt_{abs(hash((kind, ts, text))):032x}"[:40],
            "ts": ts,
        }
    )


def write_weaver_log(
    paths: KernelPaths, ts: str, line_changes: list[str], per_line: list[dict[str, object]]
) -> None:
    directory = paths.weaver_report_dir
    directory.mkdir(parents=True, exist_ok=True)
    record = {"ts": ts, "status": "UPDATED:", "per_line": per_line, "line_changes": line_changes}
    with open(directory / f"{ts[:10]}.jsonl", "a", encoding="utf-8") as handle:
        handle.write(compact(record) + "\n")
