"""Security: JSON only on every queue (a booby-trapped pickle is refused unread), Redis
with a password and over TLS, Flower behind basic auth as deployed, and no shell ever
runs with event or inbox text."""

from __future__ import annotations

import base64
import gc
import os
import pickle
import re
import shutil
import subprocess
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from shared.constants import QUEUE_COMMIT, QUEUE_KERNEL, QUEUE_SCAN
from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import write_item
from shared.settings import Settings
from testing.cluster import REPO, Cluster, running_cluster
from testing.redis_server import RedisServer, free_port
from testing.waiting import wait_until
from tests.faults.harness import WEAVER, FaultReport, audit_into, prepared_kernel
from workers import routing
from workers.app import make_app

pytestmark = pytest.mark.integration


class Trap:
    """Unpickling this runs ``touch <marker>``: proof that a pickle was ever loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (f"touch {self.marker}",))


def publish_pickle(app: Any, queue: str, task: str, marker: Path) -> str:
    """Publish a Celery protocol-2 message whose body is a malicious pickle, raw, with
    kombu (the producer is never asked to serialise anything)."""
    task_id = str(uuid.uuid4())
    body = pickle.dumps(((Trap(marker),), {}, {"callbacks": None, "errbacks": None}))
    headers = {
        "lang": "py",
        "task": task,
        "id": task_id,
        "root_id": task_id,
        "parent_id": None,
        "group": None,
        "retries": 0,
        "eta": None,
        "expires": None,
        "timelimit": [None, None],
        "argsrepr": "(...)",
        "kwargsrepr": "{}",
        "origin": "fault-test",
        "ignore_result": False,
    }
    with app.producer_or_acquire() as producer:
        producer.publish(
            body,
            exchange="",
            routing_key=queue,
            content_type="application/x-python-serialize",
            content_encoding="binary",
            headers=headers,
            declare=[app.amqp.queues[queue]],
            retry=True,
        )
    return task_id


def good_task(app: Any, queue: str) -> Any:
    """A well-formed JSON task for ``queue`` (its result proves the queue moved on)."""
    from workers.canvas import plan_weaver

    if queue == QUEUE_SCAN:
        plan = plan_weaver(app)
        return app.send_task(routing.SCAN, args=(plan, plan["slices"][0]), queue=queue)
    if queue == QUEUE_COMMIT:
        return app.send_task(routing.COMMIT, queue=queue)
    return app.send_task(routing.TICK, queue=queue)


def test_pickled_message_on_every_queue_is_refused_unread(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    paths = prepared_kernel(tmp_path / "k")
    cluster = cluster_factory(paths, SUBCON_TICK_SECONDS="3600")
    queues = {QUEUE_SCAN: routing.SCAN, QUEUE_KERNEL: routing.TICK, QUEUE_COMMIT: routing.COMMIT}
    for queue in queues:
        cluster.worker(queue, queue, 1)
    cluster.wait_ready(list(queues))
    app = make_app(cluster.settings)
    markers = {q: tmp_path / f"pwned-by-{q}" for q in queues}
    sent = {}
    for queue, task in queues.items():
        fault_report.injected("pickled-message")
        sent[queue] = publish_pickle(app, queue, task, markers[queue])
        # one consumer, prefetch 1, FIFO: the pickle is taken first, then this one
        good_task(app, queue).get(timeout=120)
    for queue, task_id in sent.items():
        assert not markers[queue].exists(), f"a pickle was loaded on {queue}"
        assert app.AsyncResult(task_id).state == "PENDING"  # never started, no result
        log = (cluster.logdir / f"{queue}.log").read_text(errors="replace")
        assert task_id not in log or "disallowed" in log.lower()
        assert re.search(r"disallowed|untrusted content", log, re.IGNORECASE), log[-2000:]
        # consumed and dropped, not left queued (the kernel queue may hold the follow-up
        # tasks of the tick that ran)
        queued = redis.Redis.from_url(cluster.redis_url).lrange(queue, 0, -1)
        assert not [m for m in queued if task_id.encode() in m]
        fault_report.survived("pickled-message")


def test_redis_with_password(
    tmp_path: Path, own_redis: Callable[..., RedisServer], fault_report: FaultReport
) -> None:
    password = "s3cret-" + uuid.uuid4().hex
    server = own_redis("--requirepass", password, "--save", "", auth=password)
    server.start()
    fault_report.tried("redis-requirepass")
    wrong = f"redis://:wrong@127.0.0.1:{server.port}/0"
    with pytest.raises(redis.AuthenticationError):
        redis.Redis.from_url(wrong).ping()
    anonymous = f"redis://127.0.0.1:{server.port}/0"
    with pytest.raises(redis.AuthenticationError):
        redis.Redis.from_url(anonymous).ping()
    lock_and_task_round_trip(tmp_path, server.url)


def lock_and_task_round_trip(tmp_path: Path, url: str) -> None:
    """The kernel lock and one task through a real worker, both over ``url``."""
    from shared.setup.bootstrap import init_kernel

    paths = KernelPaths(kernel=tmp_path / "rt-kernel", runtime=tmp_path / "rt-runtime")
    init_kernel(paths, demo=True, force=False)
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, broker_url=url)
    from shared.kernel.lock.factory import open_kernel_lock

    lock = open_kernel_lock(settings, paths)
    assert isinstance(lock, RedisKernelLock)
    with lock.hold("round-trip", wait=5) as lease:
        lease.ensure()
        assert lock.holder()["owner"] == "round-trip"  # type: ignore[index]
    assert lock.holder() is None
    with running_cluster(paths, url, tmp_path / "rt-logs", SUBCON_TICK_SECONDS="3600") as c:
        c.worker("kernel", "kernel", 1)
        c.wait_ready(["kernel"])
        app = make_app(c.settings)
        # Poll the stored result (plain GETs): a pub/sub subscription would outlive the
        # server this test stops and make noise in AsyncResult.__del__.
        task_id = app.send_task(routing.TICK, queue=QUEUE_KERNEL).id
        gc.collect()
        meta = wait_until(
            lambda: (m := app.backend.get_task_meta(task_id))["status"] == "SUCCESS" and m,
            120,
            "the tick over this Redis",
        )
        assert meta["result"]["tick"] == 1
    # the lock really lives in that server
    assert redis.Redis.from_url(url).exists(f"subcon:lock:{kernel_id(paths.kernel)}:fence")


def make_tls_material(root: Path) -> dict[str, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1 (openssl)."""
    root.mkdir(parents=True, exist_ok=True)

    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=root, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
        "-days", "1", "-subj", "/CN=subcon-fault-test-ca")  # fmt: skip
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "redis.key", "-out", "redis.csr",
        "-subj", "/CN=127.0.0.1")  # fmt: skip
    (root / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ssl("x509", "-req", "-in", "redis.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "redis.crt", "-days", "1", "-extfile", "ext.cnf")  # fmt: skip
    return {"ca": root / "ca.crt", "cert": root / "redis.crt", "key": root / "redis.key"}


def test_redis_over_tls(
    tmp_path: Path, own_redis: Callable[..., RedisServer], fault_report: FaultReport
) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed")
    tls = make_tls_material(tmp_path / "tls")
    server = own_redis(
        "--tls-cert-file", str(tls["cert"]), "--tls-key-file", str(tls["key"]),
        "--tls-ca-cert-file", str(tls["ca"]), "--tls-auth-clients", "no", "--save", "",
        scheme="rediss",
    )  # fmt: skip
    try:
        server.start(port_args=["--port", "0", "--tls-port", str(server.port)])
    except AssertionError:
        if "TLS" in server.log() or "tls" in server.log():
            pytest.skip("this redis-server was built without TLS")
        raise
    fault_report.tried("redis-tls")
    plain = f"redis://127.0.0.1:{server.port}/0"
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(plain, socket_timeout=2).ping()
    untrusted = f"rediss://127.0.0.1:{server.port}/0?ssl_cert_reqs=required"
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(untrusted, socket_timeout=2).ping()  # unknown CA: refused
    url = f"{server.url}?ssl_cert_reqs=required&ssl_ca_certs={tls['ca']}"
    assert redis.Redis.from_url(url).ping()
    lock_and_task_round_trip(tmp_path, url)


def test_flower_as_deployed_requires_basic_auth(
    tmp_path: Path, redis_url: str, fault_report: FaultReport
) -> None:
    deploy = REPO / "deploy"
    launchers = [
        p for p in deploy.rglob("*") if p.is_file() and "flower" in p.read_text(errors="replace")
    ]
    script = (deploy / "flower.sh").read_text(encoding="utf-8")
    assert re.search(r"--basic-auth=\S*SUBCON_FLOWER_USER\S*SUBCON_FLOWER_PASSWORD", script)
    assert ":?" in script  # refuses to start without credentials
    for path in launchers:
        text = path.read_text(errors="replace")
        for line in text.splitlines():
            if re.search(r"celery\b.*\bflower\b", line) and "flower.sh" not in str(path):
                pytest.fail(f"{path} starts Flower without deploy/flower.sh: {line}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env.update(SUBCON_BROKER_URL=redis_url, SUBCON_KERNEL_DIR=str(tmp_path / "k"),
               SUBCON_RUNTIME_DIR=str(tmp_path / "r"))  # fmt: skip
    (tmp_path / "k").mkdir()
    (tmp_path / "r").mkdir()
    # without credentials the deployed launcher refuses to start at all
    bare = subprocess.run(["bash", str(deploy / "flower.sh")], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bare.returncode != 0 and "SUBCON_FLOWER_USER" in bare.stderr
    port = free_port()
    env.update(SUBCON_FLOWER_USER="ops", SUBCON_FLOWER_PASSWORD="pw-" + uuid.uuid4().hex,
               SUBCON_FLOWER_PORT=str(port))  # fmt: skip
    log = open(tmp_path / "flower.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        ["bash", str(deploy / "flower.sh")],
        env=env,
        cwd=REPO,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    fault_report.tried("flower-auth")
    try:
        url = f"http://127.0.0.1:{port}/"

        def status(auth: str | None) -> int:
            request = urllib.request.Request(url)
            if auth:
                token = base64.b64encode(auth.encode()).decode()
                request.add_header("Authorization", f"Basic {token}")
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    return int(response.status)
            except urllib.error.HTTPError as exc:
                return int(exc.code)
            except OSError:
                return 0

        code = wait_until(lambda: status(None), 60, "Flower to listen", poll=0.2)
        assert code == 401
        assert status("ops:wrong") == 401
        assert status(f"ops:{env['SUBCON_FLOWER_PASSWORD']}") == 200
    finally:
        import signal as _signal

        if proc.poll() is None:
            os.killpg(proc.pid, _signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, _signal.SIGKILL)
                proc.wait()


SHELL_PATTERNS = [
    r"shell\s*=\s*True",
    r"\bos\.system\s*\(",
    r"\bos\.popen\s*\(",
    r"\bos\.exec[lv]p?e?\s*\(",
    r"\bos\.spawn\w*\s*\(",
    r"^\s*import pickle\b|^\s*from pickle\b",
    r"\bcommands\.getoutput\b",
]


def test_no_shell_anywhere_in_the_source(fault_report: FaultReport) -> None:
    hits = []
    files = sorted((REPO / "shared").rglob("*.py")) + sorted((REPO / "workers").rglob("*.py"))
    for path in files:
        fault_report.tried("static-source-file")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in SHELL_PATTERNS:
                if re.search(pattern, line):
                    hits.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert files and not hits, "\n".join(hits)
    # in the core that handles event and inbox data, the one git funnel is the only
    # place that starts a process (always an argv list, never a shell)
    core = [p for p in files if p.is_relative_to(REPO / "shared")]
    # (an import, not the word: the gates' lexicon lists "subprocess" as a noun)
    spawn = re.compile(
        r"^\s*(import subprocess|from subprocess |import os\.spawn)|\bos\.(spawn|exec)", re.M
    )
    spawners = [p for p in core if spawn.search(p.read_text(encoding="utf-8"))]
    assert [p.relative_to(REPO).as_posix() for p in spawners] == ["shared/kernel/git.py"]


PAYLOADS = [
    "$(touch {m}-dollar)",
    "`touch {m}-backtick`",
    "; touch {m}-semicolon",
    "| touch {m}-pipe",
    "&& touch {m}-and",
    "\n touch {m}-newline",
    "' ; touch {m}-quote ; '",
    '" ; touch {m}-dquote ; "',
    "{m}-path ../../../../{m}-dotdot",
    "$(printf x > {m}-redirect)",
]


def test_shell_payloads_in_events_and_inbox_never_run(
    tmp_path: Path, fault_report: FaultReport
) -> None:
    """A whole embedded tick-free pass (scan, crystallize, update, settle, commit) over
    events and inbox bodies full of shell syntax; no marker file may appear."""
    import json

    from workers.embedded import run_partition

    paths = prepared_kernel(tmp_path / "k")
    marker = tmp_path / "pwned"
    payloads = [p.format(m=marker) for p in PAYLOADS] + [
        p.format(m="/tmp/pwned") for p in PAYLOADS[:3]
    ]
    day = paths.day_file("2026-01-07")
    with open(day, "ab") as handle:
        for i, payload in enumerate(payloads):
            event = {
                "type": "channel.message",
                "source": {"kind": "stdio", "name": "stdio-default"},
                "session_key": f"stdio:{payload}",
                "payload": {
                    "text": f"不对 wrong: when deploying, run {payload} first",
                    "raw_path": payload,
                },
                "id": f"evt_{payload}",
                "ts": f"2026-01-07T06:{i % 60:02d}:00.000Z",
            }
            handle.write(json.dumps(event, ensure_ascii=False).encode("utf-8") + b"\n")
    for i, payload in enumerate(payloads):
        write_item(paths, WEAVER, f"{i:02d}-shell.pending", f"[memory:claude-compress] {payload}")
        write_item(paths, WEAVER, f"{i:02d}-scan.pending", f"scan 20260107[06,06] {payload}")
    fault_report.tried("shell-payload", 3 * len(payloads))
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    for _ in range(2):
        report = run_partition(settings, WEAVER)
        assert report["status"] in ("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:")
    committed = run_partition(settings, "memory-committer")
    assert committed["text"].startswith(("Committed:", "NO_NEW_GRADIENT"))
    assert audit_into(fault_report, paths.kernel, []) == (0, 0)
    created = sorted(str(p) for p in tmp_path.glob("pwned*")) + sorted(
        str(p) for p in Path("/tmp").glob("pwned*")
    )
    assert created == []
