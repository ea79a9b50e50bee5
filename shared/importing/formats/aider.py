"""aider chat histories: ``.aider.chat.history.md`` in the directory aider ran in.

aider (``aider/io.py``, the same since v0.5 in 2023) appends everything to this one
Markdown file and never rewrites it. Each run of aider starts a session with
``\\n# aider chat started at YYYY-MM-DD HH:MM:SS\\n\\n`` (``datetime.now()``, local time
without a zone), and then writes:

- what the person typed (``user_input``): a blank line, then every input line as
  ``#### <line>  `` (an empty input is ``#### <blank>``);
- the model's reply (``ai_output``): ``\\n<reply>\\n\\n``, plain Markdown, reasoning
  models' ``<thinking-content-…>`` (or ``<think>``) block first;
- aider's own output, warnings, errors and questions (``tool_output``, ``tool_error``,
  ``confirm_ask``): ``> <line>  ``. A multi-line message passed whole (a commit message, a
  shell command shown before "Run shell command?") keeps its later lines without the
  ``> `` prefix; they follow the first line with no blank line between.

So lines are told apart by their prefix, and by context where Markdown in a reply could
look like aider's own: inside a reply only a line after a blank line can start a new
record, and when the file keeps aider's two trailing spaces on its ``#### ``/``> `` lines
(an editor may have stripped them), such a line must have them. A reply's own
``#### heading`` or ``> quote`` therefore stays in the reply; in a stripped file one
that follows a blank line cannot be told from aider's and starts a record. Likewise a
multi-line aider message with a blank line in it (a long commit message) ends at that
blank line, and its rest reads as a reply.

What becomes an utterance (every other line is dropped):

- ``#### `` lines → ``Role.USER``, one message per run of lines, prefixes taken off. Not
  the person's words, and dropped: ``<blank>``; aider commands (any input starting
  ``/`` or ``!``, which aider never sends to the model as typed); the echo aider writes of
  an answer it gave for the person (``#### Add file …? (Y)es/(N)o… [Yes]: skip``);
  text aider itself feeds the model as a new user message: ``/ask``, ``/code``,
  ``/architect`` and ``/context`` pass their words to a sub-coder that logs them again as
  the next ``#### `` message (that copy is kept, the command line dropped), ``/help``
  logs its retrieved docs (``# Question: …``), ``/lint`` its linter report (``# Fix any
  errors below, if possible.``), and architect mode hands the architect's reply to the
  editor model as a ``#### `` copy of that reply. A ``--watch-files`` question
  (``Find the "AI" comments below``) keeps only the marked comment lines (``█``), which
  are the person's own words.
- ``/undo`` (or a unique prefix of it, as aider accepts) → ``Role.USER_ACTION`` "undid the
  agent's last change": aider removes its own last commit, so the person rejected it.
  Other commands are actions without words (``/add``, ``/drop``, ``/run``, ``/clear``…)
  and are dropped; what they did shows in aider's output.
- ``> Question? … [Yes]: n`` → ``Role.USER_ACTION`` "rejected: <question>" when the person
  declined something the agent proposed: files it asked for, files it wanted to create
  or edit, shell commands it suggested, architect edits, lint and test fixes. The answer
  ``n``/``no``, ``s`` (skip all) and ``d`` (don't ask again) all decline. When aider
  showed the subject on the line before the question (the file, the command), it follows
  in parentheses. Yes answers, and answers to aider's housekeeping questions (git repo,
  ``.gitignore``, analytics, URLs, command output), are nothing.
- ``> Applied edit to <file>``, ``> Commit <hash> <message>`` and ``> Running <command>``
  → ``Role.TOOL_RESULT`` with tool name ``aider``: they say what the agent changed, which
  a later ``/undo`` takes back, and which shell command it ran (aider shows a command
  the model suggests, asks "Run shell command?" and logs ``Running <command>`` only
  when the person says yes). Token counts, costs and other aider chatter are dropped.
- Other text → ``Role.AGENT``, reasoning blocks taken out.

``session_id`` is the start line's timestamp as written (kept in ``state.session_id`` for
the next incremental read). aider writes local time without a zone; it is taken as UTC,
so ``ts`` is ``<date>T<time>Z`` for every record of the session: records carry no time
of their own, and the import keeps their order. ``record_id`` is ``l<line>`` of the
record's first line, stable because the file is only appended to.

The file is read from ``state.offset``; the state moves past a record once what it
yields has been taken. The last record may still be growing (more ``#### `` lines, more
output) and is left for the next run unless ``final``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final

from shared.importing.records import Problem, ReadState, Role, Utterance
from shared.kernel.files import utf8_position

FILE_NAME: Final = ".aider.chat.history.md"
UNDID: Final = "undid the agent's last change"
AIDER_TOOL: Final = "aider"

_HEADER = re.compile(r"# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*")
_USER_LINE = re.compile(r"####(?: |$)")
_TOOL_LINE = re.compile(r">(?: |$)")
_HARD_BREAK = "  "  # aider ends its own lines with two spaces (a Markdown line break)

# A confirmation as aider logs it: the question, the options it offered (not before
# v0.50), then the answer: "y"/"n"/"a"/"s"/"d" now, "yes"/"no" or free text before.
_CONFIRM = re.compile(
    r"(?P<q>.*\?)"
    r"(?P<opts> \(Y\)es/\(N\)o(?:/\(A\)ll)?(?:/\(S\)kip all)?(?:/\(D\)on't ask again)?"
    r" \[[^\]]*\]:| \(y/n[^)]*\):)?"  # v0.57+ options, or v0.50's "(y/n/instructions):"
    r" (?P<a>[A-Za-z']+)"
)
_DECLINED: Final = frozenset({"n", "no", "s", "skip", "d", "don't"})
_YES: Final = frozenset({"y", "yes", "a", "all"})

# Questions about something the agent proposed (aider/coders/*.py, commands.py, every
# wording since v0.5); a no to any other question is housekeeping, not a rejection.
_PROPOSALS: Final = (
    re.compile(
        r"Add (?!URL\b|the output\b|command output\b|https?://|[\d.]+k? tokens\b).+"
        r" to the chat\?"
    ),
    re.compile(r"Allow creation of new file .+\?"),
    re.compile(r"Create new file\?"),
    re.compile(r"Allow edits to .+\?"),
    re.compile(r"Edit the files\?"),
    re.compile(r"Run shell commands?\?"),
    re.compile(r"Attempt to fix (?:lint|test) errors\?"),
    re.compile(r"Fix lint errors in .+\?"),
)
# Questions whose subject (file, command) aider prints on the line before.
_SUBJECT_QUESTIONS: Final = frozenset(
    {
        "Add file to the chat?",
        "Create new file?",
        "Allow edits to file that has not been added to the chat?",
        "Run shell command?",
        "Run shell commands?",
    }
)
_EDIT_THE_FILES: Final = "Edit the files?"

_APPLIED = re.compile(r"Applied edit to \S")
_COMMIT = re.compile(r"Commit [0-9a-f]{7,40} \S")
_RUNNING = re.compile(r"Running \S")

# Every command aider has had (``cmd_*`` in aider/commands.py, v0.5 to v0.86).
_COMMANDS: Final = frozenset(
    {
        "add", "architect", "ask", "chat-mode", "clear", "clipboard", "code", "commit",
        "context", "copy", "copy-context", "diff", "drop", "edit", "editor", "editor-model",
        "exit", "git", "help", "lint", "load", "ls", "map", "map-refresh", "model",
        "models", "multiline-mode", "ok", "paste", "quit", "read", "read-only",
        "reasoning-effort", "report", "reset", "run", "save", "settings", "test",
        "think-tokens", "tokens", "undo", "voice", "weak-model", "web",
    }
)  # fmt: skip

# User messages aider writes itself (commands.py cmd_help, linter.py, watch_prompts.py).
_HELP_PROMPT = re.compile(r"# Question: .*^# Relevant docs:", re.DOTALL | re.MULTILINE)
_LINT_PROMPT: Final = "# Fix any errors below, if possible."
_WATCH_PROMPTS: Final = (
    "I've written your instructions in comments in the code and marked them with",
    'Find the "AI" comments below',
)
_WATCH_MARK: Final = "█"

_REASONING = re.compile(
    r"<(thinking-content-[0-9a-f]{32}|think|thinking)>.*?(?:</\1>|\Z)", re.DOTALL
)

# state.extra keys: what the previous records mean for the next one.
_STRICT: Final = "strict"  # "1": aider's lines keep their two trailing spaces
_AGENT_HASH: Final = "agent"  # hash of the last reply, to spot the architect hand-off
_HANDOFF: Final = "handoff"  # "1": the person just said yes to "Edit the files?"
_SUBJECT: Final = "subject"  # the aider line before the next one (a question's subject)
_NO_HEADER: Final = "no-header"  # "1": text before any session start was reported
_BAD_UTF8: Final = "bad-utf8"  # "1": invalid UTF-8 was reported


@dataclass
class _Record:
    """Consecutive lines that form one record, with where they start and end."""

    kind: str  # header, user, tool, agent
    line: int  # 1-based line of the first line
    lines: list[str] = field(default_factory=list)
    end: int = 0  # byte offset (from the read's start) just past the last line
    last_line: int = 0
    bad_line: int = 0  # first line that was not valid UTF-8, 0 if none
    bad_column: int = 0  # the column of its first bad byte


@dataclass
class _Line:
    text: str
    number: int
    end: int  # byte offset (from the read's start) just past the line
    bad: int  # the 1-based column of the first byte that is not UTF-8, 0 if none


# ---------------------------------------------------------------------------- lines


def _lines(data: bytes, first_number: int) -> Iterator[_Line]:
    """The lines of ``data`` (numbered from ``first_number``), CR LF or LF, decoded."""
    position = 0
    number = first_number
    while position < len(data):
        cut = data.find(b"\n", position)
        end = cut + 1 if cut >= 0 else len(data)
        raw = data[position:end].rstrip(b"\n").rstrip(b"\r")
        try:
            text, bad = raw.decode("utf-8"), 0
        except UnicodeDecodeError as exc:
            text = raw.decode("utf-8", errors="replace")
            bad = utf8_position(raw, exc.start)[1]
        yield _Line(text, number, end, bad)
        position = end
        number += 1


def _strict(data: bytes) -> str | None:
    """Whether aider's lines keep their two trailing spaces: "1", or "0" when an editor
    stripped them, or None while there is no such line to tell."""
    ends = re.findall(rb"^(?:####|>)(?: .*)?$", data, re.MULTILINE)
    if not ends:
        return None
    kept = any(line.rstrip(b"\r").endswith(b"  ") for line in ends)
    return "1" if kept else "0"


class _Splitter:
    """Groups lines into records (see the module docstring for the rules)."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.records: list[_Record] = []
        self.current: _Record | None = None
        self.previous_blank = True

    def _close(self) -> None:
        if self.current is not None:
            self.records.append(self.current)
            self.current = None

    def _open(self, kind: str, line: _Line) -> None:
        self._close()
        self.current = _Record(kind, line.number)
        self._add(line)

    def _add(self, line: _Line) -> None:
        assert self.current is not None
        self.current.lines.append(line.text)
        self.current.end = line.end
        self.current.last_line = line.number
        if line.bad and not self.current.bad_line:
            self.current.bad_line = line.number
            self.current.bad_column = line.bad

    def _may_start(self, text: str) -> bool:
        """Whether a ``#### ``/``> `` line starts a record here, not a reply's Markdown."""
        if self.current is None or self.current.kind != "agent":
            return True
        return self.previous_blank and (not self.strict or text.endswith(_HARD_BREAK))

    def feed(self, line: _Line) -> None:
        text = line.text
        kind = self.current.kind if self.current else None
        if _HEADER.fullmatch(text):
            self._open("header", line)
            self._close()
        elif kind == "user" and _USER_LINE.match(text):
            self._add(line)
        elif _USER_LINE.match(text) and self._may_start(text):
            self._open("user", line)
        elif _TOOL_LINE.match(text) and self._may_start(text):
            self._open("tool", line)
        elif not text:
            if kind in ("user", "tool"):
                self._close()
            elif kind == "agent":
                self._add(line)
        elif kind == "tool" and not self.previous_blank:
            self._add(line)  # a multi-line message's later lines carry no prefix
        elif kind == "agent":
            self._add(line)
        else:
            self._open("agent", line)
        self.previous_blank = not text

    def finish(self) -> list[_Record]:
        self._close()
        return self.records


