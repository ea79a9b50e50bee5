"""What Flower shows of a task: its arguments and result as JSON text, a scan's progress
as a state.

Flower's task list, task page, ``/api/tasks`` and ``/api/task/info`` are built from the
workers' events, not from the result backend. Celery puts ``saferepr(retval)`` into the
``task-succeeded`` event: a Python repr (``{'text': 'UPDATED: …', 'ok': True}``), cut at
``Task.resultrepr_maxsize`` characters. The worker renders that text with
:func:`result_text` instead: JSON, and, when the JSON is longer than the limit, an
abbreviated JSON value (long strings and lists shortened, marked with ``…``), never JSON
cut in the middle. The full result stays in the result backend
(``/api/task/result/<id>``).

A ``PROGRESS`` state written with ``update_state`` reaches only the result backend, which
Flower's pages never read; :func:`send_progress` also sends it as a ``task-progress``
event, which Flower's event state turns into the custom state ``PROGRESS`` with the
progress as the task's ``result`` until the ``task-succeeded`` event replaces it.

A task's arguments reach Flower as the message's ``argsrepr`` / ``kwargsrepr`` headers
(also the ``task-sent`` and ``task-received`` events), by default ``saferepr(args)``: a
Python tuple repr with a whole weaver plan in it. Every subcon task is sent with
:func:`call_texts` instead (see ``SubconTask.apply_async``): compact JSON, each string
at most :data:`_STRING_KEEP` characters with credentials masked, long lists and deep
values abbreviated, within Celery's limit. The message itself keeps the full arguments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from celery.utils.saferepr import saferepr

from workers import serialization

# Characters kept of a long string, items kept of a long list, in an abbreviated result.
_STRING_KEEP = 120
_ITEMS_KEEP = 3
_DEPTHS = (4, 3, 2, 1, 0)
PROGRESS_EVENT = "task-progress"


def _abbreviate(value: Any, depth: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= _STRING_KEEP else value[:_STRING_KEEP] + "…"
    if isinstance(value, list | tuple):
        if depth <= 0:
            return f"… {len(value)} items"
        head: list[Any] = [_abbreviate(item, depth - 1) for item in value[:_ITEMS_KEEP]]
        if len(value) > _ITEMS_KEEP:
            head.append(f"… {len(value) - _ITEMS_KEEP} more")
        return head
    if isinstance(value, dict):
        if depth <= 0:
            return f"… {len(value)} keys"
        return {str(key): _abbreviate(item, depth - 1) for key, item in value.items()}
    return value


def result_text(value: Any, maxlen: int | None = None, *_: Any, **__: Any) -> str:
    """``value`` as compact JSON of at most ``maxlen`` characters (abbreviated when the
    whole is longer). Same call shape as Celery's ``saferepr``, which it stands in for;
    a value that is not JSON (only JSON results exist here) falls back to it."""
    try:
        text = serialization.dumps(value)
    except (TypeError, ValueError):
        return str(saferepr(value, maxlen))
    if maxlen is None or len(text) <= maxlen:
        return text
    for depth in _DEPTHS:
        short = serialization.dumps(_abbreviate(value, depth))
        if len(short) <= maxlen:
            return short
    return serialization.dumps(f"… {len(text)} characters of JSON")


# A value under a key named like one of these is never shown (a bare ``token`` is an
# interval token here, not a credential).
_SECRET_KEY = re.compile(
    r"pass(word|wd|phrase)?|secret|api[_-]?key|private[_-]?key|credential|cookie"
    r"|authori[sz]ation|(access|auth|refresh|bearer|session|id|api)[_-]?token",
    re.I,
)
# Characters of a long string searched for credentials before it is cut for display.
_SCAN_KEEP = 4096
# Characters of a credential-like token: a cut inside a run of them drops the run whole,
# so no partial credential is left at the end of a shortened string.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=.~:-")


def _cut(text: str, keep: int) -> str:
    """The first ``keep`` characters of ``text`` less a token run the cut splits."""
    end = keep
    if end < len(text) and text[end] in _TOKEN_CHARS:
        while end > 0 and text[end - 1] in _TOKEN_CHARS:
            end -= 1
    return text[:end]


def _masked(text: str) -> str:
    """``text`` with credentials replaced, cut to at most ``_STRING_KEEP`` characters
    (``…`` marks a cut)."""
    from shared.importing.redaction import redact

    long = len(text) > _SCAN_KEEP
    text = redact(_cut(text, _SCAN_KEEP) if long else text).text
    if not long and len(text) <= _STRING_KEEP:
        return text
    return _cut(text, _STRING_KEEP - 1) + "…"


def _brief(value: Any, depth: int) -> Any:
    """``value`` for display: strings masked and cut, lists and mappings shortened."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _masked(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"… {len(value)} bytes"
    if isinstance(value, Mapping):
        if depth <= 0 and value:
            return f"… {len(value)} keys"
        return {
            str(key): "[redacted]"
            if _SECRET_KEY.search(str(key)) and item not in (None, "")
            else _brief(item, depth - 1)
            for key, item in value.items()
        }
    if isinstance(value, Sequence | set | frozenset):
        items = list(value)
        if depth <= 0 and items:
            return f"… {len(items)} items"
        head: list[Any] = [_brief(item, depth - 1) for item in items[:_ITEMS_KEEP]]
        if len(items) > _ITEMS_KEEP:
            head.append(f"… {len(items) - _ITEMS_KEEP} more")
        return head
    return _masked(str(value))


def _shown(value: Any, maxlen: int, what: str) -> str:
    for depth in _DEPTHS:
        short = serialization.dumps(_brief(value, depth))
        if len(short) <= maxlen:
            return short
    return serialization.dumps(f"… {what}")


def call_texts(args: Any, kwargs: Any, maxlen: int) -> tuple[str, str]:
    """(argsrepr, kwargsrepr): a task's positional arguments as a JSON list and its
    keyword arguments as a JSON object, each at most ``maxlen`` characters, readable
    and safe to show (credentials masked, long values shortened and marked ``…``)."""
    positional = list(args or ())
    named = dict(kwargs or {})
    return (
        _shown(positional, maxlen, f"{len(positional)} arguments"),
        _shown(named, maxlen, f"{len(named)} keyword arguments"),
    )


def install() -> None:
    """Make the worker render return values in logs and events with :func:`result_text`.

    Celery has no setting for this: the tracer (pool child) and the request (worker
    process, for a task that succeeded before its child was lost) each call the
    ``saferepr`` they imported, on return values only, so those two names are replaced.
    Idempotent.
    """
    from celery.app import trace
    from celery.worker import request

    trace.saferepr = result_text
    request.saferepr = result_text


def send_progress(token: str, done: int, total: int) -> None:
    """Send the running task's progress as a ``task-progress`` event (a listener of
    :mod:`workers.progress`; no-op outside a worker's task or in an eager one)."""
    from celery import current_task

    task = current_task
    request = getattr(task, "request", None)
    if task is None or request is None or request.id is None:
        return
    if request.is_eager or request.called_directly:
        return
    if done >= total:
        # The task-succeeded event that follows says it; a last progress event overtaking
        # it on the way to Flower would overwrite the result shown with the progress.
        return
    # done / total: the scan's unit, bytes of the slice read (see shared.weaver.scan.reading)
    percent = round(100 * done / total, 1) if total else 100.0
    info: dict[str, Any] = {"done": done, "total": total, "percent": percent, "slice": token}
    # retry=False: a progress event is never worth stalling a scan on a slow broker.
    task.send_event(
        PROGRESS_EVENT, retry=False, result=result_text(info, task.resultrepr_maxsize), **info
    )
