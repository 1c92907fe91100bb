"""The server's database under real faults, with real clients on the loopback: a WAL that stays
bounded under sustained writes, a full disk (a file-size limit on a server process), a crash
and a lost WAL, a restart with a bot to move, and damaged database files at start."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import queue
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
httpx = pytest.importorskip("httpx", reason="the server extra")

from mahjong_core.server import ServerSettings
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.store import Store, StoreError
from mahjong_core.server.table import STORE_FAILED

import mahjong_core

from .harness import FAST, Client, LiveServer, choose

ENV = dict(os.environ, PYTHONPATH=str(Path(mahjong_core.__file__).resolve().parents[1]))


def _wal(db: str) -> int:
    try:
        return os.path.getsize(db + "-wal")
    except OSError:
        return 0


def test_the_wal_stays_bounded_under_sustained_writes(tmp_path):
    """Eight tables of clients that act at once commit without a pause; the WAL file stays near
    its limit (a PASSIVE checkpoint alone never lets a busy WAL start afresh: it grew without end)."""
    limit = 256 << 10
    s = ServerSettings(db=str(tmp_path / "wal.sqlite3"), bots=False, rounds=1_000_000, seed=1, tick_s=0.05,
                       wal_limit_bytes=limit, checkpoint_s=0.2, **FAST)
    bound = 8 * limit       # half the limit, and what is written while the thread's checkpoint runs
    with LiveServer(s) as srv:
        assert srv.lobby is not None
        store = srv.lobby.store
        seats = [srv.join(f"w{i}", "coins") for i in range(16)]
        sizes: list[int] = []
        # play until the WAL has been written over more than four times its bound (not for a fixed
        # time: a busy machine writes less per second), at most a minute
        end = time.monotonic() + 60.0
        enough = lambda c: store.recycled > 4 * bound or time.monotonic() > end

        async def main() -> None:
            clients = [Client(srv.ws_url, seat) for seat in seats]
            for c in clients:
                await c.open()

            async def sample() -> None:
                while not enough(None):
                    sizes.append(_wal(s.db))
                    await asyncio.sleep(0.02)

            await asyncio.gather(sample(), *(c.play(enough, timeout=90) for c in clients))
            for c in clients:
                await c.close()

        asyncio.run(main())
        restarts, recycled = store.restarts, store.recycled
    assert max(sizes) <= bound, (max(sizes), restarts, recycled)
    assert restarts > 0 and recycled > 4 * bound, (restarts, recycled)   # without them: an ever larger WAL


# ------------------------------------------------------------------ a full disk, a crash, a lost WAL
_LIMITED = """
import resource, sys
from mahjong_core.cli import main
size = int(sys.argv[1])
if size:   # a write past it fails with EFBIG (Python ignores SIGXFSZ), as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
sys.exit(main(sys.argv[2:]))
"""
"""``mahjong-core`` under a file-size limit (argv[1] bytes; 0: none), the rest of argv its arguments."""


class ServerProcess:
    """``mahjong-core serve`` in a child process (``--port 0``), optionally under a file-size
    limit (RLIMIT_FSIZE: a write past it fails with EFBIG, as on a full disk)."""

    def __init__(self, db: Path, *args: str, fsize: int | None = None) -> None:
        cmd = [sys.executable, "-c", _LIMITED, str(fsize or 0), "serve", "--port", "0", "--db", str(db), "--no-bots",
               "--rounds", "1000", "--act-timeout", "600", "--rate", "10000", "--burst", "10000",
               "--claim-pause", "0", "--tick", "0.05", "--seed", "3", *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
        # every line is read by a thread, to the end: a test never blocks on a server that prints
        # nothing, and a server never blocks on a full pipe
        self.lines: "queue.Queue[str]" = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        end = time.monotonic() + 60
        port = None
        while port is None:   # the command's first line names the port it bound (--port 0)
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                self.proc.kill()
                pytest.fail("the server named no port in 60 s: " + "".join(self.output))
            if not line:
                pytest.fail("the server ended before naming its port: " + "".join(self.output))
            found = re.match(r"mahjong-core serve: http://127\.0\.0\.1:(\d+)/ ", line)
            port = int(found.group(1)) if found else None
        self.base = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}/ws"
        while True:   # bound at once; answering once uvicorn has started
            try:
                httpx.get(self.base + "/", timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > end or self.proc.poll() is not None:
                    self.proc.kill()
                    pytest.fail(f"the server does not answer on port {port}: " + "".join(self.output))
                time.sleep(0.1)

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put("")   # the end of the output

    def join(self, name: str, room: str = "coins") -> dict[str, Any]:
        r = httpx.post(self.base + "/api/join", json={"name": name, "room": room}, timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def kill(self) -> None:
        """A crash: SIGKILL, nothing flushed, nothing closed."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)


