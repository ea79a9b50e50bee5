"""The memory check reports a board that is not UTF-8 (issue #32, medium 7)."""

from __future__ import annotations

from pathlib import Path

from shared.kernel.paths import KernelPaths
from shared.memcheck.check import run_memory_check
from shared.settings import Settings
from shared.setup.bootstrap import init_kernel


def test_a_board_that_is_not_utf8_is_an_error_of_the_check(tmp_path: Path) -> None:
    kernel = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(kernel, demo=True, force=False)
    with open(kernel.board, "ab") as handle:
        handle.write(b"- When x, do y \xff bad\n")
    settings = Settings(kernel_dir=kernel.kernel, runtime_dir=kernel.runtime, memory_check=True)
    report = run_memory_check(kernel, settings)
    (error,) = [e for e in report.errors if e.startswith("board:")]
    assert error.endswith(": not valid UTF-8 (byte 0xff)") and "CLAUDE.md:" in error
    assert not report.clean
