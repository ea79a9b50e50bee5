"""Test-only pause points for fault injection; no-ops unless ``SUBCON_TEST_PAUSE`` is set.

``SUBCON_TEST_PAUSE=<point>:<flag path>`` makes the named point, when it is reached
with a subject containing ``SUBCON_TEST_PAUSE_MATCH`` (any subject when unset), write
``<flag path>.reached`` (holding the pid) and wait until ``<flag path>`` exists. A
fault test then knows which process sits "in the middle" of a stage and can SIGKILL
it; once the flag exists every later pass through the point goes straight on, so a
redelivered task completes. Points: ``scan`` (a scan task has read its slice, subject =
the slice token), ``write`` (an atomic write has its temp file fsynced but not yet
renamed, subject = the target path) and ``commit`` (a committer holds its kernel's lock
and has not reviewed yet, subject = the kernel dir).

Read from the environment on purpose: the hook must reach worker processes started by
a test without threading a test knob through ``Settings``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAUSE_ENV = "SUBCON_TEST_PAUSE"
MATCH_ENV = "SUBCON_TEST_PAUSE_MATCH"
# A forgotten flag must never hang a worker for good.
MAX_PAUSE_S = 300.0
_POLL_S = 0.02


def checkpoint(point: str, subject: str = "") -> None:
    """Pause at ``point`` if the environment asks for it (see module docstring)."""
    spec = os.environ.get(PAUSE_ENV)
    if not spec:
        return
    wanted, sep, flag_text = spec.partition(":")
    if not sep or wanted != point or not flag_text:
        return
    match = os.environ.get(MATCH_ENV, "")
    if match and match not in subject:
        return
    flag = Path(flag_text)
    if flag.exists():
        return
    reached = flag.with_name(flag.name + ".reached")
    tmp = flag.with_name(f".{flag.name}.{os.getpid()}.reached.tmp")
    tmp.write_text(f"{os.getpid()}\n{subject}\n", encoding="utf-8")
    os.replace(tmp, reached)
    deadline = time.monotonic() + MAX_PAUSE_S
    while not flag.exists() and time.monotonic() < deadline:
        time.sleep(_POLL_S)
