"""Separate hosts made of Linux namespaces: a kernel host and scan hosts.

Each host is a network namespace (``ip netns``) with its own UTS name; the kernel host
holds a bridge with the address ``10.213.0.1/24`` and every scan host is joined to it
by a veth pair (``10.213.0.11``, ``.12``, ...). These addresses exist only inside the
namespaces made here: nothing is added to the machine's own network namespace, and no
traffic leaves the namespaces. A scan host also gets its own mount namespace in which
only ``var/events`` is there, read-only (``testing/hosts/hostns.py``).

The kernel host runs ``redis-server`` (password, plain and TLS ports, bound to its
address only) and the workers from ``deploy/*.sh`` exactly as deployed; scan hosts run
``deploy/scan-worker.sh``. Everything that talks to Redis from the test side runs as a
client process inside the kernel host (``testing/hosts/client.py``).

Namespaces are named ``subcon-mh-<pid>-<n>-<host>``; :func:`sweep_leftovers` removes
those of dead processes (a crashed run), and every :class:`Fleet` tears its own down.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.kernel.paths import KernelPaths
from testing.hosts.hostns import KEEP as KEEP_RW_TYPES
from testing.redis_server import EPHEMERAL, server_command
from testing.waiting import poll_until, wait_until

__all__ = ["KEEP_RW_TYPES", "Fleet", "Host", "fleet", "sweep_leftovers", "unavailable"]

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
PREFIX = "subcon-mh-"
KERNEL_ADDR = "10.213.0.1"
PLAIN_PORT = 6379
TLS_PORT = 6380
PASSWORD = "mh-secret-7f3c"  # a throwaway test password
READY_TIMEOUT_S = 60.0
_counter = [0]


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def unavailable() -> str | None:
    """Why hosts cannot be made here (None when they can)."""
    if os.geteuid() != 0:
        return "multi-host tests need root (ip netns, mount namespaces)"
    for tool in ("ip", "unshare", "nsenter", "mount", "openssl", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if shutil.which("ldd") is not None:
        linked = subprocess.run(["ldd", str(shutil.which("redis-server"))], capture_output=True)
        if linked.returncode == 0 and b"libssl" not in linked.stdout:
            return "redis-server is built without TLS (the TLS tests need --tls-port)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    try:
        for args in (
            ("link", "add", "br0", "type", "bridge"),
            ("link", "add", "v0", "type", "veth", "peer", "name", "v1"),
        ):
            got = _ip("-n", probe, *args, check=False)
            if got.returncode != 0:
                return f"ip {' '.join(args)} failed: {got.stderr.strip()}"
        got = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                probe,
                "unshare",
                "--mount",
                "--uts",
                "mount",
                "-t",
                "tmpfs",
                "probe",
                "/mnt",
            ],
            capture_output=True,
            text=True,
        )
        if got.returncode != 0:
            return f"mount namespaces unavailable: {got.stderr.strip()}"
    finally:
        _ip("netns", "del", probe, check=False)
    return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_netns(name: str) -> None:
    got = _ip("netns", "pids", name, check=False)
    for text in got.stdout.split():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(text), signal.SIGKILL)
    # Best effort: a namespace whose processes linger is deleted all the same.
    poll_until(lambda: not _ip("netns", "pids", name, check=False).stdout.strip(), 10, 0.05)
    _ip("netns", "del", name, check=False)


def sweep_leftovers() -> list[str]:
    """Delete namespaces (and kill their processes) left by a run that died."""
    removed = []
    for line in _ip("netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if not name.startswith(PREFIX):
            continue
        owner = name.removeprefix(PREFIX).split("-", 1)[0]
        if owner.isdigit() and _pid_alive(int(owner)):
            continue  # a live run's hosts (this one's are torn down by their Fleet)
        _kill_netns(name)
        removed.append(name)
    return removed


def make_certs(workdir: Path) -> dict[str, Path]:
    """A CA and a server certificate for the kernel host's address, made with openssl."""
    (workdir / "public").mkdir(parents=True, exist_ok=True)
    # Only the CA certificate goes to scan hosts: it sits alone in public/.
    out = {k: workdir / f"{k}.pem" for k in ("ca_key", "cert", "key")}
    out["ca"] = workdir / "public" / "ca.pem"

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=subcon multihost test CA",
        "-keyout",
        str(out["ca_key"]),
        "-out",
        str(out["ca"]),
    )
    csr = workdir / "server.csr"
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=kernel-host",
        "-keyout",
        str(out["key"]),
        "-out",
        str(csr),
    )
    ext = workdir / "server.ext"
    ext.write_text(f"subjectAltName=IP:{KERNEL_ADDR}\n", encoding="ascii")
    openssl(
        "x509",
        "-req",
        "-in",
        str(csr),
        "-CA",
        str(out["ca"]),
        "-CAkey",
        str(out["ca_key"]),
        "-CAserial",
        str(workdir / "ca.srl"),
        "-CAcreateserial",
        "-days",
        "1",
        "-extfile",
        str(ext),
        "-out",
        str(out["cert"]),
    )
    return out


