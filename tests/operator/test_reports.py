"""Reports and exit codes an operator reads: committer skips, dry runs, bad settings."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shared.kernel.paths import KernelPaths
from testing.gitrepo import BAD_LINE, BOARD, GOOD_LINE, head, status, write
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def test_commit_on_a_non_git_kernel_says_why_and_exits_2(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    write(paths.kernel, "memory/CLAUDE.md", BOARD)
    assert cli(paths, "commit") == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "NO_NEW_GRADIENT"
    assert lines[1].startswith("skipped: not a git repository")
    assert "subcon init" in lines[1]


def test_commit_with_index_lock_says_why_and_exits_3(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo.kernel, "memory/CLAUDE.md", BOARD + GOOD_LINE)
    (repo.kernel / ".git" / "index.lock").write_text("", encoding="utf-8")
    before = head(repo.kernel)
    assert cli(repo, "commit") == 3
    assert capsys.readouterr().out.splitlines() == [
        "NO_NEW_GRADIENT",
        "skipped: .git/index.lock exists",
    ]
    assert head(repo.kernel) == before
    (repo.kernel / ".git" / "index.lock").unlink()
    assert cli(repo, "commit", "--json") == 0
    assert '"outcome": "committed"' in capsys.readouterr().out


def test_commit_with_the_kernel_lock_held_exits_3(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    from shared.kernel.lock.file_lock import FileKernelLock

    write(repo.kernel, "memory/CLAUDE.md", BOARD + GOOD_LINE)
    lock = FileKernelLock(repo.file_lock, default_wait=0)
    with lock.hold("someone-else"):
        assert cli(repo, "commit") == 3
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "NO_NEW_GRADIENT"
    assert lines[1].startswith("skipped: kernel lock held by someone-else")


def test_dry_run_says_would_and_writes_no_audit(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo.kernel, "memory/CLAUDE.md", BOARD + BAD_LINE)
    write(repo.kernel, "memory/entities/beta.md", "# Beta\n\n- [observation] Beta ships in Oslo.\n")
    assert cli(repo, "commit", "--dry-run") == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out.splitlines() == [
        "Dry run: would commit 1 files. Add entity dossier beta.",
        "would hold back memory/CLAUDE.md:4 (self-reference: memory-maintenance line)",
    ]
    assert not repo.audit_dir.exists()
    assert status(repo.kernel).count("\n") == 2  # both files still dirty
    assert cli(repo, "audit", "--json") == 0
    assert capsys.readouterr().out.strip() == "[]"


def test_dry_run_with_nothing_to_commit(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(repo, "commit", "--dry-run") == 0
    assert capsys.readouterr().out == (
        "Dry run: nothing would be committed (no allowlisted changes)\n"
    )


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("SUBCON_TICK_SECONDS", "abc", "a number >= 1"),
        ("SUBCON_TICK_SECONDS", "0", "a number >= 1"),
        ("SUBCON_MAX_PARTITIONS_PER_TICK", "two", "an integer >= 1"),
        ("SUBCON_GAP_CACHE", "maybe", "true/false"),
        ("SUBCON_VISIBILITY_TIMEOUT_SECONDS", "-5", "a number > 0, or unset"),
    ],
)
def test_bad_setting_exits_2_with_one_line(
    paths: KernelPaths,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
    allowed: str,
) -> None:
    monkeypatch.setenv(variable, value)
    assert cli(paths, "status") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{variable}={value!r}" in err
    assert f"allowed: {allowed}" in err
    assert "Traceback" not in err and "pydantic" not in err


def test_bad_setting_in_a_subprocess(paths: KernelPaths) -> None:
    import os

    env = {**os.environ, "SUBCON_TICK_SECONDS": "abc"}
    proc = subprocess.run(
        [sys.executable, "-m", "workers.cli", "--kernel", str(paths.kernel), "status"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("subcon: invalid setting SUBCON_TICK_SECONDS='abc'")
    assert "Traceback" not in proc.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"subcon {version('subcon')}\n"
