"""One settings story (issue #32 item 2): the command line, then the environment, then one
settings file, then the defaults; the CLI beside a cluster reads the file cluster.sh
writes, and ``status`` says where each setting came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.errors import ConfigError
from shared.settings import load_settings, settings_file, source_of


def _cli(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    if "PYTHONPATH" in os.environ:
        base["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return subprocess.run(
        [sys.executable, "-m", "workers", *args],
        cwd=cwd, env={**base, **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_settings_file_comes_after_the_environment_and_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "subcon.env"
    file.write_text(
        "# cluster settings\nSUBCON_KERNEL_DIR=/from/file/k\nSUBCON_RUNTIME_DIR=/from/file/r\n"
        "export SUBCON_TICK_SECONDS='60'\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SUBCON_ENV_FILE", str(file))
    monkeypatch.setenv("SUBCON_RUNTIME_DIR", "/from/env/r")
    for name in ("SUBCON_KERNEL_DIR", "SUBCON_TICK_SECONDS", "SUBCON_BROKER_URL"):
        monkeypatch.delenv(name, raising=False)
    overrides = {"kernel_dir": None, "runtime_dir": None}
    s = load_settings(**overrides)
    assert (str(s.kernel_dir), str(s.runtime_dir), s.tick_seconds) == (
        "/from/file/k",
        "/from/env/r",
        60.0,
    )
    assert source_of(s, "kernel_dir", overrides) == str(file)
    assert source_of(s, "runtime_dir", overrides) == "the environment"
    assert source_of(s, "broker_url", overrides) == "the default"
    flags = {"kernel_dir": Path("/from/flag"), "runtime_dir": None}
    s = load_settings(**flags)
    assert str(s.kernel_dir) == "/from/flag" and source_of(s, "kernel_dir", flags) == (
        "the command line"
    )
    monkeypatch.setenv("SUBCON_ENV_FILE", str(tmp_path / "missing.env"))
    with pytest.raises(ConfigError, match=r"missing\.env does not exist"):
        load_settings()


def test_without_a_named_file_the_first_of_dotenv_user_config_deploy_is_read(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config"
    (config / "subcon").mkdir(parents=True)
    (config / "subcon" / "subcon.env").write_text("SUBCON_TICK_SECONDS=5\n", encoding="utf-8")
    environ = {"XDG_CONFIG_HOME": str(config)}
    found = settings_file(environ)
    assert found is not None and found.name == "subcon.env" and found.parent.parent == config


def test_a_cli_beside_a_cluster_is_not_silently_embedded(tmp_path: Path) -> None:
    """The broker URL in the settings file reaches the CLI, and status says so."""
    kernel, runtime = tmp_path / "k", tmp_path / "r"
    assert (
        _cli(tmp_path, {}, "--kernel", str(kernel), "--runtime", str(runtime), "init").returncode
        == 0
    )
    file = tmp_path / "cluster.env"
    file.write_text(
        f"SUBCON_KERNEL_DIR={kernel}\nSUBCON_RUNTIME_DIR={runtime}\n"
        "SUBCON_BROKER_URL=redis://127.0.0.1:1/0\n",
        encoding="utf-8",
    )
    proc = _cli(tmp_path, {"SUBCON_ENV_FILE": str(file)}, "status", "--json")
    assert proc.returncode == 0, proc.stderr
    status = json.loads(proc.stdout)
    assert status["mode"] == "distributed"
    assert status["settings"]["file"] == str(file)
    assert status["settings"]["sources"]["broker_url"] == str(file)
    assert status["broker"]["reachable"] is False
