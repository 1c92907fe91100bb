"""Run a command and measure the peak memory of its whole process tree; fail above a limit.

Usage: ``python tools/peak_memory.py --limit-mb 2048 [--interval 0.1] -- COMMAND [ARG ...]``

Why a tree and how: the test command runs pytest with ``-n 2``, so the tests run in xdist worker
processes, children of the pytest process, and the hostile tests start interpreters of their own
below those.  ``/usr/bin/time -v`` and ``getrusage(RUSAGE_CHILDREN)`` report the largest *single*
process (``ru_maxrss`` is a maximum over processes, not a sum), which would miss two workers
at 1.5 GB each.  So a sampler reads ``/proc`` every ``--interval`` seconds: it finds every
descendant of the command (the ``PPid`` of each ``/proc/<pid>/status``), adds up their resident
set sizes (``VmRSS``) and keeps the largest sum seen, with the processes that made it up.  RSS
counts a page shared by two processes (libraries, the pages a forked worker has not written)
once in each, so the sum is an upper bound of what the tree needs: a tree under the limit by
this measure fits in it.  A process that lives and dies between two samples is not seen; the
memory that matters (a worker's growing heap, a test's big list) lives for many samples.  Needs
Linux's ``/proc``; no cgroups, no psutil.

Exit status: the command's own when it fails; otherwise 0, or 3 when the peak is above the
limit (a line on standard error says which).  The last line on standard error is always the
measurement (``peak memory of the process tree: ...``); ``--report FILE`` also writes it as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading

EXIT_OVER_LIMIT = 3
"""Exit status when the command succeeded but its tree's peak memory was above the limit."""


def _status(pid: int) -> "dict[str, str] | None":
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:   # the process ended meanwhile
        return None


def tree_rss(root: int) -> tuple[int, list[tuple[int, str, int]]]:
    """``(total bytes, [(pid, name, bytes), ...])``: the resident memory of ``root`` and every
    descendant running now."""
    parents: dict[int, int] = {}
    info: dict[int, tuple[str, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        st = _status(int(entry))
        if st is None:
            continue
        try:
            parents[int(entry)] = int(st.get("PPid", "0"))
            rss_kb = int(st.get("VmRSS", "0 kB").split()[0])   # absent for a zombie: 0
        except ValueError:
            continue
        info[int(entry)] = (st.get("Name", "?"), rss_kb * 1024)
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    members, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in info:
            members.append((pid, *info[pid]))
        todo.extend(children.get(pid, ()))
    return sum(m[2] for m in members), members


class Sampler(threading.Thread):
    """Samples the tree of ``root`` every ``interval`` seconds until :meth:`stop`."""

    def __init__(self, root: int, interval: float) -> None:
        super().__init__(daemon=True)
        self.root, self.interval = root, interval
        self.peak, self.peak_members, self.samples = 0, [], 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            self.sample()
            self._done.wait(self.interval)

    def sample(self) -> None:
        total, members = tree_rss(self.root)
        self.samples += 1
        if total > self.peak:
            self.peak, self.peak_members = total, members

    def stop(self) -> None:
        self._done.set()
        self.join()


def _mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit-mb", type=float, required=True, help="fail above this peak (MB, 2**20 bytes)")
    ap.add_argument("--interval", type=float, default=0.1, help="seconds between two samples (default: 0.1)")
    ap.add_argument("--report", help="also write the measurement to this file as JSON")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command (after --)")
    args = ap.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no command given")
    if not os.path.isdir("/proc/self"):
        ap.error("needs Linux's /proc")
    proc = subprocess.Popen(command)
    sampler = Sampler(proc.pid, args.interval)
    sampler.start()
    try:
        status = proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)
        status = proc.wait()
    sampler.stop()
    limit = int(args.limit_mb * 2**20)
    top = sorted(sampler.peak_members, key=lambda m: -m[2])[:6]
    line = (f"peak memory of the process tree: {_mb(sampler.peak)} (sum of resident memory over "
            f"{len(sampler.peak_members)} processes; {sampler.samples} samples every {args.interval:g} s; limit "
            f"{_mb(limit)}; largest: {', '.join(f'{name} {pid} {_mb(rss)}' for pid, name, rss in top)})")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"peak_bytes": sampler.peak, "limit_bytes": limit, "samples": sampler.samples,
                       "interval_s": args.interval, "processes": [list(m) for m in top],
                       "command_status": status}, f)
    over = sampler.peak > limit
    if over:
        print(f"peak_memory: the process tree used {_mb(sampler.peak)}, above the limit of {_mb(limit)}",
              file=sys.stderr)
    print(line, file=sys.stderr, flush=True)
    if status != 0:
        return status if status > 0 else 128 - status
    return EXIT_OVER_LIMIT if over else 0


if __name__ == "__main__":
    sys.exit(main())
