"""The JSON codec of Celery messages and results, encoded and decoded with orjson.

A scan result carries a slice's turns and judgements: hundreds of KB of text each.
kombu's own JSON codec calls a Python hook on every decoded object and encodes with
the pure-Python ``json`` encoder, which made moving those results through Redis cost
more than scanning them. This codec writes the same JSON (content type
``application/json``, kombu's ``{"__type__", "__value__"}`` envelopes for the dates,
decimals and bytes kombu knows), so Flower, ``celery inspect`` and stock kombu still
read every message; it stays JSON: nothing here can carry code.
"""

from __future__ import annotations

from typing import Any

import orjson
from kombu.serialization import registry
from kombu.utils import json as kombu_json

from shared.gcpause import collector_paused

# orjson writes datetimes itself; passing them through keeps kombu's envelopes.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_ENVELOPE = '"__type__"'
_ENVELOPE_BYTES = _ENVELOPE.encode()
_kombu_encoder = kombu_json.JSONEncoder()


def _default(value: Any) -> Any:
    return _kombu_encoder.default(value)


def dumps(value: Any) -> str:
    """``value`` as JSON text; kombu's encoder for what orjson refuses (integers past
    64 bits, types neither knows). Unlike ``json``, a NaN float is written as null."""
    try:
        return orjson.dumps(value, default=_default, option=_OPTIONS).decode("utf-8")
    except TypeError:
        return str(kombu_json.dumps(value))


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    """Decode JSON text; kombu's decoder when the text holds a typed envelope or
    something orjson rejects (``NaN``), so every message kombu reads decodes the same."""
    with collector_paused():
        return _loads(data)


def _loads(data: str | bytes | bytearray | memoryview) -> Any:
    raw = bytes(data) if isinstance(data, bytearray | memoryview) else data
    enveloped = _ENVELOPE in raw if isinstance(raw, str) else _ENVELOPE_BYTES in raw
    if not enveloped:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return kombu_json.loads(raw)


def install() -> None:
    """Make this codec the ``json`` serializer of every kombu producer and consumer in
    the process (the app's task, result and event serializers are all ``json``)."""
    registry.register(
        "json", dumps, loads, content_type="application/json", content_encoding="utf-8"
    )
