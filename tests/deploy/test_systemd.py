"""deploy/systemd/ checked by systemd itself: ``systemd-analyze verify`` on every unit,
installed into a scratch root laid out as on a host (units in /etc/systemd/system, the
repository at /opt/subcon, the distribution's own units beside them)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

# Drives systemd-analyze, a tool outside Python: the integration tier.
pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
UNITS = REPO / "deploy" / "systemd"
SYSTEM_UNITS = next(
    (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
    None,
)


def unit_files() -> list[Path]:
    return sorted(p for p in UNITS.iterdir() if p.suffix in (".service", ".target"))


def make_root(tmp: Path) -> Path:
    root = tmp / "root"
    etc = root / "etc" / "systemd" / "system"
    etc.mkdir(parents=True)
    for unit in unit_files():
        shutil.copy(unit, etc / unit.name)
    (root / "opt" / "subcon").mkdir(parents=True)
    shutil.copytree(REPO / "deploy", root / "opt" / "subcon" / "deploy", symlinks=True)
    assert SYSTEM_UNITS is not None
    shutil.copytree(SYSTEM_UNITS, root / "usr" / "lib" / "systemd" / "system", symlinks=True)
    return root


def verify(root: Path, names: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", f"--root={root}", *names],
        cwd=root / "etc" / "systemd" / "system",
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    if shutil.which("systemd-analyze") is None or SYSTEM_UNITS is None:
        pytest.skip("systemd-analyze is not installed (.ci/run installs Debian's systemd)")
    made = make_root(tmp_path)
    # Can it verify here at all? A unit with a typo must be reported, or the check proves
    # nothing in this container.
    probe = made / "etc" / "systemd" / "system" / "subcon-probe.service"
    probe.write_text("[Service]\nExecStart=/bin/true\nRestartSecs=5\n", encoding="utf-8")
    seen = verify(made, [probe.name])
    probe.unlink()
    if "RestartSecs" not in seen.stderr:
        pytest.skip(f"systemd-analyze verify does not work here: {seen.stderr.strip()[:300]}")
    return made


def test_every_unit_verifies_clean(root: Path) -> None:
    names = [u.name for u in unit_files()]
    assert "subcon.target" in names and len(names) >= 6
    proc = verify(root, names)
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr


def test_units_run_the_deploy_scripts_with_the_env_file() -> None:
    services = [u for u in unit_files() if u.suffix == ".service"]
    assert services
    for unit in services:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(unit, encoding="utf-8")
        service = parser["Service"]
        script = service["ExecStart"].split()[0]
        assert script.startswith("/opt/subcon/deploy/"), unit.name
        local = REPO / script.removeprefix("/opt/subcon/")
        assert local.is_file() and local.stat().st_mode & 0o111, (unit.name, script)
        if unit.name == "subcon-scan-host.service":
            # A scan-only host is a machine of its own: its own env file, not in the
            # kernel host's subcon.target.
            assert service["EnvironmentFile"] == "/etc/subcon/scan-host.env", unit.name
            assert "PartOf" not in parser["Unit"], unit.name
        else:
            assert service["EnvironmentFile"] == "/etc/subcon/subcon.env", unit.name
            assert parser["Unit"]["PartOf"] == "subcon.target", unit.name
        if script.endswith("-worker.sh"):
            # warm shutdown: SIGTERM to the Celery main process only, never to its pool
            assert service.get("KillSignal") == "SIGTERM", unit.name
            assert service.get("KillMode") == "mixed", unit.name
    target = configparser.ConfigParser(strict=False, interpolation=None)
    target.read(UNITS / "subcon.target", encoding="utf-8")
    wanted = target["Unit"]["Wants"].split()
    assert all((UNITS / name).is_file() for name in wanted), wanted