def _stored_events(db: Path, table: str, seat: int) -> list[dict[str, Any]]:
    store = Store(str(db), checkpoint_s=None)
    try:
        return [json.loads(e) for e in store.events(table, seat)]
    finally:
        store.close()


def test_a_full_disk_sends_nothing_unstored_and_nothing_diverges_after_a_crash(tmp_path):
    """Under a file-size limit the database stops growing mid-match: the acting client gets an
    error frame (not a dropped connection), no client is sent an event the database does not
    hold, and after a crash and a restart (no limit) every client's stream is a prefix of the
    stored one and the match plays on to its end from there."""
    db = tmp_path / "full.sqlite3"
    srv = ServerProcess(db, "--init", "--wal-limit-mib", "1", "--checkpoint-every", "0.05", fsize=320 << 10)
    try:
        a, b = srv.join("fay"), srv.join("gus")
        ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)

        async def until_full() -> None:
            await ca.open()
            await cb.open()
            full = lambda c: STORE_FAILED in ca.errors + cb.errors
            await asyncio.gather(ca.play(full, timeout=120), cb.play(full, timeout=120))
            # the table is stalled, not broken: both connections are open, a ping is answered
            for c in (ca, cb):
                await c.send({"type": "ping"})
                while (await c.recv())["type"] != "pong":
                    pass

        asyncio.run(until_full())
        held = {0: list(ca.events), 1: list(cb.events)}
    finally:
        srv.kill()
    for c, seat in ((ca, a), (cb, b)):      # nothing was sent that the database does not hold
        assert held[seat["seat"]] == _stored_events(db, a["table"], seat["seat"])[:len(held[seat["seat"]])]
    again = ServerProcess(db)               # the disk has room again; no --init: the database is there
    try:
        ca.url = cb.url = again.ws_url

        async def resume() -> None:
            for c in (ca, cb):
                welcome = await c.open()
                assert not welcome["reset"]
                await c.recv()
            more = lambda c: len(ca.events) > len(held[a["seat"]]) + 30
            await asyncio.gather(ca.play(more, timeout=60), cb.play(more, timeout=60))
            for c in (ca, cb):
                await c.close()

        asyncio.run(resume())
    finally:
        again.kill()
    for c, seat in ((ca, a), (cb, b)):
        assert c.events[:len(held[seat["seat"]])] == held[seat["seat"]]
        assert c.events == _stored_events(db, a["table"], seat["seat"])[:len(c.events)]


def last_discard(view: dict[str, Any]) -> int:
    """Another policy than :func:`choose`: never win or claim, discard the last legal tile."""
    pairs = list(zip(view["legal_actions"], view["legal_indices"]))
    for kind in ("pass", "discard"):
        chosen = [i for a, i in pairs if a["type"] == kind]
        if chosen:
            return int(chosen[-1])
    return int(pairs[-1][1])


def test_after_a_lost_wal_the_welcome_tells_a_client_to_drop_its_history(tmp_path):
    """A crash that loses the WAL (the last commits): the clients hold more than the database.
    A client resuming with its last id and history is told ``reset`` and sent the stored stream
    from event 1, also when the table has meanwhile grown past what it held, with other events."""
    db = tmp_path / "lost.sqlite3"
    srv = ServerProcess(db, "--init", "--checkpoint-every", "3600")   # no checkpoint: all in the WAL
    try:
        a, b = srv.join("hal"), srv.join("ida")
        con = sqlite3.connect(db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")    # the join is in the database file ...
        con.close()
        ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)

        async def play() -> None:
            await ca.open()
            await cb.open()
            enough = lambda c: len(ca.events) > 30
            await asyncio.gather(ca.play(enough), cb.play(enough))

        asyncio.run(play())
        history = [ca.state["history"], cb.state["history"]]   # type: ignore[index]
    finally:
        srv.kill()
    os.remove(str(db) + "-wal")                           # ... the match's steps are lost
    stored_now = _stored_events(db, a["table"], 0)
    assert len(stored_now) < len(ca.events)
    again = ServerProcess(db)
    try:
        async def resume() -> None:
            ca.url = cb.url = again.ws_url
            welcome = await ca.open(history=history[0])    # holds more than the server: reset
            assert welcome["reset"] and welcome["resume_from"] == 0 and welcome["last_id"] == len(stored_now)
            await ca.recv()
            assert ca.events == stored_now
            # the table grows past what the other client held, and differently: that client
            # comes back with the length and the history of before the crash
            cb.events = []
            await cb.open(last_id=0)
            await cb.recv()
            enough = lambda c: len(ca.events) > 80
            await asyncio.gather(ca.play(enough, policy=last_discard), cb.play(enough, policy=last_discard))
            await cb.close()
            stale = Client(again.ws_url, b)
            stale.events = list(held_b)
            welcome = await stale.open(history=history[1])  # same length range, another history
            assert welcome["reset"] and welcome["resume_from"] == 0
            await stale.recv()
            assert stale.events == _stored_events(db, b["table"], 1)[:len(stale.events)]
            assert stale.state is not None and stale.state["history"] == cb.state["history"]  # type: ignore[index]
            # an up-to-date client is not reset
            await stale.close()
            fresh = Client(again.ws_url, b)
            fresh.events = list(stale.events)
            welcome = await fresh.open(history=stale.state["history"])
            assert not welcome["reset"] and welcome["resume_from"] == len(stale.events)
            await fresh.close()
            await ca.close()

        held_b = list(cb.events)
        asyncio.run(resume())
    finally:
        again.kill()


