"""The orjson codec writes and reads what kombu's JSON codec writes and reads."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import orjson
import pytest
from kombu.utils import json as kombu_json

from workers import serialization

PLAIN: list[Any] = [
    {"turns": [{"id": "evt_1", "text": "以后先给结论", "rows": []}], "n": 3, "ok": True},
    ["a", 1, 2.5, None, {"nested": {"k": [1, 2, 3]}}],
    {"emoji": "🙂", "nul": "a\u0000b", "quote": 'say "hi"\n'},
    {1: "int key"},
]


@pytest.mark.parametrize("value", PLAIN)
def test_plain_values_match_kombu_both_ways(value: Any) -> None:
    ours = serialization.dumps(value)
    assert kombu_json.loads(ours) == kombu_json.loads(kombu_json.dumps(value))
    assert serialization.loads(kombu_json.dumps(value)) == kombu_json.loads(ours)
    assert serialization.loads(ours.encode()) == serialization.loads(memoryview(ours.encode()))


def test_typed_values_keep_kombus_envelopes() -> None:
    value = {
        "when": dt.datetime(2026, 11, 29, 16, 41, tzinfo=dt.UTC),
        "day": dt.date(2026, 11, 29),
        "amount": Decimal("1.10"),
        "raw": b"\xff\x00",
    }
    ours = serialization.dumps(value)
    assert '"__type__"' in ours
    # kombu decodes what we wrote back into the same Python values, and vice versa.
    assert kombu_json.loads(ours) == value
    assert serialization.loads(kombu_json.dumps(value)) == value
    assert serialization.loads(ours) == value


def test_what_orjson_refuses_falls_back_to_kombu() -> None:
    huge = {"big": 2**80}
    assert serialization.loads(serialization.dumps(huge)) == huge
    # json writes NaN; kombu reads it; so must we.
    assert serialization.loads('{"x": NaN}')["x"] != serialization.loads('{"x": NaN}')["x"]


def test_installed_codec_serves_the_json_name() -> None:
    from kombu.serialization import dumps, loads

    serialization.install()
    content_type, encoding, body = dumps({"a": "结论"}, serializer="json")
    assert (content_type, encoding) == ("application/json", "utf-8")
    assert body == orjson.dumps({"a": "结论"}).decode()
    assert loads(body, content_type, encoding) == {"a": "结论"}


def test_garbage_is_still_a_decode_error() -> None:
    with pytest.raises(ValueError):
        serialization.loads("{not json")


def test_decoding_leaves_the_collector_as_it_found_it() -> None:
    import gc

    assert gc.isenabled()
    serialization.loads('{"a": [1, 2, 3]}')
    assert gc.isenabled()
    gc.disable()
    try:
        serialization.loads('{"a": [1, 2, 3]}')
        assert not gc.isenabled()
        with pytest.raises(ValueError):
            serialization.loads("{broken")
        assert not gc.isenabled()
    finally:
        gc.enable()
