"""``subcon spine`` subcommands through the real CLI entry point."""

from __future__ import annotations

import io
import sys

import orjson
import pytest

from shared.kernel.paths import KernelPaths
from workers.cli import main


def _root(paths: KernelPaths) -> list[str]:
    return ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_append_from_stdin_then_get_read_and_slices(
    paths: KernelPaths, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(
        monkeypatch,
        '{"type":"channel.message","source":{"kind":"feishu"},"session_key":"lark:a:b",'
        '"payload":{"text":"记住：先给结论"},"ts":"2026-01-05T03:04:05.006Z"}'.encode(),
    )
    assert main([*_root(paths), "spine", "append", "-", "--json"]) == 0
    written = orjson.loads(capsys.readouterr().out)
    assert list(written) == ["type", "source", "session_key", "payload", "id", "ts"]
    assert paths.day_file("2026-01-05").exists()

    assert main([*_root(paths), "spine", "get", written["id"]]) == 0
    assert orjson.loads(capsys.readouterr().out) == written
    assert main([*_root(paths), "spine", "get", "evt_nope"]) == 1
    assert "no event evt_nope" in capsys.readouterr().err

    assert main([*_root(paths), "spine", "read", "20260105[03,03]", "--external"]) == 0
    assert [orjson.loads(x) for x in capsys.readouterr().out.splitlines()] == [written]
    assert main([*_root(paths), "spine", "read", "20260105[04,23]"]) == 0
    assert capsys.readouterr().out == ""

    assert main([*_root(paths), "spine", "slices", "20260105[00,23]"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert orjson.loads(line)["token"] == "20260105[00,23]"


def test_append_from_flags(paths: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "spine",
        "append",
        "--type",
        "channel.message",
        "--kind",
        "stdio",
        "--name",
        "stdio-default",
        "--session-key",
        "stdio:default:1",
        "--text",
        "hi",
    ]
    assert main([*_root(paths), *args]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("appended evt_")
    event = orjson.loads(out[1])
    assert event["source"] == {"kind": "stdio", "name": "stdio-default"}
    assert event["payload"] == {"text": "hi"}
    assert len(paths.by_session_index.read_bytes().splitlines()) == 1


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"not json", "<stdin>: invalid JSON"),
        (b"[1]", "must be a JSON object"),
        (b'{"type":"a","ts":"later"}', "not an ISO-8601 timestamp"),
    ],
)
def test_append_rejects_bad_input_with_exit_2(
    paths: KernelPaths,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: bytes,
    message: str,
) -> None:
    _stdin(monkeypatch, stdin)
    assert main([*_root(paths), "spine", "append", "-"]) == 2
    assert message in capsys.readouterr().err
    assert not paths.events_dir.exists() or not any(paths.events_dir.glob("*.jsonl"))


def test_bad_interval_exits_2(paths: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*_root(paths), "spine", "read", "20260105[05,03]"]) == 2
    assert "band is reversed" in capsys.readouterr().err
