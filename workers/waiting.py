"""What the running commands share: waiting for results, progress display, error text."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import click
from celery.result import AsyncResult

from shared.errors import SubconError, error_from
from shared.jsontext import pretty, shown

POLL_S = 0.25


class ScanProgress:
    """Per-slice progress on stderr: a bar in a TTY, plain lines otherwise."""

    def __init__(self, slices: int, *, label: str = "scan") -> None:
        self.slices = max(1, slices)
        self.label = label
        self.fractions: dict[str, float] = {}
        self.tty = sys.stderr.isatty()
        self.last_line = -1
        self.bar: Any = None
        if self.tty:
            self.bar = click.progressbar(length=1000, label=label, file=sys.stderr)
            self.bar.__enter__()
        self.shown = 0

    def update(self, token: str, done: int, total: int) -> None:
        self.fractions[token] = 1.0 if total <= 0 else min(1.0, done / total)
        permille = int(1000 * sum(self.fractions.values()) / self.slices)
        if self.bar is not None:
            if permille > self.shown:
                self.bar.update(permille - self.shown)
                self.shown = permille
            return
        finished = sum(1 for f in self.fractions.values() if f >= 1.0)
        step = permille // 100
        if step > self.last_line:
            self.last_line = step
            click.echo(
                f"{self.label}: {permille / 10:.0f}% ({finished}/{self.slices} slices)",
                err=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def poll_group(result: AsyncResult, on_progress: Callable[[str, int, int], None]) -> None:
    """Feed a chord header's PROGRESS states into ``on_progress`` (one pass, no waiting)."""
    parent = getattr(result, "parent", None)
    children = getattr(parent, "results", None) or []
    for index, child in enumerate(children):
        token = str(index)
        state = child.state
        if state == "SUCCESS":
            on_progress(token, 1, 1)
        elif state == "PROGRESS" and isinstance(child.info, dict):
            on_progress(token, int(child.info.get("done", 0)), int(child.info.get("total", 1)))


def wait_for(
    result: AsyncResult,
    timeout: float,
    on_poll: Callable[[AsyncResult], None] | None = None,
) -> dict[str, Any]:
    """Wait up to ``timeout`` seconds for a task's JSON report.

    Raises:
        SubconError: the wait timed out or the task failed (message names the task).
    """
    deadline = time.monotonic() + timeout
    while not result.ready():
        if on_poll is not None:
            on_poll(result)
        if time.monotonic() >= deadline:
            raise SubconError(
                f"no result from task {result.id} within {timeout:.0f}s "
                "(are the workers running? see `celery -A workers.app inspect active`)"
            )
        time.sleep(POLL_S)
    if on_poll is not None:
        on_poll(result)
    try:
        value = result.get(timeout=max(1.0, deadline - time.monotonic()))
    except Exception as exc:
        raise task_error(result, exc) from exc
    if not isinstance(value, dict):
        raise SubconError(f"task {result.id} returned {type(value).__name__}, not a report")
    return value


def task_error(result: AsyncResult, exc: BaseException) -> SubconError:
    """A failed task's exception as the project error it carries (rebuilt from its
    code, so the CLI's exit code follows its class), else a SubconError naming it."""
    error = error_from(exc)
    if error is not None:
        return error
    return SubconError(f"task {result.id} failed: {type(exc).__name__}: {exc}")


def emit(report: dict[str, Any], as_json: bool) -> None:
    """Print a report: its ``text`` (or pretty JSON with ``--json``)."""
    if as_json:
        click.echo(pretty(report), nl=False)
        return
    text = report.get("text")
    click.echo(text if isinstance(text, str) and text else pretty(report).rstrip("\n"))


def board_line(report: dict[str, Any]) -> str:
    """What a weaver pass did to ``memory/CLAUDE.md``, in one line."""
    changes = [str(c) for c in report.get("line_changes") or []]
    if changes:
        return f"board: {len(changes)} line change(s): " + "; ".join(changes)
    if "memory/CLAUDE.md" in (report.get("changed") or []):
        return "board: memory/CLAUDE.md changed"
    return "board: unchanged"


def commit_line(report: dict[str, Any], *, requested: bool = True) -> str:
    """Whether the pass requested a commit and, when known, what the committer did."""
    request = report.get("commit_request")
    if not isinstance(request, dict):
        if not requested:
            return "commit: not requested (--no-commit); `subcon commit` commits the changes"
        return "commit: not requested"
    if request.get("collapsed"):
        return "commit: requested; joined a commit already queued (`subcon audit` shows it)"
    if request.get("error"):
        return f"commit: requested and failed: {request['error']}"
    outcome = request.get("outcome")
    task = request.get("task_id")
    held = request.get("held_back") or []
    held_note = f"; held back (not committed): {', '.join(map(shown, held))}" if held else ""
    if outcome == "committed":
        mine = bool(report.get("changed"))
        before = "" if mine else "; it holds changes made before this pass"
        return f"commit: made {request.get('commit')} ({request.get('summary')}){before}{held_note}"
    if outcome is not None:
        why = str(request.get("why") or "skipped: no allowlisted changes")
        why = why.removeprefix("nothing committed: ")
        hint = "; `subcon commit --dry-run` lists them" if "held back" in why else ""
        return f"commit: requested, nothing committed ({why}{hint}){held_note}"
    if request.get("wait_error"):
        return f"commit: requested as task {task}; {request['wait_error']}"
    return f"commit: requested as task {task} (not waited for)"


def pass_text(report: dict[str, Any], *, requested: bool = True, verbose: bool = False) -> str:
    """A weaver report's text, then its board and commit lines and the malformed spine
    lines its scan skipped (human output)."""
    from workers.malformed import malformed_lines

    text = str(report.get("text") or "").rstrip("\n")
    lines = [text, board_line(report), commit_line(report, requested=requested)]
    lines += malformed_lines(report.get("read_stats"), verbose=verbose)
    return "\n".join(lines)


def follow_commit(app: Any, report: dict[str, Any], timeout: float) -> None:
    """Wait (up to ``timeout`` s) for the commit a distributed pass requested; merge
    the committer's facts into ``report["commit_request"]``. Never raises."""
    from celery.result import AsyncResult as Result

    from workers.canvas import commit_facts

    request = report.get("commit_request")
    if not isinstance(request, dict) or not request.get("task_id") or "outcome" in request:
        return
    try:
        value = wait_for(Result(request["task_id"], app=app), max(1.0, timeout))
    except SubconError as exc:
        request["wait_error"] = str(exc)
        return
    request.update(commit_facts(value))


def run_and_wait(
    start: Callable[[], AsyncResult],
    timeout: float,
    on_poll: Callable[[AsyncResult], None] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Start work (eagerly it finishes inside ``start``) and wait for its report.

    Returns (task id, report). Raises SubconError subclasses only (see :func:`wait_for`).
    """
    try:
        result = start()
    except Exception as exc:  # an eager task raised inside start()
        error = error_from(exc)
        if error is exc:
            raise
        raise (error or SubconError(f"{type(exc).__name__}: {exc}")) from exc
    return str(result.id), wait_for(result, timeout, on_poll)
