"""A scan host sees the Python it runs even when the venv lives under /tmp (issue #32
item 4): the host's own /tmp would hide it, so it is bound back read-only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from testing.hosts import hostns


def test_a_venv_under_tmp_is_bound_back_and_a_system_python_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venv = tmp_path / "venv"
    site = venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.setattr("site.getsitepackages", lambda: [str(site)])
    # The venv is under /tmp: bound back once (its site-packages is inside it).
    assert hostns.interpreter_paths() == [venv.resolve()]
    monkeypatch.setattr(sys, "prefix", "/usr")
    monkeypatch.setattr("site.getsitepackages", lambda: ["/usr/lib/python3/dist-packages"])
    assert hostns.interpreter_paths() == []
