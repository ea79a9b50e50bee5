"""What the worker puts in a task event's ``result``: JSON text within Celery's limit."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from workers.monitoring import result_text

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(), inner, max_size=8),
    max_leaves=60,
)


def test_small_result_is_the_whole_json() -> None:
    value = {"text": "UPDATED: 记住用户偏好", "ok": True, "missing": None, "n": [1, 2]}
    text = result_text(value, 1024)
    assert json.loads(text) == value
    assert "'" not in text


def test_long_result_is_abbreviated_json_within_the_limit() -> None:
    value = {
        "status": "UPDATED:",
        "fragments": [{"line": i, "text": "证据" * 400} for i in range(300)],
    }
    text = result_text(value, 1024)
    assert len(text) <= 1024
    short = json.loads(text)
    assert short["status"] == "UPDATED:"
    assert short["fragments"][-1] == "… 297 more"
    assert short["fragments"][0]["text"].endswith("…")


def test_lone_surrogate_stays_json() -> None:
    assert json.loads(result_text({"t": "a\udc80b"}, 100)) == {"t": "a\udc80b"}


def test_no_limit_keeps_everything() -> None:
    value = {"x": "y" * 5000}
    assert json.loads(result_text(value)) == value


@given(json_values, st.integers(min_value=40, max_value=2000))
def test_always_json_and_within_the_limit(value: object, limit: int) -> None:
    text = result_text(value, limit)
    json.loads(text)
    assert len(text) <= limit


def test_a_value_json_cannot_carry_falls_back_to_celerys_repr() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "<opaque>"

    assert result_text(Opaque(), 100) == "<opaque>"
