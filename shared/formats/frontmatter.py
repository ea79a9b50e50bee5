"""Front matter as the original runtime reads it: gray-matter + js-yaml 3 ``safeLoad``.

gray-matter only recognises front matter when the text starts with ``---`` (and the
fourth character is not another ``-``); the block ends at the first ``\\n---`` after
that, and the body starts after it (one ``\\r`` and one ``\\n`` dropped). The YAML
loader below resolves plain scalars like js-yaml 3: only ``true/True/TRUE/false/
False/FALSE`` are booleans (``yes/no/on/off`` stay strings), timestamps stay strings
(js-yaml would build a Date; a string is what every reader here compares against and
it never crashes on ``2026-02-30``), ``1e3`` is a float, duplicate keys are an
error as in js-yaml, and a tab in indentation is read as js-yaml reads it. A
``---json`` opener selects gray-matter's json engine (``JSON.parse``).

Parsing is pure; :class:`FrontMatter` keeps the original text so rendering round-trips
a file byte for byte (YAML is never re-dumped).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from shared.errors import InputError

_BOM = "\ufeff"
_OPEN = "---"
_CLOSE = "\n---"

# JavaScript's String.prototype.trim: WhiteSpace + LineTerminator (incl. BOM and
# U+3000), not the ASCII separators U+001C..U+001F that Python's str.strip also eats.
_JS_WS = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """``String.prototype.trim()``."""
    return text.strip(_JS_WS)


def js_trim_end(text: str) -> str:
    """``String.prototype.trimEnd()``."""
    return text.rstrip(_JS_WS)


def _js_string_key(key: Any, mark: Any) -> Any:
    """A key PyYAML cannot hash, as js-yaml 3 stores it: ``String(key)`` (a flat
    sequence joins its items with commas, a mapping is ``[object Object]``)."""
    if isinstance(key, dict):
        return "[object Object]"
    if not isinstance(key, list):
        return key
    parts: list[str] = []
    for item in key:
        if isinstance(item, list):
            raise yaml.constructor.ConstructorError(
                None, None, "nested arrays are not supported inside keys", mark
            )
        if item is None:
            parts.append("")
        elif isinstance(item, bool):
            parts.append("true" if item else "false")
        elif isinstance(item, dict):
            parts.append("[object Object]")
        else:
            parts.append(str(item))
    return ",".join(parts)


class _JsYamlLoader(yaml.SafeLoader):
    """SafeLoader whose implicit scalar types follow js-yaml 3's default safe schema."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = _js_string_key(self.construct_object(key_node, deep=True), key_node.start_mark)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:
                continue
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    f"duplicated mapping key {key!r}",
                    key_node.start_mark,
                )
        self.flatten_mapping(node)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _js_string_key(self.construct_object(key_node, deep=True), key_node.start_mark)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    "found unhashable key",
                    key_node.start_mark,
                ) from None
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_js_bool(self, node: yaml.ScalarNode) -> bool:
        # js-yaml 3 resolves only these six, also under an explicit !!bool tag.
        value = self.construct_scalar(node)
        if value in ("true", "True", "TRUE"):
            return True
        if value in ("false", "False", "FALSE"):
            return False
        raise yaml.constructor.ConstructorError(
            None,
            None,
            f"cannot resolve !!bool {value!r} (js-yaml 3 takes true/false)",
            node.start_mark,
        )


_BOOL_TAG = "tag:yaml.org,2002:bool"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"

_JsYamlLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in {_BOOL_TAG, _FLOAT_TAG, _TIMESTAMP_TAG}
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_JsYamlLoader.add_constructor(_BOOL_TAG, _JsYamlLoader.construct_js_bool)
_JsYamlLoader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# js-yaml 3's float: the exponent-only form (1e3) is a float, unlike PyYAML's.
_JsYamlLoader.add_implicit_resolver(
    _FLOAT_TAG,
    re.compile(
        r"^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
        r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
        r"|[-+]?\.(?:inf|Inf|INF)"
        r"|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_json(text: str, path: Path | str | None = None) -> Any:
    """Parse a ``---json`` block like gray-matter's json engine (``JSON.parse``).

    Raises:
        InputError: the block is not JSON (message names the file line).
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        # The block starts with the rest of the opening ---json line: block line 1 is
        # file line 1.
        raise InputError(path, exc.lineno, f"front matter JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(path, None, f"front matter JSON: {exc}") from None


# A line's leading run of spaces and tabs when it holds a tab.
_TAB_INDENT = re.compile(r"^( *)[ \t]*\t[ \t]*", re.MULTILINE)


def _js_yaml_indents(text: str) -> str:
    """Leading whitespace as js-yaml 3 measures it: only the spaces before the first
    tab count as indentation, the rest of the run is skipped as separation."""
    return _TAB_INDENT.sub(lambda m: m.group(1), text)


def load_yaml(text: str, path: Path | str | None = None) -> Any:
    """Parse one YAML document like js-yaml 3 ``safeLoad``.

    A tab in a line's indentation, which PyYAML refuses, is read as js-yaml reads it
    (``schedule:\\n\\tcooldown_ticks: 4`` gives two top-level keys).

    Raises:
        InputError: the YAML does not parse (message names the line).
    """
    try:
        try:
            return yaml.load(text, Loader=_JsYamlLoader)  # a SafeLoader subclass
        except yaml.YAMLError:
            if not _TAB_INDENT.search(text):
                raise
            retry = _js_yaml_indents(text)
        try:
            return yaml.load(retry, Loader=_JsYamlLoader)
        except yaml.YAMLError:
            return yaml.load(text, Loader=_JsYamlLoader)  # report the original error
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        # The raw block starts on the opening --- line, so block line 0 is file line 1.
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(path, line, f"front matter YAML: {problem}") from exc
    except (ValueError, OverflowError, RecursionError) as exc:
        raise InputError(path, None, f"front matter YAML: {exc}") from exc


# Plain scalars no YAML reader resolves to anything but this string: a letter or
# underscore first, then word characters, dots, slashes and dashes.
_SAFE_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*", re.ASCII)
# ...except the YAML 1.1 booleans and null among them.
_RESERVED_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})


# YAML 1.2 core numbers that neither loader below resolves (``0o17``).
_YAML12_NUMBER = re.compile(r"[-+]?(?:0o[0-7]+|0x[0-9a-fA-F]+|[0-9]+)", re.ASCII)


@functools.lru_cache(maxsize=4096)
def _reads_back(value: str) -> bool:
    if _YAML12_NUMBER.fullmatch(value):
        return False
    line = f"k: {value}\n"
    for loader in (_JsYamlLoader, yaml.SafeLoader):
        try:
            if yaml.load(line, Loader=loader) != {"k": value}:
                return False
        except (yaml.YAMLError, ValueError, OverflowError, RecursionError):
            return False
    return True


def yaml_plain_ok(value: str) -> bool:
    """True when ``key: <value>`` reads back as the string ``value`` both in js-yaml 3
    (the original's reader) and in a YAML 1.1 reader: an all-digit line hash
    (``326734373252``), ``true``, ``yes``, ``null``, ``1e3``, ``0x1A`` or an ISO
    timestamp would be read as a number, boolean, null or date."""
    if not value or value != value.strip() or "\n" in value or "\r" in value:
        return False
    if _SAFE_PLAIN.fullmatch(value):
        return value.lower() not in _RESERVED_WORDS
    return _reads_back(value)


def yaml_value(value: str) -> str:
    """``value`` for a one-line ``key: value`` front matter entry: plain when it reads
    back as the same string (:func:`yaml_plain_ok`), else double-quoted (a JSON string
    is a YAML double-quoted scalar)."""
    return value if yaml_plain_ok(value) else json.dumps(value, ensure_ascii=False)


def read_flat_value(raw: str) -> str:
    """The string of a one-line front matter value written by :func:`yaml_value` (or
    by hand, single-quoted); anything else is taken as written."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            decoded = json.loads(value)
        except ValueError:
            return value
        return decoded if isinstance(decoded, str) else value
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def _js_key(key: Any) -> str:
    """Object keys are strings in JS: ``true`` stays ``"true"``, ``~`` becomes ``"null"``."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


@dataclass(frozen=True)
class FrontMatter:
    """A Markdown file split into front matter and body.

    ``head`` is the exact text before the body (BOM, delimiters and raw YAML), so
    ``head + body`` is the original file. ``data`` is None when the file has no front
    matter, else the parsed YAML mapping (a non-mapping document reads as ``{}``, as
    property access on it yields nothing in the original). ``matter`` is the raw YAML.
    """

    head: str
    matter: str
    data: dict[str, Any] | None
    body: str

    @property
    def prompt_content(self) -> str:
        """The original's ``promptContent``: the body, trimmed."""
        return js_trim(self.body)

    def render(self) -> str:
        """The file text; byte-identical to the parsed text when nothing changed."""
        return self.head + self.body

    def with_body(self, body: str) -> FrontMatter:
        """The same front matter with another body."""
        return replace(self, body=body)


def parse_front_matter(text: str, path: Path | str | None = None) -> FrontMatter:
    """Split ``text`` like gray-matter and parse the YAML block like js-yaml 3.

    Raises:
        InputError: the YAML block does not parse, or names an unknown language.
    """
    bom = _BOM if text.startswith(_BOM) else ""
    rest = text[len(bom) :]
    if not rest.startswith(_OPEN) or rest[len(_OPEN) : len(_OPEN) + 1] == "-":
        return FrontMatter(head=bom, matter="", data=None, body=rest)
    after_open = rest[len(_OPEN) :]
    first_line = after_open.split("\n", 1)[0]
    language = js_trim(first_line)
    # gray-matter's engines: yaml (any case) and json (exactly); its javascript
    # engine evaluates the block, which subcon never does.
    is_json = language == "json"
    if language and language.lower() not in {"yaml", "yml"} and not is_json:
        raise InputError(path, 1, f"front matter language {language!r} is not supported")
    if language:
        after_open = after_open[len(first_line) :]
    close = after_open.find(_CLOSE)
    if close == -1:
        matter, body = after_open, ""
    else:
        matter = after_open[:close]
        body = after_open[close + len(_CLOSE) :]
        if body.startswith("\r"):
            body = body[1:]
        if body.startswith("\n"):
            body = body[1:]
    head = text[: len(text) - len(body)] if body else text
    block = js_trim(re.sub(r"^\s*#[^\n]+", "", matter, flags=re.MULTILINE))
    if not block:
        return FrontMatter(head=head, matter=matter, data={}, body=body)
    loaded = load_json(matter, path) if is_json else load_yaml(matter, path)
    data = {_js_key(k): v for k, v in loaded.items()} if isinstance(loaded, dict) else {}
    return FrontMatter(head=head, matter=matter, data=data, body=body)


def split_front_matter(
    text: str, path: Path | str | None = None
) -> tuple[dict[str, Any] | None, str]:
    """``(data, body)`` of a Markdown file; ``data`` is None without front matter.

    Raises:
        InputError: the YAML block does not parse.
    """
    parsed = parse_front_matter(text, path)
    return parsed.data, parsed.body
