"""Codex CLI session rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl``).

Codex appends one JSON object per line. Two shapes exist, and this reader takes both:

* **Wrapped** (Codex ≥ ~0.3x, Sept 2025 on): every line is a ``RolloutLine``,
  ``{"timestamp", "type", "payload"}`` with ``type`` one of ``session_meta``,
  ``response_item``, ``event_msg``, ``turn_context``, ``compacted``
  (``codex-rs/protocol/src/protocol.rs``: ``RolloutLine``, ``RolloutItem``).
* **Legacy** (Codex before the wrapper, ``codex-rs/core/src/rollout.rs``): line 1 is the
  bare ``SessionMeta`` (``{"id", "timestamp"}``, later also ``instructions`` and ``git``),
  later lines are bare ``ResponseItem`` objects, plus ``{"record_type": "state"}`` lines.

What becomes an utterance, and why (the rules ``tests/importing/test_codex.py`` asserts):

* **User text.** A wrapped rollout records each typed message twice: as a ``user``-role
  ``response_item`` message (what the model saw) and as an ``event_msg`` ``user_message``.
  The event is the source, because Codex builds it only from real user input: its
  ``event_mapping.rs`` drops "contextual" user messages (``<environment_context>``,
  ``<user_instructions>``, ``# AGENTS.md instructions for …``, ``<skill>``,
  ``<user_shell_command>``, ``<turn_aborted>``) before emitting the event, while the
  ``user``-role response items include all of those. Events of the Oct 2025 era carry a
  ``kind``; only ``plain`` (or none) is user text. Legacy files have no events, so there
  the user-role response items are read, dropping blocks with those injected prefixes.
  ``developer``/``system`` messages, ``session_meta.instructions``, ``turn_context`` and
  ``compacted`` summaries are never user text.
* **User actions.** ``event_msg`` ``turn_aborted`` with reason ``interrupted`` (Esc /
  Ctrl-C) is "interrupted the agent"; ``replaced`` and ``review_ended`` are Codex's own
  doing and are dropped. A denied approval is recorded only as the tool output Codex sends
  the model (``tools/events.rs``: ``exec command rejected by user``, also ``patch …``):
  such an output becomes "rejected the agent's <tool> call" instead of a tool result
  (Codex records no words with a denial). A ``<user_shell_command>`` (the user's ``!cmd``)
  becomes "ran a shell command: <cmd>".
* **Agent text** comes from ``assistant`` response items, not ``event_msg``
  ``agent_message``: the response item exists in both shapes and is what the model said.
* **Tools.** ``function_call``, ``custom_tool_call``, ``local_shell_call`` and
  ``web_search_call`` are tool uses; ``function_call_output`` and
  ``custom_tool_call_output`` are results, named through the call id (kept in
  ``state.extra``, the last 256 ids, so a later run still names them). Outputs that are the
  structured exec JSON (``{"output", "metadata": {"exit_code"}}``) are unwrapped; the
  freeform form starts ``Exit code: N``; either gives ``is_error``. Reasoning is dropped;
  images become ``[image]``. ``tool_search_call`` (mid 2026: Codex looking up which tools
  it may call) is a ``tool_search`` use with its query, and ``tool_search_output`` its
  result, the names of the tools found.

Ids: Codex records have none, so ``record_id`` is ``l<line>`` (``l<line>#<n>`` when a line
yields several); lines never move in an append-only file. The session id is the first
``session_meta`` id (a forked rollout repeats its parent's meta later on), else the uuid
at the end of the file name. Unknown line, item and event types are reported once per
file (newer Codex versions add them often) and the read goes on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from shared.importing.records import Problem, ReadState, Role, Utterance
from shared.kernel.files import utf8_position

JSON = dict[str, Any]

# A line longer than this is skipped with a problem instead of being held in memory
# (Codex has written multi-GB single lines: ghost snapshots listing node_modules).
_MAX_LINE_BYTES = 64 * 1024 * 1024
_SKIP_CHUNK = 1024 * 1024
_TOOL_NAMES_KEPT = 256
_SUMMARY_CHARS = 1000
_TOOL_KEY = "tool:"
_UNKNOWN_KEY = "unknown:"
_OPEN_LINE_KEY = "open_line"

_LINE_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_TOOL_CALLS = frozenset(
    {"function_call", "custom_tool_call", "local_shell_call", "web_search_call"}
)
_TOOL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
# Response items that say nothing the memory keeps: hidden reasoning, undo snapshots,
# encrypted compaction state, and serde's catch-all.
_QUIET_ITEMS = frozenset({"reasoning", "ghost_snapshot", "compaction", "compaction_summary"})
# Events that duplicate response items (agent_message, exec_command_end, …) or carry no
# conversation (token counts, task and review lifecycle, UI streaming).
_QUIET_EVENTS = frozenset(
    {
        "agent_message",
        "agent_message_delta",
        "agent_message_content_delta",
        "agent_reasoning",
        "agent_reasoning_delta",
        "agent_reasoning_raw_content",
        "agent_reasoning_raw_content_delta",
        "agent_reasoning_section_break",
        "reasoning_content_delta",
        "reasoning_raw_content_delta",
        "token_count",
        "task_started",
        "task_complete",
        "context_compacted",
        "entered_review_mode",
        "exited_review_mode",
        "undo_started",
        "undo_completed",
        "thread_rolled_back",
        "error",
        "warning",
        "stream_error",
        "background_event",
        "exec_command_begin",
        "exec_command_output_delta",
        "exec_command_end",
        "terminal_interaction",
        "exec_approval_request",
        "apply_patch_approval_request",
        "elicitation_request",
        "patch_apply_begin",
        "patch_apply_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
        "web_search_begin",
        "web_search_end",
        "view_image_tool_call",
        "turn_diff",
        "plan_update",
        "item_started",
        "item_completed",
        "raw_response_item",
        "session_configured",
        "shutdown_complete",
        "deprecation_notice",
    }
)
# Codex's contextual user fragments (core/src/event_mapping.rs, context/*.rs): injected
# into user-role messages, never typed by the user.
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# agents.md instructions for",
    "<skill>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
)
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell", "cmd"})
_UUID_AT_END = re.compile(
    r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$", re.I
)
_PATCH_FILE = re.compile(
    r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.M
)
_EXIT_CODE_LINE = re.compile(r"\AExit code: (-?\d+)")
_REJECTED = re.compile(r"\A(?:[a-z_ ]+ )?rejected by user\.?\Z", re.I)
_SHELL_COMMAND = re.compile(r"<command>\s*(.*?)\s*</command>", re.S)


@dataclass(frozen=True)
class _Draft:
    """An utterance before its session id and record id are known."""

    role: Role
    text: str
    tool_name: str | None = None
    tool_use_id: str | None = None
    is_error: bool = False


@dataclass(frozen=True)
class _RawLine:
    """One physical line: its bytes (without an over-long body) and whether it ended."""

    data: bytes
    size: int
    complete: bool
    too_long: bool


class _Issue(Exception):
    """A record that cannot be read; its message is the problem's reason (and its
    column, when known)."""

    def __init__(self, reason: str, column: int | None = None) -> None:
        super().__init__(reason)
        self.column = column


class CodexReader:
    """Reads Codex rollouts incrementally (see the module docstring)."""

    name = "codex"
    # Append-only: bytes before the watermark never change.
    incremental = True

    def matches(self, path: Path) -> bool:
        """True for ``rollout-*.jsonl``, the only name Codex gives a session file."""
        return fnmatch(path.name, "rollout-*.jsonl")

    def read(
        self, handle: BinaryIO, path: str, state: ReadState, *, final: bool
    ) -> Iterator[Utterance | Problem]:
        """Yield utterances and problems after ``state``, advancing it line by line."""
        handle.seek(state.offset)
        while True:
            raw = _next_line(handle)
            if raw is None:
                return
            number = state.line + 1
            if _continues_open_line(raw, state):
                # The rest of a line taken without its newline on a final read.
                state.offset += raw.size
                continue
            if not raw.complete and not final:
                return  # still being written: the next run takes it whole
            outcome = _read_record(raw, path, number, state)
            if not raw.complete:
                if isinstance(outcome, Problem):
                    yield Problem(path, number, f"incomplete last line: {outcome.reason}")
                    return
                state.extra[_OPEN_LINE_KEY] = "1"
            if isinstance(outcome, Problem):
                yield outcome
            else:
                yield from _emit(outcome, path, number, state)
            state.offset += raw.size
            state.line = number


READER = CodexReader()


def _next_line(handle: BinaryIO) -> _RawLine | None:
    """The next physical line, or None at end of file; an over-long one is skipped."""
    data = handle.readline(_MAX_LINE_BYTES)
    if not data:
        return None
    if data.endswith(b"\n") or len(data) < _MAX_LINE_BYTES:
        return _RawLine(data, len(data), data.endswith(b"\n"), too_long=False)
    size = len(data)
    while True:
        more = handle.readline(_SKIP_CHUNK)
        size += len(more)
        if not more or more.endswith(b"\n"):
            return _RawLine(b"", size, bool(more), too_long=True)


def _continues_open_line(raw: _RawLine, state: ReadState) -> bool:
    """True when ``raw`` is only the newline that closes the line taken last run."""
    if state.extra.pop(_OPEN_LINE_KEY, None) is None:
        return False
    return raw.data.strip(b"\r\n") == b""


def _read_record(
    raw: _RawLine, path: str, number: int, state: ReadState
) -> tuple[list[_Draft], str | None] | Problem:
    """The drafts and timestamp of one line, or the problem it has."""
    if raw.too_long:
        return Problem(path, number, f"line longer than {_MAX_LINE_BYTES} bytes, skipped")
    if not raw.data.strip():
        return [], None  # Codex never writes blank lines; nothing to say about one
    try:
        record = _decode(raw.data)
        return _dispatch(record, path, number, state)
    except _Issue as issue:
        return Problem(path, number, str(issue), issue.column)


def _emit(
    outcome: tuple[list[_Draft], str | None], path: str, number: int, state: ReadState
) -> Iterator[Utterance]:
    """Turn one line's drafts into utterances with session and record ids."""
    drafts, ts = outcome
    if not drafts:
        return
    if state.session_id is None:
        # Pinned on first use so a later session_meta (a fork's parent) cannot change it.
        state.session_id = _session_from_name(path)
    for index, draft in enumerate(drafts, start=1):
        record_id = f"l{number}" if len(drafts) == 1 else f"l{number}#{index}"
        state.emitted += 1
        yield Utterance(
            role=draft.role,
            text=draft.text,
            session_id=state.session_id,
            record_id=record_id,
            ts=ts,
            line=number,
            tool_name=draft.tool_name,
            tool_use_id=draft.tool_use_id,
            is_error=draft.is_error,
        )