# ------------------------------------------------------------------------- meaning


@dataclass
class _Said:
    """One utterance of a record before it gets its session and id."""

    role: Role
    text: str
    tool_name: str | None = None


def _digest(text: str) -> str:
    normal = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:16]


def _command(text: str) -> str | None:
    """The aider command a typed input runs ('' for an unknown or ambiguous one), or
    None when the input is not a command."""
    if text.startswith("!"):
        return "run"
    if not text.startswith("/"):
        return None
    word = text[1:].split(maxsplit=1)[0].lower() if text[1:].strip() else ""
    if word in _COMMANDS:
        return word
    candidates = [name for name in _COMMANDS if name.startswith(word)] if word else []
    return candidates[0] if len(candidates) == 1 else ""


def _watch_comments(text: str) -> str:
    """The person's marked comment lines of a ``--watch-files`` question."""
    marked = [line.split(_WATCH_MARK, 1)[1].strip() for line in text.splitlines()]
    return "\n".join(line for line in marked if line) if _WATCH_MARK in text else ""


def _user(record: _Record, extra: dict[str, str]) -> list[_Said]:
    """What one run of ``#### `` lines says (see the module docstring)."""
    text = "\n".join(line[5:].rstrip() for line in record.lines).strip()
    confirm = _CONFIRM.fullmatch(text)
    if confirm and confirm.group("opts"):
        # aider answering for the person, logged as if typed; the same answer follows
        # as a "> " line, which may still need the subject shown before this one.
        return []
    extra.pop(_SUBJECT, None)
    after_agent = extra.pop(_AGENT_HASH, None)
    handoff = extra.pop(_HANDOFF, None)
    if not text or text == "<blank>":
        return []
    command = _command(text)
    if command is not None:
        return [_Said(Role.USER_ACTION, UNDID)] if command == "undo" else []
    if _HELP_PROMPT.match(text) or text.startswith(_LINT_PROMPT):
        return []
    if handoff or after_agent == _digest(text):
        return []  # the architect's reply handed to the editor model
    if text.startswith(_WATCH_PROMPTS):
        comments = _watch_comments(text)
        return [_Said(Role.USER, comments)] if comments else []
    return [_Said(Role.USER, text)]


