"""The test's hands on the kernel host: one operation per run, JSON in, JSON out.

    python -m testing.hosts.client OP '{"arg": ...}'

Run inside the kernel host's namespaces (:meth:`testing.hosts.fleet.Fleet.client`),
with the kernel host's ``SUBCON_*`` environment, because the test process itself sits
in the machine's own network namespace and has no route to the hosts' addresses.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import redis

from shared.kernel.lock.redis_lock import kernel_id
from shared.settings import load_settings
from workers import routing
from workers.app import make_app


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")


def scan_metas(client: redis.Redis) -> dict[str, dict[str, Any]]:
    """Every stored scan task result: worker (``scan@<host>``), status, slice token."""
    out: dict[str, dict[str, Any]] = {}
    for key in client.scan_iter(match="celery-task-meta-*", count=500):
        raw = client.get(key)
        if raw is None:
            continue
        meta = json.loads(raw)
        if meta.get("name") != routing.SCAN:
            continue
        args = meta.get("args") or []
        piece = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
        result = meta.get("result") if isinstance(meta.get("result"), dict) else {}
        out[str(meta.get("task_id"))] = {
            "worker": meta.get("worker"),
            "status": meta.get("status"),
            "slice": f"{piece.get('token', '')}:{piece.get('byte_start', '')}:"
            f"{piece.get('role', '')}",
            "fragments": len(result.get("fragments") or []),
        }
    return out


def main(argv: list[str]) -> int:
    op, args = argv[0], json.loads(argv[1]) if len(argv) > 1 else {}
    settings = load_settings()
    url = settings.effective_redis_url
    assert url is not None, "SUBCON_BROKER_URL is not set"
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=30)
    answer: dict[str, Any]
    if op == "ping-redis":
        answer = {"ok": bool(client.ping())}
    elif op == "ping":
        app = make_app(settings)
        replies = app.control.ping(timeout=1.0) or []
        answer = {"workers": sorted(name for reply in replies for name in reply)}
    elif op in ("send", "weave"):
        from workers.canvas import dispatch_weaver

        app = make_app(settings)
        result = dispatch_weaver(app, interval=args.get("interval"), commit=args["commit"])
        answer = {"id": result.id}
        if op == "weave":
            answer["report"] = result.get(timeout=args.get("timeout", 150))
    elif op == "wait":
        app = make_app(settings)
        answer = {"report": app.AsyncResult(args["id"]).get(timeout=args.get("timeout", 150))}
    elif op == "scans":
        answer = {"scans": scan_metas(client)}
    elif op == "kernel-state":
        # The kernel lock's fencing counter, the queues' backlog, what workers run now.
        app = make_app(settings)
        fence = client.get(f"subcon:lock:{kernel_id(settings.kernel_dir)}:fence")
        active = app.control.inspect(timeout=1.0).active() or {}
        # Chord joins: Celery's Redis backend keeps a chord's parts in a list until the
        # last one arrives, then calls the body, deletes the list and leaves a "done"
        # marker that turns away late duplicates.
        joins = {
            key.decode(): int(client.llen(key))
            for key in client.scan_iter(match="celery-taskset-meta-*.j", count=500)
        }
        markers = {
            key.decode(): _text(client.get(key))
            for key in client.scan_iter(match="celery-taskset-meta-*.c", count=500)
        }
        answer = {
            "fence": int(fence or 0),
            "open_joins": joins,
            "join_markers": markers,
            "queued": {q: client.llen(q) for q in ("scan", "kernel", "commit")},
            "active": {w: [t["name"] for t in tasks] for w, tasks in active.items()},
        }
    else:
        raise SystemExit(f"unknown op {op!r}")
    print(json.dumps(answer, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
