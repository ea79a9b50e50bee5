"""deploy/docker-compose.yml as Compose itself reads it (``docker compose config`` or the
Debian ``docker-compose``: interpolation, env files, schema; no daemon needed) and
against the current compose-spec schema (check-jsonschema's vendored copy)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

# Drives docker-compose, a tool outside Python: the integration tier.
pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "deploy" / "docker-compose.yml"
SUBCON_SERVICES = {"scan", "kernel", "commit", "beat", "flower"}


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy:
        return [legacy]
    pytest.skip("neither `docker compose` nor `docker-compose` is installed (.ci/run installs it)")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of deploy/ with a subcon.env made from the example, as cluster.sh makes it."""
    shutil.copytree(REPO / "deploy", tmp_path / "deploy")
    shutil.copy(REPO / "deploy" / "subcon.env.example", tmp_path / "deploy" / "subcon.env")
    return tmp_path


def config(project: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SUBCON_", "COMPOSE_"))}
    return subprocess.run(
        [
            *compose_command(),
            "--env-file",
            str(project / "deploy" / "subcon.env"),
            "-f",
            str(project / "deploy" / "docker-compose.yml"),
            "config",
        ],
        cwd=project,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _mount(volume: Any) -> tuple[str, str]:
    if isinstance(volume, dict):
        return str(volume["source"]), str(volume["target"])
    source, target, *_ = str(volume).split(":")
    return source, target


def test_compose_config_resolves_every_service(project: Path) -> None:
    proc = config(project, SUBCON_KERNEL_DIR="/srv/kernel")
    assert proc.returncode == 0, proc.stderr
    resolved: dict[str, Any] = yaml.safe_load(proc.stdout)
    services = resolved["services"]
    assert set(services) == SUBCON_SERVICES | {"redis"}
    for name in SUBCON_SERVICES:
        service = services[name]
        # the scripts the image runs are the repository's, executable
        (script,) = service["command"]
        assert os.access(REPO / script, os.X_OK), script
        env = service["environment"]
        assert env["SUBCON_BROKER_URL"] == "redis://redis:6379/0"
        # the exported kernel dir wins over the env file's, in the container's settings
        # and in its mounts alike: the workers see the kernel where they are told it is
        assert env["SUBCON_KERNEL_DIR"] == "/srv/kernel", name
        assert env["SUBCON_RUNTIME_DIR"] == "/home/aladuo/.aladuo", name
        mounts = {_mount(v) for v in service["volumes"]}
        assert ("/srv/kernel", "/srv/kernel") in mounts, mounts
        assert ("/home/aladuo/.aladuo", "/home/aladuo/.aladuo") in mounts, mounts
        # the registered kernels' root, at the same path (issue #31)
        assert ("/var/lib/subcon/kernels", "/var/lib/subcon/kernels") in mounts, mounts
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    # Flower: basic auth from the env file, published on host loopback only
    flower = services["flower"]
    assert flower["environment"]["SUBCON_FLOWER_PASSWORD"] == "change-me"
    (port,) = flower["ports"]
    host_ip = port["host_ip"] if isinstance(port, dict) else str(port).split(":")[0]
    assert host_ip == "127.0.0.1"


def test_compose_config_refuses_a_missing_kernel_dir(project: Path) -> None:
    env_file = project / "deploy" / "subcon.env"
    text = env_file.read_text(encoding="utf-8")
    env_file.write_text(
        "\n".join(x for x in text.splitlines() if not x.startswith("SUBCON_KERNEL_DIR=")),
        encoding="utf-8",
    )
    proc = config(project)
    assert proc.returncode != 0
    assert "set SUBCON_KERNEL_DIR" in proc.stderr


def test_compose_file_matches_the_compose_spec_schema() -> None:
    pytest.importorskip("check_jsonschema", reason="check-jsonschema is a dev dependency")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.compose-spec",
            str(COMPOSE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_compose_mounts_the_registered_kernels_root_where_it_is_told(project: Path) -> None:
    proc = config(project, SUBCON_KERNEL_DIR="/srv/kernel", SUBCON_KERNELS_ROOT="/srv/agents")
    assert proc.returncode == 0, proc.stderr
    services = yaml.safe_load(proc.stdout)["services"]
    for name in SUBCON_SERVICES:
        mounts = {_mount(v) for v in services[name]["volumes"]}
        assert ("/srv/agents", "/srv/agents") in mounts, (name, mounts)
