"""Become one host of a multi-host test, then exec its program.

    python -m testing.hosts.hostns --hostname NAME [--view ROOT --ro DIR...
        [--rw DIR...]] -- PROGRAM [ARG...]

Run under ``ip netns exec <ns> unshare --uts [--mount --propagation private]``: the
network and UTS namespaces are already this host's own, and so is the mount namespace
when ``--view`` is given. This sets the host name and, for a scan host, builds the file
system view an operator would give one:

* the whole file system is remounted read-only (per mount point, in this namespace
  only), except a fresh private ``/tmp`` and ``/dev/shm`` of the host's own;
* ``ROOT`` (the directory holding the kernel and the runtime dir) is covered by an
  empty read-only tmpfs, so the kernel and the rest of the runtime are not there;
* only the ``--ro`` directories (the runtime's ``var/events``; the CA certificate's
  directory), the checkout the host runs and, when it lives under ``/tmp``, the
  interpreter's prefix and site-packages are bind-mounted back, read-only, at their
  own paths; ``--rw`` binds a
  directory read-write at its own path, for the test-only pause points
  (``SUBCON_TEST_PAUSE``) and nothing else.

Nothing here changes the machine's own mounts: every mount is made in the namespace
``unshare`` created, with private propagation.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from pathlib import Path

# Mounts that stay as they are: kernel interfaces, not file systems a task could write.
KEEP = frozenset({"proc", "sysfs", "devtmpfs", "devpts", "mqueue", "cgroup", "cgroup2"})
STAGE = Path("/dev/shm/.subcon-stage")
# The software a scan host runs (its /opt/subcon): bound back read-only, since a
# checkout under /tmp would otherwise vanish under the host's own /tmp.
SOFTWARE = Path(__file__).resolve().parents[2]


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True)


def _mount_points() -> list[tuple[str, str]]:
    """(mount point, fs type) of this namespace, decoded (``\\040`` is a space)."""
    out = []
    for line in Path("/proc/self/mounts").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        point = fields[1].encode().decode("unicode_escape")
        out.append((point, fields[2]))
    return out


HIDDEN = (Path("/tmp"), Path("/dev/shm"))


def interpreter_paths() -> list[Path]:
    """The Python the host runs (its prefix, its base prefix, its site-packages) where the
    host's own ``/tmp`` or ``/dev/shm`` would hide it: a venv made under ``/tmp`` still
    imports ``redis`` and ``celery`` inside the host. Outermost paths only."""
    import site

    found = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, *site.getsitepackages())}
    hidden = [p for p in found if any(p.is_relative_to(h) for h in HIDDEN) and p.exists()]
    return sorted(p for p in hidden if not any(p != q and p.is_relative_to(q) for q in hidden))


def build_view(root: Path, ro: list[Path], rw: list[Path]) -> None:
    """The scan host's file system (see the module docstring)."""
    _mount("-t", "tmpfs", "-o", "mode=1777,size=64m", "subcon-host-shm", "/dev/shm")
    # The interpreter first: a checkout inside the venv is bound on top of it.
    software = [*(p for p in interpreter_paths() if p != SOFTWARE), SOFTWARE]
    binds = [(p, "ro") for p in [*ro, *software]] + [(p, "rw") for p in rw]
    staged = []
    for n, (source, mode) in enumerate(binds):
        stage = STAGE / str(n)
        stage.mkdir(parents=True)
        _mount("--bind", str(source), str(stage))
        if mode == "ro":
            _mount("-o", "remount,bind,ro", str(stage))
        staged.append((stage, source))
    # The host's own scratch /tmp: it also hides whatever of the machine's /tmp a test
    # or a benchmark keeps there (other kernels, logs).
    _mount("-t", "tmpfs", "-o", "mode=1777,size=64m", "subcon-host-tmp", "/tmp")
    root.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", "mode=755,size=1m", "subcon-not-here", str(root))
    for stage, target in staged:
        target.mkdir(parents=True, exist_ok=True)
        _mount("--move", str(stage), str(target))
        stage.rmdir()
    STAGE.rmdir()
    _mount("-o", "remount,ro", str(root))
    mine = {"/tmp", "/dev/shm", str(root)} | {str(t) for _, t in staged}
    for point, fstype in _mount_points():
        if fstype in KEEP or point in mine or point.startswith("/proc/"):
            continue
        # Several mounts may share a point (stacked); each remount hits the top one.
        subprocess.run(["mount", "-o", "remount,bind,ro", point], check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testing.hosts.hostns")
    parser.add_argument("--hostname", required=True)
    parser.add_argument("--view", type=Path, help="hide this dir (kernel + runtime)")
    parser.add_argument("--ro", type=Path, action="append", default=[], help="bind back read-only")
    parser.add_argument(
        "--rw", type=Path, action="append", default=[], help="bind back read-write (pause flags)"
    )
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("no program to run")
    socket.sethostname(args.hostname)
    if args.view is not None:
        build_view(args.view, args.ro, args.rw)
    sys.stdout.flush()
    os.execvp(program[0], program)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