# ------------------------------------------------------------------ restart with a bot to move
def test_after_a_restart_a_bot_whose_move_is_next_moves_at_once(tmp_path, monkeypatch):
    """A table stored with its bot to move (the server stopped between the human's commit and
    the bot's): after a restart the bot moves at the first tick of the clock, not after the act
    timeout (60 s here)."""
    s = ServerSettings(db=str(tmp_path / "bot.sqlite3"), bots=True, rounds=2, seed=7, act_timeout_s=60.0,
                       tick_s=0.05, init=True, **FAST)
    lobby = Lobby(s)
    a = lobby.join("jo", "coins")
    table = lobby.tables[a["table"]]
    human, bot = a["seat"], 1 - a["seat"]
    real = Store.commit
    commits: list[int] = []

    def second_fails(self: Store, row: Any, change: Any) -> None:
        commits.append(1)
        if len(commits) == 2:          # the bot's answer to the human's move: the server dies here
            raise StoreError(f"database {s.db}: storing table {row.id} failed: disk I/O error")
        real(self, row, change)

    monkeypatch.setattr(Store, "commit", second_fails)
    for _ in range(200):
        assert table.match is not None
        commits.clear()
        assert table.act(human, choose(table.match.round.view(human))) is None
        if len(commits) >= 2:
            break
    monkeypatch.setattr(Store, "commit", real)
    assert table.match is not None and table.match.seats_to_act() == [bot]
    held = [json.loads(e) for e in table.seats[human].stream]   # type: ignore[union-attr]
    lobby.close()
    t0 = time.monotonic()
    with LiveServer(dataclasses.replace(s, init=False)) as srv:
        c = Client(srv.ws_url, a)
        c.events = list(held)

        async def main() -> float:
            await c.open()                     # the events after the restart only
            while not any(ev.get("seat") == bot for ev in c.events[len(held):]):   # the bot's move, drawn or
                await c.recv(timeout=10.0)                                    # discarded
            await c.close()
            return time.monotonic() - t0

        waited = asyncio.run(main())
    assert waited < 5.0       # the server's start included; the act timeout is 60 s


def test_damaged_databases_are_refused_with_their_path(tmp_path):
    """A missing or empty file without --init, a file that is not a database, a truncated one and
    another program's database: one line naming the path, exit status 2, no traceback; --init
    makes a new database only where there is none."""
    cases: dict[str, bytes | None] = {"missing": None, "empty": b"", "text": b"hello, not a database\n" * 100}
    for name, content in cases.items():
        path = tmp_path / f"{name}.sqlite3"
        if content is not None:
            path.write_bytes(content)
        proc = subprocess.run([sys.executable, "-m", "mahjong_core", "serve", "--port", "0", "--db", str(path)],
                              capture_output=True, text=True, env=ENV, timeout=60, check=False)
        assert proc.returncode == 2, (name, proc.stderr)
        assert str(path) in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith("mahjong-core: error: database"), proc.stderr
    # a real database, truncated (a copy cut short): SQLite's checks find it
    good = tmp_path / "good.sqlite3"
    lobby = Lobby(ServerSettings(db=str(good), init=True, claim_pause_s=0.0))
    for n in range(40):
        lobby.join(f"p{n}", "coins")
    lobby.close()
    data = good.read_bytes()
    cut = tmp_path / "cut.sqlite3"
    cut.write_bytes(data[: len(data) // 2])
    foreign = tmp_path / "foreign.sqlite3"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE notes (x TEXT)")
    con.commit()
    con.close()
    for path, why in ((cut, "damaged|cannot be read|malformed"), (foreign, "not a mahjong-core server database")):
        for init in (False, True):        # --init never replaces an existing database
            with pytest.raises(StoreError, match=why) as err:
                Lobby(ServerSettings(db=str(path), init=init))
            assert str(path) in str(err.value)
    # --init: a new database where there was none (missing, or an empty file)
    empty = tmp_path / "empty.sqlite3"
    for path in (tmp_path / "new.sqlite3", empty):
        lobby = Lobby(ServerSettings(db=str(path), init=True))
        assert lobby.rooms() and not lobby.tables
        lobby.close()
        Lobby(ServerSettings(db=str(path))).close()      # and it opens without --init afterwards