def _rejection(text: str, extra: dict[str, str]) -> _Said | None:
    """A declined proposal of the agent, from aider's logged confirmation."""
    confirm = _CONFIRM.fullmatch(text)
    if confirm is None:
        return None
    question, answer = confirm.group("q").strip(), confirm.group("a").lower()
    if question == _EDIT_THE_FILES and answer in _YES:
        extra[_HANDOFF] = "1"
    if answer not in _DECLINED or not any(p.fullmatch(question) for p in _PROPOSALS):
        return None
    subject = extra.get(_SUBJECT)
    if question in _SUBJECT_QUESTIONS and subject:
        return _Said(Role.USER_ACTION, f"rejected: {question} ({subject})")
    return _Said(Role.USER_ACTION, f"rejected: {question}")


def _tool(record: _Record, extra: dict[str, str]) -> list[_Said]:
    """What one line of aider's output says (see the module docstring)."""
    first = record.lines[0][1:].strip()
    text = "\n".join([first, *(line.rstrip() for line in record.lines[1:])]).strip()
    said = _rejection(text, extra)
    if said is None and (_APPLIED.match(text) or _COMMIT.match(text) or _RUNNING.match(text)):
        said = _Said(Role.TOOL_RESULT, text, AIDER_TOOL)
    if text:
        extra[_SUBJECT] = text
    return [said] if said else []