@dataclass
class Host:
    """One host: its network namespace, its name and (scan hosts) its address."""

    name: str
    netns: str
    address: str

    def prefix(self, *, view: list[str] | None = None) -> list[str]:
        """The command prefix that runs a program on this host."""
        unshare = ["unshare", "--uts"]
        if view is not None:
            unshare += ["--mount", "--propagation", "private"]
        return [
            "ip",
            "netns",
            "exec",
            self.netns,
            *unshare,
            "--",
            sys.executable,
            "-m",
            "testing.hosts.hostns",
            "--hostname",
            self.name,
            *(view or []),
            "--",
        ]


@dataclass
class Fleet:
    """A kernel host and scan hosts for one kernel, and every process on them."""

    paths: KernelPaths
    view_root: Path  # the directory holding kernel and runtime (hidden on scan hosts)
    workdir: Path
    env: dict[str, str] = field(default_factory=dict)
    hosts: dict[str, Host] = field(default_factory=dict)
    procs: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)
    certs: dict[str, Path] = field(default_factory=dict)

    # --- network -----------------------------------------------------------------
    def build(self, scan_hosts: list[str]) -> None:
        _counter[0] += 1
        tag = f"{PREFIX}{os.getpid()}-{_counter[0]}"
        kernel = Host("kernel-host", f"{tag}-kernel", KERNEL_ADDR)
        _ip("netns", "add", kernel.netns)
        self.hosts["kernel-host"] = kernel
        _ip("-n", kernel.netns, "link", "set", "lo", "up")
        _ip("-n", kernel.netns, "link", "add", "br0", "type", "bridge")
        _ip("-n", kernel.netns, "addr", "add", f"{KERNEL_ADDR}/24", "dev", "br0")
        _ip("-n", kernel.netns, "link", "set", "br0", "up")
        for n, name in enumerate(scan_hosts):
            host = Host(name, f"{tag}-{name}", f"10.213.0.{11 + n}")
            _ip("netns", "add", host.netns)
            self.hosts[name] = host
            # Both ends are made inside namespaces: the machine's own gets no interface.
            _ip(
                "-n",
                kernel.netns,
                "link",
                "add",
                f"v-{name}"[:15],
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                host.netns,
            )
            _ip("-n", kernel.netns, "link", "set", f"v-{name}"[:15], "master", "br0")
            _ip("-n", kernel.netns, "link", "set", f"v-{name}"[:15], "up")
            _ip("-n", host.netns, "link", "set", "lo", "up")
            _ip("-n", host.netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
            _ip("-n", host.netns, "link", "set", "eth0", "up")

    def link(self, host: str, up: bool) -> None:
        """Cut (or restore) a scan host's only link."""
        _ip("-n", self.hosts[host].netns, "link", "set", "eth0", "up" if up else "down")

    # --- urls --------------------------------------------------------------------
    def url(self, *, tls: bool = False, password: str = PASSWORD) -> str:
        if tls:
            ca = self.certs["ca"]
            return (
                f"rediss://:{password}@{KERNEL_ADDR}:{TLS_PORT}/0"
                f"?ssl_cert_reqs=required&ssl_ca_certs={ca}"
            )
        return f"redis://:{password}@{KERNEL_ADDR}:{PLAIN_PORT}/0"

    def base_env(self, url: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
        env.update(
            SUBCON_BROKER_URL=url,
            SUBCON_KERNEL_DIR=str(self.paths.kernel),
            SUBCON_RUNTIME_DIR=str(self.paths.runtime),
            PYTHONPATH=str(REPO),
            PYTHONUNBUFFERED="1",
            # The interpreter's own bin first: its `celery`, not a shim that may write.
            PATH=f"{Path(sys.executable).parent}:{env.get('PATH', '/usr/bin:/bin')}",
        )
        env.update(self.env)
        return env

    # --- processes ---------------------------------------------------------------
    def spawn(self, name: str, cmd: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = open(self.workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.procs.append((name, proc))
        return proc

    def start_redis(self) -> None:
        """redis-server on the kernel host: password, plain and TLS ports, its address."""
        self.certs = make_certs(self.workdir / "tls")
        data = self.workdir / "redis"
        data.mkdir(exist_ok=True)
        kernel = self.hosts["kernel-host"]
        self.spawn(
            "redis",
            [
                *kernel.prefix(),
                *server_command(
                    "redis-server",
                    KERNEL_ADDR,
                    ["--port", str(PLAIN_PORT), "--tls-port", str(TLS_PORT)],
                    data,
                    *EPHEMERAL,
                ),
                "--tls-cert-file",
                str(self.certs["cert"]),
                "--tls-key-file",
                str(self.certs["key"]),
                "--tls-ca-cert-file",
                str(self.certs["ca"]),
                "--tls-auth-clients",
                "no",
                "--requirepass",
                PASSWORD,
            ],
            dict(os.environ),
        )
        wait_until(lambda: self.client("ping-redis", check=False).get("ok"), 20, "redis-server")

    def start_kernel_workers(self, *, commit: bool = True) -> None:
        """The kernel worker (concurrency 1) and the commit worker, as deployed."""
        kernel = self.hosts["kernel-host"]
        env = self.base_env(self.url())
        env["SUBCON_KERNEL_CONCURRENCY"] = "1"
        quick = ["--without-gossip", "--without-mingle"]
        self.spawn("kernel", [*kernel.prefix(), str(DEPLOY / "kernel-worker.sh"), *quick], env)
        if commit:
            self.spawn("commit", [*kernel.prefix(), str(DEPLOY / "commit-worker.sh"), *quick], env)

    def start_scan_host(
        self,
        name: str,
        *,
        tls: bool = False,
        password: str = PASSWORD,
        control: Path | None = None,
        concurrency: int = 1,
        env: dict[str, str] | None = None,
        program: list[str] | None = None,
    ) -> subprocess.Popen[bytes]:
        """``deploy/scan-worker.sh`` (or ``program``) on scan host ``name``, with only
        var/events there."""
        host = self.hosts[name]
        view = ["--view", str(self.view_root), "--ro", str(self.paths.events_dir)]
        if tls:
            view += ["--ro", str(self.certs["ca"].parent)]
        if control is not None:
            control.mkdir(parents=True, exist_ok=True)
            view += ["--rw", str(control)]
        full_env = self.base_env(self.url(tls=tls, password=password))
        full_env.update(SUBCON_SCAN_CONCURRENCY=str(concurrency), HOME="/tmp")
        full_env.update(env or {})
        program = program or [
            str(DEPLOY / "scan-worker.sh"),
            "--without-gossip",
            "--without-mingle",
        ]
        return self.spawn(name, [*host.prefix(view=view), *program], full_env)

    def pid(self, name: str) -> int:
        return next(p.pid for n, p in self.procs if n == name)

    def on_host(self, name: str, cmd: list[str]) -> subprocess.CompletedProcess[str]:
        """Run ``cmd`` inside the namespaces of process ``name`` (its host's view)."""
        return subprocess.run(
            ["nsenter", "--target", str(self.pid(name)), "--mount", "--net", "--uts", "--", *cmd],
            capture_output=True,
            text=True,
            cwd="/",
        )

    def run_on_kernel_host(
        self, cmd: list[str], *, timeout: float = 180, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``cmd`` on the kernel host with its workers' environment."""
        full_env = self.base_env(self.url())
        full_env.update(env or {})
        return subprocess.run(
            [*self.hosts["kernel-host"].prefix(), *cmd],
            cwd=REPO,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def client(self, op: str, *, check: bool = True, timeout: float = 180, **args: Any) -> Any:
        """Run one client operation on the kernel host; returns its JSON answer."""
        got = self.run_on_kernel_host(
            [sys.executable, "-m", "testing.hosts.client", op, json.dumps(args)],
            timeout=timeout,
        )
        if got.returncode != 0:
            if not check:
                return {}
            raise AssertionError(
                f"client {op} failed ({got.returncode}):\n{got.stderr[-3000:]}\n{self.logs()}"
            )
        return json.loads(got.stdout.strip().splitlines()[-1])

    def wait_ready(self, workers: list[str]) -> None:
        try:
            wait_until(
                lambda: set(workers) <= set(self.client("ping", check=False).get("workers", [])),
                READY_TIMEOUT_S,
                f"workers {workers}",
                poll=0.5,
            )
        except AssertionError:
            raise AssertionError(f"workers not ready; logs:\n{self.logs()}") from None

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(
            f"==== {p.name}\n{p.read_text(errors='replace')[-3000:]}"
            for p in sorted(self.workdir.glob("*.log"))
        )

    def stop(self, name: str | None = None) -> None:
        """Stop one process (by name) or all, Redis last so that the workers' warm
        shutdown can still requeue and close cleanly."""
        if name is not None:
            self._stop([(n, p) for n, p in self.procs if n == name])
            return
        self._stop([(n, p) for n, p in self.procs if n != "redis"])
        self._stop(list(self.procs))

    def _stop(self, chosen: list[tuple[str, subprocess.Popen[bytes]]]) -> None:
        """SIGTERM each process group, SIGKILL after 15 s (5 s on a scan host: they are
        disposable, and one whose link was cut may wait out TCP retransmissions)."""
        for _, proc in chosen:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGTERM)
        began = time.monotonic()
        for name, proc in chosen:
            grace = 15.0 if self.hosts.get(name) is None else 5.0
            try:
                proc.wait(timeout=max(0.1, began + grace - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.procs = [(n, p) for n, p in self.procs if (n, p) not in chosen]

    def destroy(self) -> None:
        """Stop every process, then delete every namespace (veths go with them)."""
        self.stop()
        for host in self.hosts.values():
            _kill_netns(host.netns)
        self.hosts.clear()


@contextlib.contextmanager
def fleet(
    paths: KernelPaths, view_root: Path, workdir: Path, scan_hosts: list[str], **env: str
) -> Iterator[Fleet]:
    """A fleet with its network and Redis up; everything is torn down on exit."""
    workdir.mkdir(parents=True, exist_ok=True)
    made = Fleet(paths, view_root, workdir, dict(env))
    try:
        made.build(scan_hosts)
        made.start_redis()
        yield made
    finally:
        made.destroy()
