"""No credential from a transcript is ever written, printed or committed.

For every format, a small real-format fixture is copied with fake credentials
(``tests/fixtures/secrets/credentials.jsonl``) spliced into what the person typed and
into what tools returned. The copy is imported with ``subcon import`` into a fresh
runtime beside a kernel made by ``subcon init`` (a real git repository); the memory
check, weaver passes and a committer wake then run embedded, as ``subcon demo`` runs
them. Afterwards no secret, nor any 12-character piece of one, may be found in any file
under either root (git objects decompressed), in what ``import --json``, ``weave`` and
``status --json`` printed, or in the fragments and dossiers the passes wrote; and the
``[redacted: <kind>]`` markers of the spliced kinds must be in the spine, so there was
something to leak.
"""

from __future__ import annotations

import json
import re
import subprocess
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from shared.importing.formats import reader
from shared.importing.records import ReadState, Role, Utterance
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.setup.bootstrap import init_kernel
from shared.setup.demo.spine import DEMO_DATES
from shared.spine.coverage import mark_day_covered
from shared.spine.gap import find_gap
from workers.cli import main
from workers.commands.demo import run_demo

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
TRANSCRIPTS = FIXTURES / "transcripts"
WINDOW = 12  # no piece of a secret this long may survive anywhere
TOOL_BUDGET = 2300  # characters spliced into one tool output (redacted before its cap)
MUST_REACH_SPINE = {"private-key", "url-password", "jwt"}
USER_CONTEXTS = ("prose-en", "prose-zh", "curl", "url", "cli")
TOOL_CONTEXTS = ("env", "json", "traceback", "yaml", "ini", "npmrc", "cut")
MARKER = re.compile(r"\[redacted: ([a-z0-9-]+)\]")