def _agent(record: _Record, extra: dict[str, str]) -> list[_Said]:
    extra.pop(_SUBJECT, None)
    text = _REASONING.sub("", "\n".join(record.lines)).strip()
    if not text:
        return []
    extra[_AGENT_HASH] = _digest(text)
    return [_Said(Role.AGENT, text)]


def _meaning(record: _Record, extra: dict[str, str]) -> list[_Said]:
    """The utterances of one record, updating the context in ``extra``."""
    if record.kind == "user":
        return _user(record, extra)
    if record.kind == "tool":
        return _tool(record, extra)
    if record.kind == "agent":
        return _agent(record, extra)
    return []


def _session_ts(session_id: str) -> str:
    """The session start as ISO 8601: aider's local time, taken as UTC."""
    return session_id.replace(" ", "T") + "Z"


# -------------------------------------------------------------------------- reader


class AiderReader:
    """The :class:`~shared.importing.records.FormatReader` for aider chat histories."""

    name = "aider"
    # Append-only: bytes before the watermark never change.
    incremental = True

    def matches(self, path: Path) -> bool:
        """The chat history file aider writes by default."""
        return path.name == FILE_NAME

    def read(
        self, handle: BinaryIO, path: str, state: ReadState, *, final: bool
    ) -> Iterator[Utterance | Problem]:
        """Yield the records after ``state`` (see the module docstring)."""
        handle.seek(state.offset)
        data = handle.read()
        if not data:
            return
        if _STRICT not in state.extra:
            strict = _strict(data)
            if strict is not None:
                state.extra[_STRICT] = strict
        splitter = _Splitter(state.extra.get(_STRICT) == "1")
        for line in _lines(data, state.line + 1):
            splitter.feed(line)
        records = splitter.finish()
        if not final and records:
            records.pop()  # may still be growing
        base = state.offset
        for record in records:
            context = dict(state.extra)
            items = list(self._record_items(record, path, state, context))
            for item in items:
                if isinstance(item, Utterance):
                    state.emitted += 1
                yield item
            state.extra.clear()
            state.extra.update(context)
            state.offset = base + record.end
            state.line = record.last_line

    def _record_items(
        self, record: _Record, path: str, state: ReadState, extra: dict[str, str]
    ) -> Iterator[Utterance | Problem]:
        if record.bad_line and _BAD_UTF8 not in extra:
            extra[_BAD_UTF8] = "1"
            yield Problem(
                path,
                record.bad_line,
                "not valid UTF-8 (decoded with replacement)",
                record.bad_column,
            )
        if record.kind == "header":
            found = _HEADER.fullmatch(record.lines[0])
            assert found is not None
            state.session_id = found.group(1)
            for key in (_AGENT_HASH, _HANDOFF, _SUBJECT):
                extra.pop(key, None)
            return
        if state.session_id is None:
            if _NO_HEADER not in extra:
                extra[_NO_HEADER] = "1"
                yield Problem(path, record.line, "no '# aider chat started at' line before this")
            return
        said = _meaning(record, extra)
        for index, item in enumerate(said, start=1):
            yield Utterance(
                role=item.role,
                text=item.text,
                session_id=state.session_id,
                record_id=f"l{record.line}" if len(said) == 1 else f"l{record.line}#{index}",
                ts=_session_ts(state.session_id),
                line=record.line,
                tool_name=item.tool_name,
            )


READER: Final = AiderReader()
