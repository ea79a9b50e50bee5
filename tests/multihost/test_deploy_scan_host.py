"""The scan-only host's deploy files say what the multi-host tests prove: scan workers
only, the spine read-only at the runtime's path, no kernel, nothing writable."""

from __future__ import annotations

import configparser
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_compose_profile_runs_only_scan_workers_on_a_read_only_spine() -> None:
    data = yaml.safe_load((DEPLOY / "docker-compose.scan-host.yml").read_text(encoding="utf-8"))
    services = data["services"]
    assert list(services) == ["scan"]
    scan = services["scan"]
    assert scan["profiles"] == ["scan-host"]
    assert scan["command"] == ["deploy/scan-worker.sh"]
    assert scan["read_only"] is True and scan["tmpfs"] == ["/tmp"]
    assert all(v["read_only"] is True for v in scan["volumes"])
    events = scan["volumes"][0]
    assert events["target"].endswith("}/var/events") and "SUBCON_RUNTIME_DIR" in events["target"]
    assert "KERNEL" not in yaml.safe_dump(scan)


def test_systemd_unit_hides_everything_but_the_spine() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "systemd" / "subcon-scan-host.service", encoding="utf-8")
    service = unit["Service"]
    assert service["ExecStart"] == "/opt/subcon/deploy/scan-worker.sh"
    assert service["ProtectSystem"] == "strict" and service["ProtectHome"] == "tmpfs"
    assert service["PrivateTmp"] == "yes"
    source, target = service["BindReadOnlyPaths"].split(":")
    assert target.endswith("/var/events")
    env_file = service["EnvironmentFile"]
    assert env_file == "/etc/subcon/scan-host.env"
    assert not any(k in service for k in ("ReadWritePaths", "BindPaths"))
    example = (DEPLOY / "scan-host.env.example").read_text(encoding="utf-8")
    settings = dict(
        line.split("=", 1) for line in example.splitlines() if line and not line.startswith("#")
    )
    assert "SUBCON_KERNEL_DIR" not in settings
    assert target == f"{settings['SUBCON_RUNTIME_DIR']}/var/events"
    assert source == settings["SUBCON_EVENTS_SOURCE"]
    assert settings["SUBCON_BROKER_URL"].startswith("rediss://:")
