"""Is the broker there? Asked once, briefly, before a command sends work to a cluster.

Without it a command with ``SUBCON_BROKER_URL`` set and Redis down hangs in Celery's
reconnect loop for about 20 s and ends in a traceback. One ``PING`` with a 3-second
timeout answers first, and the failure names the broker (password masked) and the cause
in one line.
"""

from __future__ import annotations

import redis
from celery import Celery

from shared.errors import BrokerUnreachable
from shared.kernel.keys import shown_url

TIMEOUT_S = 3.0


def broker_problem(url: str | None) -> str | None:
    """Why the Redis broker at ``url`` does not answer (None: it does, or none is set)."""
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S
        )
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as exc:
        return f"cannot reach the broker at {shown_url(url)}: {exc}"
    return None


def require_broker(app: Celery) -> None:
    """Raise :class:`BrokerUnreachable` when ``app`` sends to a Redis broker that does
    not answer (an eager app, or another transport, is not asked).

    Raises:
        BrokerUnreachable: the broker did not answer a ping within 3 s.
    """
    if app.conf.task_always_eager:
        return
    problem = broker_problem(str(app.conf.broker_url or ""))
    if problem is not None:
        raise BrokerUnreachable(problem)
