"""An external bot program run as Botzone runs it: a fresh process per request fed the whole
history, or one kept alive between requests when the program asks for it (it prints
:data:`~.protocol.KEEP_RUNNING` after its response and is then fed each new request alone), under
a time limit per request.

The limits are wall-clock seconds on this machine (Botzone's sandbox counts its own; its limits
per language, from the Botzone team's local runner ``botzone/online/compiler.py`` of
``ailab-pku/botzone-local``: C/C++ 1 s, Java 3 s then 2 s, JavaScript 2 s, Python 6 s for the
first request then 4 s for each request of a kept-alive process).  The verdicts are Botzone's:
``OK``, ``TLE`` (no answer in time: the process is killed), ``RE`` (the process ended without an
answer, or with a non-zero status).
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, Sequence

from .protocol import KEEP_RUNNING

__all__ = ["BotProcess", "Turn"]


@dataclass(frozen=True)
class Turn:
    """One request's run: the verdict, the lines the program printed (the keep-running line
    left out), the seconds it took, and whether the process stays alive for the next request."""

    verdict: str
    lines: "tuple[str, ...]"
    seconds: float
    kept: bool
    note: str = ""


def _pump(stream: IO[str], q: "queue.Queue[str | None]") -> None:
    try:
        for line in stream:
            q.put(line.rstrip("\r\n"))
    except (OSError, ValueError):   # closed under us when the process is killed
        pass
    q.put(None)


class BotProcess:
    """The program ``command`` (an argument list) in directory ``cwd``; ``keep_running`` says
    whether it may stay alive (Botzone's per-bot "allow keep running" setting: without it the
    input ends after the request, as for a program that reads to the end of its input)."""

    def __init__(self, command: Sequence[str], *, keep_running: bool = False, cwd: "str | None" = None,
                 env: "dict[str, str] | None" = None, stderr: Any = subprocess.DEVNULL) -> None:
        self.command = list(command)
        self.keep_running = keep_running
        self.cwd = cwd
        self.env = env
        self.stderr = stderr
        self._proc: "subprocess.Popen[str] | None" = None
        self._lines: "queue.Queue[str | None]" = queue.Queue()

    @property
    def alive(self) -> bool:
        """True while a kept-alive process waits for its next request."""
        return self._proc is not None and self._proc.poll() is None

    def pid(self) -> "int | None":
        return None if self._proc is None else self._proc.pid

    def run(self, fresh_input: str, next_input: str, time_limit: float, kept_time_limit: float) -> Turn:
        """Run one request: ``next_input`` to a kept-alive process (limit ``kept_time_limit``),
        else ``fresh_input`` to a new one (limit ``time_limit``)."""
        start = time.monotonic()
        if self.alive:
            limit, text = kept_time_limit, next_input
        else:
            self.close()
            limit, text = time_limit, fresh_input
            self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self.stderr, text=True, bufsize=1, cwd=self.cwd,
                                          env=None if self.env is None else {**os.environ, **self.env})
            self._lines = queue.Queue()
            assert self._proc.stdout is not None
            threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(text)
            proc.stdin.flush()
            if not self.keep_running:
                proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass    # it died before reading: its exit below says so
        lines: list[str] = []
        deadline = start + limit
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0)) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                self.close()
                return Turn("TLE", tuple(lines), time.monotonic() - start, False,
                            f"no answer within {limit:g} s")
            if line is None:          # the process closed its output: it ended
                try:
                    rc = proc.wait(timeout=max(deadline - time.monotonic(), 0.05))
                except subprocess.TimeoutExpired:
                    self.close()
                    return Turn("TLE", tuple(lines), time.monotonic() - start, False,
                                f"did not exit within {limit:g} s")
                self._proc = None
                took = time.monotonic() - start
                if rc != 0:
                    return Turn("RE", tuple(lines), took, False, f"exit status {rc}")
                if not lines:
                    return Turn("RE", (), took, False, "ended without printing a response")
                return Turn("OK", tuple(lines), took, False)
            if line == KEEP_RUNNING and self.keep_running:
                return Turn("OK", tuple(lines), time.monotonic() - start, True)
            lines.append(line)

    def close(self) -> None:
        """End the process if one is alive (killed: Botzone does not wait for a bot)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:   # pragma: no cover - a kill is not refused
            pass
        for f in (proc.stdin, proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