def _session_from_name(path: str) -> str:
    """The uuid Codex puts at the end of a rollout's name, else the name's stem."""
    found = _UUID_AT_END.search(path)
    return found.group(1).lower() if found else Path(path).stem


def _decode(data: bytes) -> JSON:
    """Parse one line into an object, or raise :class:`_Issue`."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        first = exc
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise _Issue("not valid UTF-8", utf8_position(data, bad.start)[1]) from None
        try:
            # orjson refuses lone surrogate escapes that Rust's serde_json also writes.
            value = json.loads(text)
        except ValueError:
            raise _Issue(f"invalid JSON: {first}") from None
    if not isinstance(value, dict):
        raise _Issue(f"not a JSON object ({type(value).__name__})")
    return value


def _dispatch(
    record: JSON, path: str, number: int, state: ReadState
) -> tuple[list[_Draft], str | None] | Problem:
    """Route a record by its shape: wrapped line, legacy header, or bare item."""
    kind = record.get("type")
    if kind is None and "record_type" in record:
        return [], None  # legacy state snapshot: bookkeeping only
    if kind in _LINE_TYPES or "payload" in record:
        if not isinstance(kind, str) or kind not in _LINE_TYPES:
            reported = _unknown(state, path, number, "line type", kind)
            return reported if isinstance(reported, Problem) else (reported, None)
        payload = record.get("payload")
        if not isinstance(payload, dict):
            raise _Issue(f"{kind} line without an object payload")
        drafts = _wrapped(kind, payload, path, number, state)
    elif kind is None:
        _session_meta(record, state, "legacy session header")
        return [], None
    elif isinstance(kind, str):
        drafts = _response_item(record, path, number, state, legacy=True)
    else:
        raise _Issue(f"type is not a string ({type(kind).__name__})")
    # A legacy item has no line timestamp; some early versions put one on the item.
    return drafts if isinstance(drafts, Problem) else (drafts, _text(record.get("timestamp")))


def _wrapped(
    kind: str, payload: JSON, path: str, number: int, state: ReadState
) -> list[_Draft] | Problem:
    """The drafts of a wrapped line."""
    if kind == "session_meta":
        _session_meta(payload, state, "session_meta")
        return []
    if kind == "response_item":
        return _response_item(payload, path, number, state, legacy=False)
    if kind == "event_msg":
        return _event(payload, path, number, state)
    return []  # turn_context and compacted: settings and summaries, never said by anyone


def _session_meta(meta: JSON, state: ReadState, what: str) -> None:
    """Take the session id from the first session meta of the file."""
    session = meta.get("id")
    if not isinstance(session, str) or not session:
        raise _Issue(f"{what} without an id")
    if state.session_id is None:
        state.session_id = session


def _unknown(
    state: ReadState, path: str, number: int, what: str, kind: object
) -> list[_Draft] | Problem:
    """A Problem the first time a type is met in this file, else nothing."""
    key = f"{_UNKNOWN_KEY}{what}:{kind}"
    if key in state.extra:
        return []
    state.extra[key] = "1"
    return Problem(path, number, f"unknown {what} {kind!r} skipped (reported once per file)")


def _response_item(
    item: JSON, path: str, number: int, state: ReadState, *, legacy: bool
) -> list[_Draft] | Problem:
    """The drafts of one ``ResponseItem`` (wrapped payload or legacy bare line)."""
    kind = item.get("type")
    if kind == "message":
        return _message(item, legacy=legacy)
    if kind in _TOOL_CALLS:
        return _tool_call(str(kind), item, state)
    if kind in _TOOL_OUTPUTS:
        return _tool_output(item, state)
    if kind == "tool_search_call":
        return _tool_search_call(item, state)
    if kind == "tool_search_output":
        return _tool_search_output(item, state)
    if kind in _QUIET_ITEMS:
        return []
    return _unknown(state, path, number, "response item", kind)


def _message(item: JSON, *, legacy: bool) -> list[_Draft]:
    """A ``message`` item: agent text, a user shell command, or (legacy) user text."""
    role = item.get("role")
    content = item.get("content")
    if not isinstance(role, str) or not isinstance(content, list):
        raise _Issue("message without a role or a content list")
    if role == "assistant":
        text = "\n".join(_block_texts(content))
        return [_Draft(Role.AGENT, text)] if text.strip() else []
    if role != "user":
        return []  # developer and system messages are Codex's own instructions
    drafts = [_Draft(Role.USER_ACTION, action) for action in _shell_commands(content)]
    if legacy:
        typed = [t for t in _block_texts(content) if not _is_injected(t)]
        if any(t.strip() for t in typed):
            drafts.append(_Draft(Role.USER, "\n".join(typed)))
    return drafts


def _block_texts(content: list[Any]) -> list[str]:
    """The texts of content blocks, with images as ``[image]`` (never their data)."""
    texts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind in ("input_text", "output_text", "text") and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "input_image":
            texts.append("[image]")
    return texts


def _shell_commands(content: list[Any]) -> list[str]:
    """``ran a shell command: …`` for each ``<user_shell_command>`` block (the user's !cmd)."""
    actions = []
    for text in _block_texts(content):
        if text.lstrip().lower().startswith("<user_shell_command>"):
            found = _SHELL_COMMAND.search(text)
            command = _one_line(found.group(1)) if found else ""
            actions.append(f"ran a shell command: {command}".rstrip(": "))
    return actions


def _is_injected(text: str) -> bool:
    """True for text Codex adds to user-role messages (context, AGENTS.md, markers)."""
    return text.lstrip().lower().startswith(_INJECTED_PREFIXES)


def _event(payload: JSON, path: str, number: int, state: ReadState) -> list[_Draft] | Problem:
    """The drafts of an ``event_msg``: the typed user message or an interruption."""
    kind = payload.get("type")
    if kind == "user_message":
        return _user_message(payload)
    if kind == "turn_aborted":
        reason = payload.get("reason")
        return (
            [_Draft(Role.USER_ACTION, "interrupted the agent")] if reason == "interrupted" else []
        )
    if kind in _QUIET_EVENTS:
        return []
    return _unknown(state, path, number, "event", kind)


def _user_message(payload: JSON) -> list[_Draft]:
    """The user's typed text (plus ``[image]`` per attached image), if it is user text."""
    message = payload.get("message")
    if not isinstance(message, str):
        raise _Issue("user_message without a message")
    if payload.get("kind", "plain") not in ("plain", None) or _is_injected(message):
        return []  # Oct 2025 era: environment context and instructions were events too
    images = sum(
        len(found)
        for found in (payload.get("images"), payload.get("local_images"))
        if isinstance(found, list)
    )
    text = "\n".join(part for part in (message, *["[image]"] * images) if part)
    return [_Draft(Role.USER, text)] if text.strip() else []


def _tool_call(kind: str, item: JSON, state: ReadState) -> list[_Draft]:
    """A tool use, remembering its name under its call id for the result."""
    if kind == "web_search_call":
        # The Responses API assigns no call id and records no output for a web search.
        action = item.get("action")
        found = action if isinstance(action, dict) else {}
        query = _text(found.get("query")) or _text(found.get("url")) or ""
        return [_Draft(Role.TOOL_USE, _one_line(query), tool_name="web_search")]
    call_id: str | None
    if kind == "local_shell_call":
        # call_id is set by the Responses API, id by chat completions.
        name, call_id = "local_shell", _text(item.get("call_id")) or _text(item.get("id"))
        action = item.get("action")
        summary = _command_summary(action.get("command") if isinstance(action, dict) else None)
    else:
        named, call_id = _text(item.get("name")), _text(item.get("call_id"))
        if named is None or call_id is None:
            raise _Issue(f"{kind} without a name or a call_id")
        name = named
        body = item.get("arguments" if kind == "function_call" else "input")
        summary = _input_summary(body, parse_json=kind == "function_call")
    if call_id is not None:
        _remember_tool(state, call_id, name)
    return [_Draft(Role.TOOL_USE, summary, tool_name=name, tool_use_id=call_id)]


def _tool_search_call(item: JSON, state: ReadState) -> list[_Draft]:
    """Codex looking up which tools it may call (its tool-discovery step, mid 2026):
    a tool use named ``tool_search``, its query as the summary."""
    call_id = _text(item.get("call_id"))
    args = item.get("arguments")
    query = args.get("query") if isinstance(args, dict) else None
    summary = _one_line(query) if isinstance(query, str) else _one_line(_compact_json(args))
    if call_id is not None:
        _remember_tool(state, call_id, _TOOL_SEARCH)
    return [_Draft(Role.TOOL_USE, summary, tool_name=_TOOL_SEARCH, tool_use_id=call_id)]


def _tool_search_output(item: JSON, state: ReadState) -> list[_Draft]:
    """What a tool search found: the names of the tools (or tool namespaces) it offers."""
    call_id = _text(item.get("call_id"))
    tools = item.get("tools")
    found = tools if isinstance(tools, list) else []
    names = [str(t.get("name")) for t in found if isinstance(t, dict) and t.get("name")]
    text = _one_line("found: " + ", ".join(names)) if names else "found no tools"
    return [_Draft(Role.TOOL_RESULT, text, tool_name=_TOOL_SEARCH, tool_use_id=call_id)]


_TOOL_SEARCH = "tool_search"


def _input_summary(body: object, *, parse_json: bool) -> str:
    """One line saying what a tool was asked: the command, the patched files, or JSON."""
    if not isinstance(body, str):
        return _one_line(_compact_json(body))
    args: object = body
    if parse_json:
        try:
            args = json.loads(body)
        except ValueError:
            args = body
    if isinstance(args, dict):
        for key in ("command", "cmd"):
            if key in args:
                return _command_summary(args[key])
        if isinstance(args.get("input"), str) and _patch_files(args["input"]):
            return _patch_summary(args["input"])
        return _one_line(_compact_json(args))
    if isinstance(args, str):
        return _patch_summary(args) if _patch_files(args) else _one_line(args)
    return _one_line(_compact_json(args))


def _command_summary(command: object) -> str:
    """A shell command as one line, without a ``bash -lc`` wrapper; a patch as its files."""
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        wrapped = (
            len(command) == 3
            and Path(command[0]).name in _SHELLS
            and command[1] in ("-lc", "-c", "-Command", "/c")
        )
        text = command[2] if wrapped else " ".join(command)
    elif isinstance(command, str):
        text = command
    else:
        return _one_line(_compact_json(command))
    return _patch_summary(text) if _patch_files(text) else _one_line(text)


def _patch_files(patch: str) -> list[str]:
    """``<op> <path>`` for each file an apply_patch body touches."""
    files = []
    for op, target, moved in _PATCH_FILE.findall(patch):
        files.append(f"{op.lower()} {target}" if op else f"move to {moved}")
    return files


def _patch_summary(patch: str) -> str:
    return _one_line("apply_patch: " + ", ".join(_patch_files(patch)))


def _tool_output(item: JSON, state: ReadState) -> list[_Draft]:
    """A tool result named through its call, or a user's rejection of that call."""
    call_id = _text(item.get("call_id"))
    if call_id is None:
        raise _Issue(f"{item.get('type')} without a call_id")
    name = state.extra.get(_TOOL_KEY + call_id)
    text, is_error = _output_text(item.get("output"))
    if _REJECTED.match(text.strip()):
        action = f"rejected the agent's {name or 'tool'} call"
        return [_Draft(Role.USER_ACTION, action, tool_name=name, tool_use_id=call_id)]
    return [_Draft(Role.TOOL_RESULT, text, name, call_id, is_error)]


def _output_text(output: object) -> tuple[str, bool]:
    """The text of a tool output and whether it reports a failure.

    Shapes: a string (plain, structured exec JSON, or freeform ``Exit code: N``), a list
    of ``input_text``/``input_image`` items (MCP results), or the early
    ``{"content", "success"}`` object.
    """
    failed = False
    if isinstance(output, list):
        text = "\n".join(_block_texts(output))
    elif isinstance(output, dict) and isinstance(output.get("content"), str):
        text, failed = output["content"], output.get("success") is False
    elif isinstance(output, str):
        text = output
    else:
        raise _Issue("tool output is neither text, content items nor an object")
    unwrapped = _structured_exec(text)
    if unwrapped is not None:
        return unwrapped
    code = _EXIT_CODE_LINE.match(text)
    return text, failed or (code is not None and int(code.group(1)) != 0)


def _structured_exec(text: str) -> tuple[str, bool] | None:
    """``(output, exit code != 0)`` of ``{"output": …, "metadata": {"exit_code": …}}``."""
    if not text.startswith('{"output"'):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("output"), str):
        return None
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        return None  # some other tool's JSON that happens to have an "output" key
    code = metadata.get("exit_code")
    return value["output"], isinstance(code, int) and code != 0


def _remember_tool(state: ReadState, call_id: str, name: str) -> None:
    """Keep ``call_id -> name`` in ``state.extra``, the most recent 256 only."""
    key = _TOOL_KEY + call_id
    state.extra.pop(key, None)
    state.extra[key] = name
    tool_keys = [k for k in state.extra if k.startswith(_TOOL_KEY)]
    for old in tool_keys[: max(0, len(tool_keys) - _TOOL_NAMES_KEPT)]:
        del state.extra[old]


def _one_line(text: str) -> str:
    """Whitespace runs to one space, cut to a summary's length."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _SUMMARY_CHARS else flat[: _SUMMARY_CHARS - 1] + "…"


def _compact_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
