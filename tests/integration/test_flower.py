"""What a real Flower process shows of subcon's tasks: results as JSON (task list, task
info, task page, result endpoint) and a long scan's PROGRESS state while it runs.

One cluster for the module: redis-server, scan/kernel/commit workers and Flower, all
started as the deploy scripts start them (``celery -A workers.app ...``).
"""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from testing.cluster import REPO, Cluster
from testing.kernels import make_demo, write_big_day
from testing.redis_server import free_port
from testing.waiting import wait_until

pytestmark = pytest.mark.integration

AUTH = ("subcon", "flower-test-pass")
BIG_DAY = "2026-02-14"
BIG_DAY_EVENTS = 12_000


@dataclass
class Flower:
    cluster: Cluster
    paths: KernelPaths
    port: int

    def get(self, path: str, *, raw: bool = False) -> Any:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        token = base64.b64encode(f"{AUTH[0]}:{AUTH[1]}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return body.decode("utf-8") if raw else json.loads(body)

    def tasks(self, **query: str) -> dict[str, dict[str, Any]]:
        suffix = "&".join(f"{k}={v}" for k, v in query.items())
        return dict(self.get(f"/api/tasks?{suffix}"))

    def subcon(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workers", *args],
            cwd=REPO,
            env=self.cluster.env,
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture(scope="module")
def flower(redis_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flower]:
    redis_server.flush()
    root = tmp_path_factory.mktemp("flower")
    paths = make_demo(root)
    run_git(paths.kernel, "checkout", "--", "memory/CLAUDE.md")
    write_big_day(paths, BIG_DAY, BIG_DAY_EVENTS)
    logdir = root / "logs"
    logdir.mkdir()
    # One slice for the whole big day, so one scan task runs for seconds.
    cluster = Cluster(paths, redis_server.url, logdir, {"SUBCON_SCAN_SLICE_EVENTS": "100000"})
    port = free_port()
    try:
        cluster.worker("scan", "scan", 2)
        cluster.worker("kernel", "kernel", 1)
        cluster.commit_worker()
        # Flower exactly as deployed (deploy/flower.sh)
        log = open(logdir / "flower.log", "wb")  # noqa: SIM115 - closed once spawned
        flower_env = {
            **cluster.env,
            "SUBCON_FLOWER_PORT": str(port),
            "SUBCON_FLOWER_USER": AUTH[0],
            "SUBCON_FLOWER_PASSWORD": AUTH[1],
        }
        proc = subprocess.Popen(
            [str(REPO / "deploy" / "flower.sh")],
            cwd=REPO,
            env=flower_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        cluster.procs.append(("flower", proc))
        cluster.wait_ready(["scan", "kernel", "commit"])
        running = Flower(cluster, paths, port)

        def answers() -> bool:
            try:
                return running.get("/api/workers") is not None
            except OSError:
                return False

        wait_until(answers, 60, "Flower to answer")
        yield running
    finally:
        cluster.stop()


def _by_name(tasks: dict[str, dict[str, Any]], name: str) -> list[tuple[str, dict[str, Any]]]:
    return [(tid, t) for tid, t in tasks.items() if t.get("name") == name]


def test_results_are_json_in_every_view(flower: Flower) -> None:
    # a directed item: one pass of scan -> crystallize -> update over a demo day
    proc = flower.subcon(
        "enqueue",
        "--partition",
        "memory-weaver",
        "--name",
        "flower-json.pending",
        "--wait",
        "please scan 20260103[00,23] again for evidence",
    )
    assert proc.returncode == 0, proc.stderr + flower.cluster.logs()

    wanted = "subcon.memory-weaver.update"

    def succeeded() -> list[tuple[str, dict[str, Any]]]:
        done = [(t, v) for t, v in _by_name(flower.tasks(), wanted) if v["state"] == "SUCCESS"]
        return done if done and all(v.get("result") for _, v in done) else []

    (task_id, listed), *_ = wait_until(succeeded, 60, "the update task in Flower")
    # /api/tasks: the result field is JSON text, not a Python repr
    from_list = json.loads(listed["result"])
    assert isinstance(from_list, dict)
    assert not listed["result"].startswith("{'")
    # /api/task/info/<id>: the same text
    info = flower.get(f"/api/task/info/{task_id}")
    assert info["result"] == listed["result"]
    # /api/task/result/<id>: served from the result backend (was 503), as a JSON object
    served = flower.get(f"/api/task/result/{task_id}")
    assert served["state"] == "SUCCESS"
    assert isinstance(served["result"], dict)
    # the event's text is the backend's result, whole or abbreviated by marked parts only
    if "…" not in listed["result"]:
        assert from_list == served["result"]
    else:
        assert set(from_list) == set(served["result"])
    # the task page's Result row shows the same JSON text (HTML-escaped)
    page = flower.get(f"/task/{task_id}", raw=True)
    row = re.search(r"<dt>Result</dt>\s*<dd><pre[^>]*><code>(.*?)</code>", page, re.S)
    assert row, page
    assert json.loads(html.unescape(row.group(1))) == from_list

    # every subcon task of the weave reads as JSON in the list
    results = {
        task["name"]: json.loads(task["result"])
        for task in flower.tasks(state="SUCCESS").values()
        if task.get("name", "").startswith("subcon.") and task.get("result")
    }
    assert {"subcon.memory-weaver.scan", "subcon.memory-weaver.crystallize", wanted} <= set(results)


def test_task_arguments_read_as_json_not_python_repr(flower: Flower) -> None:
    # The weave above sent scan, crystallize, update, settle and the commit it asked for.
    tasks = {
        tid: task
        for tid, task in flower.tasks().items()
        if task.get("name", "").startswith("subcon.")
    }
    names = {task["name"] for task in tasks.values()}
    assert {
        "subcon.memory-weaver.scan",
        "subcon.memory-weaver.crystallize",
        "subcon.memory-weaver.update",
        "subcon.memory-weaver.settle",
        "subcon.memory-committer.commit",
    } <= names, names
    for tid, task in tasks.items():
        args, kwargs = task.get("args"), task.get("kwargs")
        assert isinstance(args, str) and isinstance(kwargs, str), (tid, task)
        assert not args.startswith("(") and not kwargs.startswith("{'"), (tid, args, kwargs)
        assert isinstance(json.loads(args), list), (tid, args)
        assert isinstance(json.loads(kwargs), dict), (tid, kwargs)
        assert len(args) <= 1024 and len(kwargs) <= 1024
        # the same text on the task's info endpoint
        info = flower.get(f"/api/task/info/{tid}")
        assert (info["args"], info["kwargs"]) == (args, kwargs)
        # every message names its kernel, for an operator to filter by (issue #31)
        assert json.loads(kwargs).get("kernel") == "default", (tid, kwargs)
    # A scan's arguments name its plan's item and its slice's interval token; a chain
    # step gets its parent's result in front.
    (_, scan), *_ = _by_name(tasks, "subcon.memory-weaver.scan")
    plan, slice_, _run = json.loads(scan["args"])
    assert plan["directed_item"]["name"] == "flower-json.pending", plan
    assert slice_["token"] == "20260103[00,23]", slice_
    (_, update), *_ = _by_name(tasks, "subcon.memory-weaver.update")
    assert isinstance(json.loads(update["args"])[0], dict)


def _rendered(flower: Flower, path: str) -> str:
    """The page as a headless Chromium leaves it once its scripts ran (the task list is
    filled by a request its script makes)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (.ci/run installs it)")
    proc = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=10000",
            "--dump-dom",
            f"http://{AUTH[0]}:{AUTH[1]}@127.0.0.1:{flower.port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_task_list_page_shows_json_results(flower: Flower) -> None:
    tasks = flower.tasks(state="SUCCESS")
    assert tasks, "run after test_results_are_json_in_every_view"
    dom = _rendered(flower, "/tasks")
    header = re.findall(r'<th data-column="(\w+)"', dom.split("<tbody", 1)[0])
    assert "result" in header, header
    column = header.index("result")
    rows = re.findall(r'<tr id="([0-9a-f-]{36})"[^>]*>(.*?)</tr>', dom, re.S)
    assert rows, dom[-3000:]
    checked = 0
    for task_id, row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        text = html.unescape(re.sub(r"<[^>]+>", "", cells[column])).strip()
        if task_id in tasks and tasks[task_id].get("result"):
            assert json.loads(text) == json.loads(tasks[task_id]["result"]), (task_id, text)
            checked += 1
    assert checked >= 3


def test_long_scan_shows_progress_state(flower: Flower) -> None:
    scan = subprocess.Popen(
        [sys.executable, "-m", "workers", "scan", "--from", BIG_DAY, "--to", BIG_DAY],
        cwd=REPO,
        env=flower.cluster.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[dict[str, Any]] = []
    try:

        def progressing() -> bool:
            for tid, task in flower.tasks(state="PROGRESS").items():
                if task.get("name") == "subcon.memory-weaver.scan":
                    info = flower.get(f"/api/task/info/{tid}")
                    seen.append({"id": tid, "list": task, "info": info})
                    progress = json.loads(info["result"])
                    if 0 < progress["done"] < progress["total"]:
                        return True
            if scan.poll() is not None:
                raise AssertionError(f"scan ended before PROGRESS was seen: {seen}")
            return False

        wait_until(progressing, 120, "a scan in PROGRESS in Flower", poll=0.05)
    finally:
        out, err = scan.communicate(timeout=300)
    assert scan.returncode == 0, err
    last = seen[-1]
    progress = json.loads(last["info"]["result"])
    # done / total are the bytes of the slice read: here the whole day file
    assert progress["total"] == flower.paths.day_file(BIG_DAY).stat().st_size
    assert progress["percent"] == round(100 * progress["done"] / progress["total"], 1)
    assert last["info"]["state"] == "PROGRESS"
    # after the scan, Flower shows the same task as SUCCESS with its JSON result
    task_id = last["id"]

    def finished() -> dict[str, Any] | None:
        info = flower.get(f"/api/task/info/{task_id}")
        return info if info["state"] == "SUCCESS" else None

    info = wait_until(finished, 60, "the scan's SUCCESS in Flower")
    final = json.loads(info["result"])
    assert "percent" not in final and final != progress
    assert out.startswith(f"scan {BIG_DAY.replace('-', '')}")
    # Flower's pages ask without credentials: refused
    with pytest.raises(urllib.error.HTTPError) as err_info:
        urllib.request.urlopen(f"http://127.0.0.1:{flower.port}/api/tasks", timeout=5)
    assert err_info.value.code == 401
