"""Settings, paths, atomic writes, timestamps and the git funnel."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shared.errors import ConfigError, GitError, NameRejected
from shared.jsontext import compact, pretty
from shared.kernel.files import atomic_write_text, safe_basename
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.settings import load_settings
from shared.timestamps import filename_ts, iso, parse_iso


def test_settings_fall_back_to_aladuo_roots(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ALADUO_HOME", str(tmp_path))
    s = load_settings()
    assert s.kernel_dir == tmp_path / "aladuo"
    assert s.runtime_dir == tmp_path / ".aladuo"
    monkeypatch.setenv("ALADUO_KERNEL_DIR", str(tmp_path / "k"))
    assert load_settings().kernel_dir == tmp_path / "k"
    monkeypatch.setenv("SUBCON_KERNEL_DIR", str(tmp_path / "s"))
    assert load_settings().kernel_dir == tmp_path / "s"
    assert load_settings(kernel_dir=tmp_path / "flag").kernel_dir == tmp_path / "flag"


def test_settings_embedded_and_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().embedded
    monkeypatch.setenv("SUBCON_BROKER_URL", "redis://h:1/0")
    s = load_settings()
    assert not s.embedded
    assert s.effective_redis_url == "redis://h:1/0"
    assert s.effective_result_backend == "redis://h:1/0"
    monkeypatch.setenv("SUBCON_TICK_SECONDS", "0")
    with pytest.raises(ConfigError, match="SUBCON_TICK_SECONDS='0'"):
        load_settings()


def test_iso_and_filename_ts() -> None:
    moment = datetime(2026, 1, 5, 9, 12, 33, 123456, tzinfo=UTC)
    assert iso(moment) == "2026-01-05T09:12:33.123Z"
    assert filename_ts(iso(moment)) == "2026-01-05T09-12-33-123Z"
    assert parse_iso("2026-01-05T09:12:33.123Z") == moment.replace(microsecond=123000)


def test_json_shapes() -> None:
    assert compact({"a": "héllo", "b": [1, 2]}) == '{"a":"héllo","b":[1,2]}'
    assert pretty({"a": None, "b": 1}) == '{\n  "a": null,\n  "b": 1\n}\n'


def test_atomic_write_leaves_no_temp_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "d" / "f.md"
    atomic_write_text(target, "one\n")
    assert target.read_text() == "one\n"

    class Boom(Exception):
        pass

    class Exploding(str):
        def encode(self, *args: object, **kwargs: object) -> bytes:
            raise Boom

    with pytest.raises(Boom):
        atomic_write_text(target, Exploding("x"))
    assert target.read_text() == "one\n"
    assert sorted(os.listdir(target.parent)) == ["f.md"]


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a\\b", "a\0b", "a\nb"])
def test_safe_basename_rejects(name: str) -> None:
    with pytest.raises(NameRejected):
        safe_basename(name)


def test_paths_layout(paths: KernelPaths) -> None:
    assert paths.board == paths.kernel / "memory" / "CLAUDE.md"
    assert paths.inbox_dir("memory-weaver") == (
        paths.runtime / "var" / "subconscious" / "memory-weaver" / "inbox"
    )
    assert paths.day_file("2026-01-05").name == "2026-01-05.jsonl"
    with pytest.raises(NameRejected):
        paths.inbox_dir("../x")


def test_run_git_reports_failures(tmp_path: Path) -> None:
    run_git(tmp_path, "init", "-q", "-b", "main")
    assert run_git(tmp_path, "rev-parse", "--is-inside-work-tree").stdout.strip() == "true"
    with pytest.raises(GitError) as err:
        run_git(tmp_path, "rev-parse", "HEAD")
    assert "rev-parse" in str(err.value)
    assert err.value.returncode != 0


def test_read_utf8_names_file_and_line(tmp_path: Path) -> None:
    from shared.errors import InputError
    from shared.kernel.files import read_utf8

    assert read_utf8(tmp_path / "missing.md") is None
    good = tmp_path / "good.md"
    good.write_text("一\n二\n", encoding="utf-8")
    assert read_utf8(good) == "一\n二\n"
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"ok\nok\n\xff\n")
    with pytest.raises(InputError) as err:
        read_utf8(bad)
    assert str(err.value) == f"{bad}:3:1: not valid UTF-8"
    bad.write_bytes(b"ok\n\xe4\xba\x8c\xe4\xb8\x89\xff\n")  # ok / 二三 then a bad byte
    with pytest.raises(InputError) as err:
        read_utf8(bad)
    assert str(err.value) == f"{bad}:2:3: not valid UTF-8"  # columns count characters