def _credentials() -> list[dict[str, Any]]:
    with (FIXTURES / "secrets" / "credentials.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    # Lone surrogates cannot be written to a UTF-8 Markdown transcript.
    return [r for r in rows if r["context"] != "surrogates"]


CREDENTIALS = _credentials()


def _kinds(row: dict[str, Any]) -> set[str]:
    return {row["kind"], *row.get("also", ())}


def _pick(offset: int, contexts: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row of every kind that has one in ``contexts``; ``offset`` rotates which."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for row in CREDENTIALS:
        if row["context"] in contexts:
            by_kind.setdefault(row["kind"], []).append(row)
    return [rows[offset % len(rows)] for _, rows in sorted(by_kind.items())]


# ----------------------------------------------------------------------- splicing


@dataclass
class Plan:
    """Which credential texts go into which utterance (by record id)."""

    user: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    tool: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [r for rows in (*self.user.values(), *self.tool.values()) for r in rows]

    def kinds(self, which: dict[str, list[dict[str, Any]]]) -> set[str]:
        return {k for rows in which.values() for r in rows for k in _kinds(r)}


def _utterances(fmt: str, path: Path) -> list[Utterance]:
    with path.open("rb") as handle:
        items = reader(fmt).read(handle, str(path), ReadState(), final=True)
        return [u for u in items if isinstance(u, Utterance)]


def _plan(fmt: str, offset: int, utterances: list[Utterance], tool_prefix: str = "") -> Plan:
    """Every user row spread over the user messages; tool rows (private keys, URL
    passwords and JWTs first) packed into the tool outputs, each output taking at most
    ``TOOL_BUDGET`` characters so everything spliced is redacted before the cap."""
    users = [u.record_id for u in utterances if u.role is Role.USER]
    tools = [
        u.record_id
        for u in utterances
        if u.role is Role.TOOL_RESULT and u.text.startswith(tool_prefix)
    ]
    assert len(users) >= 2 and len(tools) >= 2, f"{fmt} fixture too small"
    plan = Plan({u: [] for u in users}, {t: [] for t in tools})
    for n, row in enumerate(_pick(offset, USER_CONTEXTS)):
        plan.user[users[n % len(users)]].append(row)
    tool_rows = sorted(
        _pick(offset, TOOL_CONTEXTS), key=lambda r: (r["kind"] not in MUST_REACH_SPINE, r["kind"])
    )
    used = dict.fromkeys(tools, 0)
    for row in tool_rows:
        size = len(row["text"]) + 2
        target = next((t for t in tools if used[t] + size <= TOOL_BUDGET), None)
        if target is not None:
            plan.tool[target].append(row)
            used[target] += size
    plan.tool = {t: rows for t, rows in plan.tool.items() if rows}
    return plan


def _joined(rows: list[dict[str, Any]], sep: str = "\n\n") -> str:
    return sep.join(r["text"] for r in rows)


def _splice_claude_code(src: Path, plan: Plan) -> bytes:
    """Append to the user's text blocks; put the tool rows in front of a tool_result."""
    records = [json.loads(line) for line in src.read_bytes().splitlines() if line.strip()]
    by_uuid = {r.get("uuid"): r for r in records}
    for which, adds in (("user", plan.user), ("tool", plan.tool)):
        for record_id, rows in adds.items():
            uuid, _, index = record_id.partition("#")
            content = by_uuid[uuid]["message"]["content"]
            text = _joined(rows)
            if isinstance(content, str):
                assert which == "user"
                by_uuid[uuid]["message"]["content"] = f"{content}\n\n{text}"
                continue
            if index:
                block = content[int(index)]
            elif which == "user":
                block = [b for b in content if b.get("type") == "text"][-1]
            else:
                block = next(b for b in content if b.get("type") == "tool_result")
            if which == "user":
                block["text"] = f"{block['text']}\n\n{text}"
            elif isinstance(block["content"], str):
                block["content"] = f"{text}\n{block['content']}"
            else:
                block["content"].insert(0, {"type": "text", "text": text})
    return b"".join(
        json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" for r in records
    )


# The Codex fixture's own turns relate to no line of the demo board, so the first user
# message also gives a standing instruction: the weaver then writes a fragment from this
# transcript (a NEW_SIGNAL quoting the user's words beside the spliced credentials).
CODEX_STANDING = "From now on, always quote prices in cents."


def _splice_codex(src: Path, plan: Plan) -> bytes:
    """The typed message (event and response item alike); the output of a tool call,
    inside its structured exec JSON when it has one."""
    lines = [json.loads(line) for line in src.read_bytes().splitlines()]
    for n, (record_id, rows) in enumerate(plan.user.items()):
        payload = lines[int(record_id[1:]) - 1]["payload"]
        said = f"{payload['message']}\n\n{CODEX_STANDING}" if n == 0 else payload["message"]
        old, text = payload["message"], f"{said}\n\n{_joined(rows)}"
        payload["message"] = text
        twins = [
            block
            for line in lines
            if line["type"] == "response_item" and line["payload"].get("role") == "user"
            for block in line["payload"]["content"]
            if block.get("text") == old
        ]
        assert len(twins) == 1, record_id
        twins[0]["text"] = text
    for record_id, rows in plan.tool.items():
        payload = lines[int(record_id[1:]) - 1]["payload"]
        output = payload["output"]
        if output.startswith('{"output"'):
            value = json.loads(output)
            value["output"] = f"{_joined(rows)}\n{value['output']}"
            payload["output"] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        else:
            payload["output"] = f"{_joined(rows)}\n{output}"
    return b"".join(
        json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" for r in lines
    )


_ROLE_HEADER = re.compile(r"_\*\*(User|Assistant|Agent)( - sidechain)?( \(.*\))?\*\*_\s*$")


def _splice_specstory(src: Path, plan: Plan) -> bytes:
    """A user message gets the rows before its closing ``---``; a tool block gets them
    at the top of its output fence."""
    lines = src.read_text(encoding="utf-8").split("\n")
    headers = [n for n, line in enumerate(lines) if _ROLE_HEADER.match(line)]
    inserts: list[tuple[int, str]] = []
    for record_id, rows in plan.user.items():
        ordinal = int(record_id[1:])
        start = headers[ordinal - 1]
        end = headers[ordinal] if ordinal < len(headers) else len(lines)
        last = max(n for n in range(start + 1, end) if lines[n].strip())
        where = last if lines[last].strip() == "---" else last + 1
        inserts.append((where, _joined(rows) + "\n"))
    for record_id, rows in plan.tool.items():
        ordinal = int(record_id[1:].partition("#")[0])
        start = headers[ordinal - 1]
        end = headers[ordinal] if ordinal < len(headers) else len(lines)
        fence = next(n for n in range(start, end) if lines[n].strip() == "```text")
        inserts.append((fence + 1, _joined(rows)))
    for where, text in sorted(inserts, reverse=True):
        lines[where:where] = text.split("\n")
    return "\n".join(lines).encode("utf-8")


def _splice_aider(src: Path, plan: Plan) -> bytes:
    """More ``#### `` lines in the user's input; more lines in a commit message (the
    lines after a message's first come without aider's ``> `` prefix)."""
    lines = src.read_text(encoding="utf-8").split("\n")
    inserts: list[tuple[int, list[str]]] = []
    for record_id, rows in plan.user.items():
        first = int(record_id[1:]) - 1
        assert lines[first].startswith("#### "), lines[first]
        last = first
        while lines[last + 1].startswith("#### "):
            last += 1
        text = "\n".join(r["text"] for r in rows)
        added = [f"#### {line}  " for line in text.split("\n") if line.strip()]
        inserts.append((last + 1, added))
    for record_id, rows in plan.tool.items():
        first = int(record_id[1:]) - 1
        assert lines[first].startswith("> Commit "), lines[first]
        last = first
        while lines[last + 1].strip() and not lines[last + 1].startswith(("> ", "#### ")):
            last += 1
        body = [line for r in rows for line in r["text"].split("\n") if line.strip()]
        lines[last] = lines[last].rstrip(" ")
        inserts.append((last + 1, [*body[:-1], body[-1] + "  "]))
    for where, added in sorted(inserts, reverse=True):
        lines[where:where] = added
    return "\n".join(lines).encode("utf-8")


@dataclass(frozen=True)
class Case:
    fmt: str
    fixture: str  # relative to tests/fixtures/transcripts/<fmt>/
    target: str  # where the spliced copy goes, relative to the transcript root
    splice: Callable[[Path, Plan], bytes]
    tool_prefix: str = ""  # the tool outputs that can take more lines
    keep_lines: int | None = None  # the transcript as far as written when imported
    name: str = ""
    offset: int = 0  # which row of each kind (rotates the credentials over the cases)
    bug: str = ""  # a leak this case shows (the test is then a strict xfail)


CASES = [
    Case(
        "claude-code",
        "5d6c0a0e-2f1b-4c1e-9a57-3e0c7b1d2a10.jsonl",
        "-home-dev-shop/5d6c0a0e-2f1b-4c1e-9a57-3e0c7b1d2a10.jsonl",
        _splice_claude_code,
    ),
    Case(
        "codex",
        "current/rollout-2026-03-02T10-15-00-0199a3e1-7c2d-7b40-9f3e-2c5d8e4a1b60.jsonl",
        "2026/03/02/rollout-2026-03-02T10-15-00-0199a3e1-7c2d-7b40-9f3e-2c5d8e4a1b60.jsonl",
        _splice_codex,
        offset=1,
    ),
    Case(
        "specstory",
        "2026-01-16_16-26-02Z-code-review.md",
        "shop/.specstory/history/2026-01-16_16-26-02Z-code-review.md",
        _splice_specstory,
        offset=2,
    ),
    Case(
        "aider",
        "current/.aider.chat.history.md",
        "shop/.aider.chat.history.md",
        _splice_aider,
        tool_prefix="Commit ",
        offset=3,
    ),
    # A live aider session: the import runs right after aider logged a commit, so the
    # file (as far as written) ends on the commit message holding credentials.
    Case(
        "aider",
        "current/.aider.chat.history.md",
        "shop/.aider.chat.history.md",
        _splice_aider,
        tool_prefix="Commit ",
        keep_lines=91,
        name="aider-ends-on-a-commit",
        # Found by this case: the reader keeps the last '> ' line in ReadState.extra,
        # which the watermark now redacts before it is saved.
        offset=4,
    ),
]
PARAMS = [
    pytest.param(
        case,
        id=case.name or case.fmt,
        marks=[pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else [],
    )
    for case in CASES
]


# ----------------------------------------------------------------------- finding leaks


def _windows(secret: str) -> set[bytes]:
    """Every ``WINDOW``-byte piece of the secret, as written raw and JSON-escaped."""
    out: set[bytes] = set()
    for variant in {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}:
        data = variant.encode("utf-8")
        if len(data) <= WINDOW:
            out.add(data)
        else:
            out.update(data[i : i + WINDOW] for i in range(len(data) - WINDOW + 1))
    return out


class Leaks:
    """Where any piece of any secret turns up."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.pieces: dict[bytes, str] = {}
        for secret in secrets:
            for piece in _windows(secret):
                self.pieces[piece] = secret
        self.found: list[str] = []

    def scan(self, where: str, data: bytes) -> None:
        pieces = self.pieces
        hits = {data[i : i + WINDOW] for i in range(len(data) - WINDOW + 1)} & pieces.keys()
        hits |= {p for p in pieces if len(p) < WINDOW and p in data}
        by_secret: dict[str, list[bytes]] = {}
        for piece in sorted(hits):
            by_secret.setdefault(pieces[piece], []).append(piece)
        for secret, found in by_secret.items():
            self.found.append(
                f"{where}: {len(found)} piece(s) of secret {secret[:16]!r}…, e.g. {found[0]!r}"
            )


def _git_objects(kernel: Path) -> bytes:
    """Every object of the kernel repository, loose or packed, decompressed."""
    batch = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=kernel,
        capture_output=True,
        check=True,
    ).stdout
    assert batch, "the kernel repository has no objects"
    return batch


def _scan_tree(leaks: Leaks, root: Path) -> int:
    """Scan every file under ``root`` as bytes (loose git objects also inflated)."""
    count = 0
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        leaks.scan(str(path), data)
        count += 1
        if path.parent.parent.name == "objects" and len(path.parent.name) == 2:
            leaks.scan(f"{path} (inflated)", zlib.decompress(data))
    return count


# ----------------------------------------------------------------------- running


def _cli(paths: KernelPaths, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    code = main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out + out.err


def _passes(paths: KernelPaths, settings: Settings) -> list[dict[str, Any]]:
    """Memory check, weaver pass and committer wake, embedded (``subcon demo``'s
    :func:`run_demo`), again until no imported day is left unscanned (a transcript may
    span days)."""
    reports: list[dict[str, Any]] = []
    for _ in range(4):
        reports += run_demo(settings, paths).values()
        if find_gap(paths, settings) is None:
            return reports
    raise AssertionError("the weaver passes never covered every imported day")


def _spine_events(paths: KernelPaths, days: set[str]) -> list[dict[str, Any]]:
    events = []
    for day in sorted(days):
        for line in paths.day_file(day).read_bytes().splitlines():
            events.append(json.loads(line))
    return events


@pytest.mark.parametrize("case", PARAMS)
def test_no_secret_leaks_anywhere(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = TRANSCRIPTS / case.fmt / case.fixture
    if case.keep_lines is not None:
        kept = source.read_text(encoding="utf-8").split("\n")[: case.keep_lines]
        assert kept[-1].startswith("> Commit "), kept[-1]
        source = tmp_path / "fixture" / source.name
        source.parent.mkdir()
        source.write_text("\n".join(kept) + "\n", encoding="utf-8")
    plan = _plan(case.fmt, case.offset, _utterances(case.fmt, source), case.tool_prefix)
    transcripts = tmp_path / "transcripts"
    target = transcripts / case.target
    target.parent.mkdir(parents=True)
    target.write_bytes(case.splice(source, plan))
    # the spliced copy still reads as the same utterances (aider's ids are line numbers,
    # which the added lines move), now holding the credentials
    spliced = _utterances(case.fmt, target)
    assert [u.role for u in spliced] == [u.role for u in _utterances(case.fmt, source)]
    secrets = [r["secret"] for r in plan.rows]
    control = Leaks(secrets)
    control.scan("the spliced transcript", target.read_bytes())
    assert len(control.found) == len(set(secrets))  # the detector sees every secret there
    assert all(
        any(s in u.text for u in spliced if u.role is Role.USER)
        for rows in plan.user.values()
        for s in (r["secret"] for r in rows)
        if "\n" not in s
    )
    assert len(plan.kinds(plan.user) | plan.kinds(plan.tool)) >= 10
    assert plan.kinds(plan.user) >= MUST_REACH_SPINE
    assert plan.kinds(plan.tool) >= MUST_REACH_SPINE

    paths = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    init_kernel(paths, demo=True, force=False, demo_edits=False)
    for day in DEMO_DATES:  # the demo's own days were dreamt: only the import is new
        mark_day_covered(paths, day, None)
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    printed: dict[str, str] = {}

    printed["import --json"] = _cli(
        paths, capsys, "import", "--from", case.fmt, str(transcripts), "--settle", "0", "--json"
    )
    days = {str(u.ts)[:10] for u in spliced}
    reports = _passes(paths, settings)
    printed["weave"] = _cli(paths, capsys, "weave")
    printed["status --json"] = _cli(paths, capsys, "status", "--json")
    fragments = [p for d in days for p in paths.fragment_day_dir(d).glob("*.md")]
    dossiers = sorted((paths.kernel / "memory" / "entities").rglob("*.md"))

    leaks = Leaks(secrets)
    for path in [*fragments, *dossiers]:
        leaks.scan(f"memory: {path.name}", path.read_bytes())
    for name, text in printed.items():
        leaks.scan(f"`subcon {name}` output", text.encode("utf-8"))
    for report in reports:
        leaks.scan("pass report", json.dumps(report, ensure_ascii=False).encode("utf-8"))
    scanned = _scan_tree(leaks, paths.runtime) + _scan_tree(leaks, paths.kernel)
    leaks.scan("git objects", _git_objects(paths.kernel))
    assert scanned > 50
    assert leaks.found == [], "\n".join(leaks.found[:20])

    # Something was there to leak: every spliced utterance was imported, the weaver
    # judged the imported days (fragments written), and the markers of every spliced
    # kind reached the spine, in what the user said and in what the tools returned.
    imported = json.loads(printed["import --json"])
    assert imported["events_written"] == len(spliced)
    assert sum(imported["redacted"].values()) >= len(plan.rows)
    covered = {d for r in reports for d in r.get("covered", [])}
    assert days <= covered, (days, covered)
    assert fragments, f"no fragment written for {sorted(days)}"
    assert dossiers
    assert json.loads(printed["status --json"])["import"]["sources"]
    events = _spine_events(paths, days)
    said = " ".join(e["payload"]["text"] for e in events if e["type"] == "channel.message")
    returned = " ".join(e["payload"]["summary"] for e in events if e["type"] == "agent.tool_result")
    assert set(MARKER.findall(said)) >= plan.kinds(plan.user)
    assert set(MARKER.findall(returned)) >= plan.kinds(plan.tool)
