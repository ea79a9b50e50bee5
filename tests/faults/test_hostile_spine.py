"""Hostile spine input through the real reader and a whole embedded pass: random and
truncated JSONL, non-UTF-8, a 10 MB line, missing or mistyped fields, odd ``ts``, ids and
session keys with ``/``, ``..``, NUL or newlines, shell syntax in the text.

Everything must keep working, name the bad file and line, lose nothing, write nothing
outside ``fragments/<date>/`` and never follow a path taken from the data."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.kernel.paths import KernelPaths
from shared.spine.reader import ReadStats, iter_day
from testing.kernels import demo_day
from tests.faults.harness import FaultReport
from tests.faults.hostile import (
    DATE,
    MAX_LINE,
    assert_fragments_contained,
    event,
    fresh,
    line_of,
    pass_over,
)

pytestmark = pytest.mark.integration


# --- the spine reader, fuzzed -------------------------------------------------------

lines_strategy = st.lists(
    st.one_of(
        st.binary(max_size=200),
        st.text(max_size=80).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.builds(
            lambda t, k, ts: line_of(event(t, source={"kind": k}, ts=ts))[:-1],
            st.text(max_size=40),
            st.sampled_from(["stdio", "system", "", "meta", "job"]),
            st.one_of(st.text(max_size=30), st.just(f"{DATE}T01:00:00.000Z")),
        ),
        st.builds(
            lambda obj: line_of(obj)[:-1],
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3)
                ),
                max_leaves=8,
            ),
        ),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=lines_strategy, truncate=st.integers(min_value=0, max_value=64))
def test_reader_survives_random_and_truncated_jsonl(
    tmp_path_factory: pytest.TempPathFactory,
    fault_report: FaultReport,
    lines: list[bytes],
    truncate: int,
) -> None:
    fault_report.tried("random-jsonl", hypothesis=True)
    day = tmp_path_factory.mktemp("fuzz") / f"{DATE}.jsonl"
    data = b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
    data = data[: max(len(data) - truncate, 0)]  # a torn last write
    day.write_bytes(data)
    stats = ReadStats()
    records = list(iter_day(day, stats, MAX_LINE))
    physical = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    assert stats.lines <= physical
    assert all(isinstance(r.event, dict) for r in records)
    for reason in stats.malformed:
        assert reason.startswith(f"{day}:"), reason  # names the file and line
    # records come in file order, each from a real line of the file
    linenos = [r.lineno for r in records]
    assert linenos == sorted(set(linenos))
    assert all(1 <= n <= physical for n in linenos)


# --- hostile events through a whole pass ----------------------------------------------

NASTY = [
    "../../etc/passwd",
    "a/b/../../../x",
    "..",
    "evt_\0nul",
    "evt_new\nline",
    "/abs/path",
    "$(touch /tmp/pwned)",
    "`id`; rm -rf ~",
    "C:\\windows\\system32",
    "日本語/中文",
]

nasty_text = st.one_of(st.sampled_from(NASTY), st.text(max_size=20))
odd_ts = st.one_of(
    st.just(f"{DATE}T10:00:00.000Z"),
    st.sampled_from(
        [
            DATE,
            f"{DATE}T25:61:00Z",
            f"{DATE} 10:00",
            f"{DATE}T10:00:00+08:00",
            "2026-13-45T00:00:00.000Z",
            "yesterday",
            "",
            f"{DATE}T10:00:00.000Z\n",
        ]
    ),
    st.integers().map(str),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    items=st.lists(
        st.tuples(nasty_text, nasty_text, odd_ts, nasty_text, st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_hostile_events_stay_inside_fragments_dir(
    demo_base: KernelPaths,
    tmp_path_factory: pytest.TempPathFactory,
    fault_report: FaultReport,
    items: list[tuple[str, str, str, str, bool]],
) -> None:
    fault_report.tried("hostile-events", hypothesis=True)
    root = tmp_path_factory.mktemp("hostile-pass")
    paths = fresh(demo_base, root / "k")
    outside_before = sorted(p.name for p in root.iterdir())
    day = paths.day_file(DATE)
    day.parent.mkdir(parents=True, exist_ok=True)
    demo = demo_day(demo_base)
    with open(day, "ab") as handle:
        # the demo's conversations (which always yield fragments), the first few events
        # overwritten with hostile ids, session keys, timestamps and text
        for n, obj in enumerate(demo):
            obj = {**obj, "id": f"evt_demo_{n}", "ts": str(obj["ts"]).replace("2026-01-05", DATE)}
            if n < len(items):
                eid, key, ts, text, drop_fields = items[n]
                obj.update(id=eid, session_key=key, ts=ts)
                if drop_fields:
                    obj.pop("payload", None)
                    obj["source"] = "stdio"
                elif isinstance(obj.get("payload"), dict):
                    obj["payload"] = {
                        **obj["payload"],
                        "text": f"{text} {obj['payload'].get('text')}",
                    }
            handle.write(line_of(obj))
    report = pass_over(paths)
    assert report["status"] in ("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:")
    assert assert_fragments_contained(paths) >= 1
    assert sorted(p.name for p in root.iterdir()) == outside_before
    assert not Path("/tmp/pwned").exists()


@pytest.mark.parametrize(
    "case",
    ["ten-mb-line", "non-utf8", "truncated", "missing-fields", "mistyped-fields", "odd-ts"],
)
def test_bad_spine_lines_are_skipped_named_and_nothing_is_lost(
    case: str, demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    fault_report.tried(f"spine-{case}")
    paths = fresh(demo_base, tmp_path / "k")
    good = [
        event("不对，请用中文回答。", id=f"evt_00000000-0000-4000-8000-00000000000{i}")
        | {"ts": f"{DATE}T0{i}:00:00.000Z"}
        for i in range(1, 4)
    ]
    bad: bytes = {
        "ten-mb-line": line_of(event("x" * (10 * 1024 * 1024))),
        "non-utf8": b'{"type":"channel.message","payload":{"text":"\xff\xfe\xc3("}}\n',
        "truncated": line_of(event("cut"))[:37] + b"\n",
        "missing-fields": b'{"type":"channel.message"}\n',
        "mistyped-fields": line_of(
            {"type": 7, "source": ["stdio"], "payload": "text", "id": 3, "ts": 12}
        ),
        "odd-ts": line_of(event("odd", ts="2026-02-03T99:99:99Z")),
    }[case]
    day = paths.day_file(DATE)
    day.parent.mkdir(parents=True, exist_ok=True)
    day.write_bytes(line_of(good[0]) + bad + line_of(good[1]) + line_of(good[2]))
    stats = ReadStats()
    records = list(iter_day(day, stats, MAX_LINE))
    ids = [r.event.get("id") for r in records]
    for g in good:
        assert g["id"] in ids  # nothing good is lost around the bad line
    if case in ("ten-mb-line", "truncated"):
        assert stats.malformed_count == 1
        assert stats.malformed[0].startswith(f"{day}:2:"), stats.malformed
    report = pass_over(paths)
    assert report["status"] in ("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:")
    assert_fragments_contained(paths)
    assert day.read_bytes().count(b"\n") == 4  # the spine is never rewritten


@pytest.mark.parametrize("nasty", ["../../../escape", "a/b/c", "..", "nul\0byte", "new\nline"])
def test_event_ids_and_session_keys_cannot_steer_fragment_paths(
    nasty: str, demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    fault_report.tried("nasty-event-id")
    paths = fresh(demo_base, tmp_path / "k")
    day = paths.day_file(DATE)
    day.parent.mkdir(parents=True, exist_ok=True)
    # the demo's conversations again (they always yield fragments), hostile ids and keys
    with open(day, "wb") as handle:
        for n, obj in enumerate(demo_day(demo_base)):
            obj = {**obj, "id": f"{nasty}{n}", "ts": str(obj["ts"]).replace("2026-01-05", DATE)}
            if "session_key" in obj:
                obj["session_key"] = nasty
            handle.write(line_of(obj))
    pass_over(paths)
    assert assert_fragments_contained(paths) >= 1
    assert [p for p in (paths.fragments_dir / DATE).iterdir() if p.suffix == ".md"]
    # nothing appeared next to the kernel or the runtime
    assert sorted(p.name for p in (tmp_path / "k").iterdir()) == ["kernel", "runtime"]


@pytest.mark.parametrize("filler", ["\0", "\n", " ", "\r\n"])
def test_ids_made_only_of_control_characters_keep_their_evidence(
    filler: str, demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    """An id that sanitises to nothing must still give a fragment that reads back:
    otherwise its evidence is written once and silently dropped from then on."""
    from shared.weaver.crystallize.store import load_fragments

    fault_report.tried("control-char-event-id")
    paths = fresh(demo_base, tmp_path / "k")
    day = paths.day_file(DATE)
    day.parent.mkdir(parents=True, exist_ok=True)
    with open(day, "wb") as handle:
        for n, obj in enumerate(demo_day(demo_base)):
            ts = str(obj["ts"]).replace("2026-01-05", DATE)
            handle.write(line_of({**obj, "id": filler * (n + 1), "ts": ts}))
    pass_over(paths)
    assert_fragments_contained(paths)
    written = [p for p in (paths.fragments_dir / DATE).iterdir() if p.suffix == ".md"]
    assert written
    found, errors = load_fragments(paths)
    assert errors == []
    assert len(found) == len(written)
