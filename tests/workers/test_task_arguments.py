"""Task arguments as Flower shows them: JSON, short, escaped, no credentials (issue #32).

Celery's default ``argsrepr`` is ``saferepr(args)``, a Python tuple repr (``('…',)``)
with a whole weaver plan in it. Every subcon task is sent with readable JSON instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from celery import Celery, signals
from hypothesis import given
from hypothesis import strategies as st

from shared.settings import Settings
from workers import routing
from workers.app import make_app
from workers.canvas import weaver_canvas
from workers.monitoring import call_texts

KEY = "sk-ant-api03-" + "Zq7vB2xK9mN4pR8sT1wY5aC3eG6hJ0lD" * 2
PLAN = {
    "interval": "20260103[00,23]",
    "source": "operator",
    "slices": [{"date": "2026-01-03", "token": "20260103[00,23]", "bands": [[0, 23]]}],
    "board_text": "# Intuition\n\n- 当用户用中文提问时，先用中文给出结论 " + "x" * 5000,
    "notes": [f"note {i}" for i in range(50)],
}


def test_arguments_are_a_json_list_and_a_json_object() -> None:
    argsrepr, kwargsrepr = call_texts((PLAN, None, True), {"manual": True}, 1024)
    assert len(argsrepr) <= 1024
    shown = json.loads(argsrepr)
    assert isinstance(shown, list) and shown[1:] == [None, True]
    assert shown[0]["interval"] == "20260103[00,23]"
    assert json.loads(kwargsrepr) == {"manual": True}
    assert not argsrepr.startswith("(")
    # A long string is cut and marked; Chinese stays readable (not \\u-escaped).
    board = shown[0]["board_text"]
    assert board.endswith("…") and len(board) <= 120
    assert "当用户用中文提问时" in argsrepr
    # A long list is shortened and says how much is left out.
    assert shown[0]["notes"][-1] == "… 47 more"


def test_quotes_and_control_characters_are_escaped() -> None:
    argsrepr, _ = call_texts(['say "hi"\n<script>', "a\u0000b"], {}, 1024)
    assert json.loads(argsrepr) == ['say "hi"\n<script>', "a\u0000b"]
    assert "\n" not in argsrepr


def test_credentials_are_never_shown() -> None:
    argsrepr, kwargsrepr = call_texts(
        [f"export ANTHROPIC_API_KEY={KEY}", "x" * 100 + KEY],
        {"password": "hunter2hunter2", "auth_token": "abc", "note": "fine", "token": "2026"},
        1024,
    )
    assert KEY[:20] not in argsrepr
    assert "[redacted" in argsrepr
    # A credential the cut would split is dropped whole, not left as a prefix.
    assert not json.loads(argsrepr)[1].rstrip("…").endswith("sk")
    assert json.loads(kwargsrepr) == {
        "password": "[redacted]",
        "auth_token": "[redacted]",
        "note": "fine",
        "token": "2026",  # an interval token
    }


def test_huge_arguments_stay_within_the_limit() -> None:
    results = [{"turns": [{"id": i, "text": "证据" * 300} for i in range(200)]}] * 30
    argsrepr, _ = call_texts((results, PLAN, None), {}, 300)
    assert len(argsrepr) <= 300
    json.loads(argsrepr)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(), inner, max_size=8),
    max_leaves=60,
)


@given(st.lists(json_values, max_size=4), st.dictionaries(st.text(), json_values, max_size=4))
def test_always_json_within_the_limit(args: list[Any], kwargs: dict[str, Any]) -> None:
    argsrepr, kwargsrepr = call_texts(args, kwargs, 200)
    assert isinstance(json.loads(argsrepr), list | str) and len(argsrepr) <= 200
    assert isinstance(json.loads(kwargsrepr), dict | str) and len(kwargsrepr) <= 200


@pytest.fixture
def sent(settings: Settings) -> Iterator[tuple[Celery, list[dict[str, Any]]]]:
    """A non-eager app on the in-memory broker, and the headers of every message sent."""
    app = make_app(settings, eager=True)
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    seen: list[dict[str, Any]] = []

    def capture(headers: dict[str, Any] | None = None, **_: Any) -> None:
        seen.append(dict(headers or {}))

    signals.before_task_publish.connect(capture, weak=False, dispatch_uid="test-task-arguments")
    try:
        yield app, seen
    finally:
        signals.before_task_publish.disconnect(dispatch_uid="test-task-arguments")


def test_every_sent_message_carries_the_readable_form(
    sent: tuple[Celery, list[dict[str, Any]]],
) -> None:
    app, headers = sent
    app.tasks[routing.TICK].apply_async(kwargs={"manual": True})
    # A canvas (chain; its first step is sent here, the rest by the workers).
    weaver_canvas(app, {**PLAN, "slices": []}, (60.0, 90.0)).apply_async()
    assert [h["task"] for h in headers] == [routing.TICK, routing.CRYSTALLIZE]
    tick, crystallize = headers
    assert (tick["argsrepr"], json.loads(tick["kwargsrepr"])) == ("[]", {"manual": True})
    args = json.loads(crystallize["argsrepr"])
    assert args[0] == [] and args[1]["interval"] == "20260103[00,23]"
    # Every canvas message names its kernel (issue #31), for Flower to show and filter.
    assert json.loads(crystallize["kwargsrepr"]) == {"kernel": "default"}
    # An explicit argsrepr is kept.
    app.tasks[routing.TICK].apply_async(argsrepr="[hidden]")
    assert headers[-1]["argsrepr"] == "[hidden]"
