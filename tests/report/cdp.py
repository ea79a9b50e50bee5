"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

Chromium reads NUL-terminated JSON commands on fd 3 and writes responses and events
on fd 4, so no websocket library (and no open port) is needed. Only what the report
tests use: open a page, collect console / exception / network events, evaluate an
expression, take a screenshot (whole or of an area), name the fonts a node was drawn with.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import queue
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

from testing.waiting import poll_until

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    """A headless Chromium process driven through the DevTools pipe."""

    def __init__(self, binary: str, profile: Path, width: int = 1400, height: int = 1000) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # Keep the pipe ends well above 3 and 4 so the child's dup2 never hits itself.
        self._child_in = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        self._child_out = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r)
        os.close(from_child_w)
        self._write_fd = to_child_w
        self._read_fd = from_child_r
        argv = [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            "about:blank",
        ]
        devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        # posix_spawn's dup2 actions put the pipe ends on fds 3 and 4 in the child only
        # (no preexec_fn, so it is safe with other threads running).
        actions = [
            (os.POSIX_SPAWN_DUP2, devnull, 0),
            (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2),
            (os.POSIX_SPAWN_DUP2, self._child_in, 3),
            (os.POSIX_SPAWN_DUP2, self._child_out, 4),
        ]
        try:
            self.pid = os.posix_spawn(binary, argv, dict(os.environ), file_actions=actions)
        finally:
            os.close(devnull)
        os.close(self._child_in)
        os.close(self._child_out)
        self._next_id = 0
        self._responses: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.session: str | None = None

    def _read_loop(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._read_fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._inbox.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                self._inbox.put(json.loads(raw))

    def _pump(self, timeout: float) -> bool:
        try:
            message = self._inbox.get(timeout=timeout)
        except queue.Empty:
            return False
        if message is None:
            raise CdpError("chromium closed the DevTools pipe")
        if "id" in message:
            self._responses[message["id"]] = message
        else:
            self.events.append(message)
        return True

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> Any:
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._write_fd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while ident not in self._responses:
            if time.monotonic() > deadline:
                raise CdpError(f"no answer to {method} within {timeout} s")
            self._pump(0.1)
        reply = self._responses.pop(ident)
        if "error" in reply:
            raise CdpError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_for(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method:
                    return event
            seen = len(self.events)
            if time.monotonic() > deadline:
                raise CdpError(f"no {method} event within {timeout} s")
            self._pump(0.1)

    def settle(self, seconds: float) -> None:
        """Keep collecting events for ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._pump(0.05)

    def open(self, url: str) -> None:
        """A fresh page with console, log and network events on, navigated to ``url``."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable")
        self.events.clear()
        self.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")
        self.settle(0.5)

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise CdpError(f"evaluate failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        path.write_bytes(base64.b64decode(data["data"]))
        return path

    def clip(self, rect: dict[str, float]) -> bytes:
        """A PNG of the page area ``rect`` (``x``, ``y``, ``width``, ``height`` in CSS
        pixels of the page, as ``getBoundingClientRect`` plus the scroll offset)."""
        clip = {**rect, "scale": 1}
        data = self.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": clip, "captureBeyondViewport": True},
        )
        return base64.b64decode(data["data"])

    def platform_fonts(self, selector: str) -> list[dict[str, Any]]:
        """The fonts Chromium drew the text of the first ``selector`` match with:
        ``familyName``, ``isCustomFont`` and ``glyphCount`` each."""
        self.send("DOM.enable")
        self.send("CSS.enable")
        root = self.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            raise CdpError(f"no element matches {selector!r}")
        fonts: list[dict[str, Any]] = self.send("CSS.getPlatformFontsForNode", {"nodeId": node})[
            "fonts"
        ]
        return fonts

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error-level log entries seen so far."""
        out = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(json.dumps(params.get("args")))
            elif method == "Runtime.exceptionThrown":
                out.append(json.dumps(params.get("exceptionDetails")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(params["entry"].get("text", ""))
        return out

    def requests(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e.get("method") == "Network.requestWillBeSent"
        ]

    def close(self) -> None:
        with contextlib.suppress(CdpError, OSError):
            self.send("Browser.close", timeout=5)
        if not self._reaped(10):
            os.kill(self.pid, signal.SIGKILL)
            self._reaped(10)
        for fd in (self._write_fd, self._read_fd):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _reaped(self, timeout: float) -> bool:
        def reaped() -> bool:
            try:
                pid, _status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return True
            return pid != 0

        return poll_until(reaped, timeout, poll=0.05) is not None

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
