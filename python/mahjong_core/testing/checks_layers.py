"""Checks of what the shared layers make of a family: results with the common fields, ``simulate``
and every command of ``mahjong-core`` (each works, or refuses with the documented error naming the
family)."""

from __future__ import annotations

import io
import json
import shlex
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Any, Iterator

from .. import cli
from ..errors import UnsupportedError
from ..families.registry import DEFAULT_RULESET
from ..game import contract
from ..simulation.runner import simulate
from .subject import Subject

__all__ = ["check_results", "check_simulate", "check_cli", "run_cli", "COMMANDS"]

COMMANDS = ("hand", "score", "match", "simulate", "play")
"""The shared commands every ruleset answers (works, or an UnsupportedError naming its family)."""


def check_results(s: Subject) -> None:
    """Every finished round's result has the common fields of
    :class:`~mahjong_core.game.contract.Result`: ``end`` (a string, ``"win"`` exactly when there are
    winners), ``winners`` (records with ``seat`` and ``total``), ``winner`` (the first one's seat),
    ``deltas`` (one per seat summing to 0, or None), ``dealer`` (the round's), ``next_dealer`` (a
    seat) and ``to_dict()`` (plain JSON data)."""
    for engine in s.engines:
        for r in s.finished_rounds(engine):
            res = r.result
            at = f"{engine} engine, seed {r.seed}: the result"
            s.expect(isinstance(res, contract.Result), f"{at} is a {type(res).__name__}, not a contract.Result")
            d = res.to_dict()
            s.expect(isinstance(d, dict) and json.loads(json.dumps(d)) == d, f"{at}'s to_dict() is not plain JSON data")
            s.expect(d == r._result, f"{at}'s to_dict() is not the round's state")
            s.expect(isinstance(res.end, str) and res.end, f"{at}: end {res.end!r} is not a name")
            winners = res.winners
            s.expect(isinstance(winners, list) and all(isinstance(w, dict) and {"seat", "total"} <= set(w)
                                                       for w in winners),
                     f"{at}: winners {winners!r} are not records with seat and total")
            s.expect(all(type(w["seat"]) is int and 0 <= w["seat"] < r.players for w in winners),
                     f"{at}: a winner's seat is not a seat: {winners!r}")
            s.expect((res.end == "win") == bool(winners), f"{at}: end {res.end!r} with {len(winners)} winners")
            s.expect(res.winner == (winners[0]["seat"] if winners else None),
                     f"{at}: winner {res.winner!r} is not the first winner's seat")
            deltas = res.deltas
            if deltas is not None:
                s.expect(isinstance(deltas, list) and len(deltas) == r.players and sum(deltas) == 0,
                         f"{at}: deltas {deltas!r} are not one per seat summing to 0")
            s.expect(res.dealer == r.dealer, f"{at}: dealer {res.dealer!r}, but the round's is {r.dealer}")
            s.expect(type(res.next_dealer) is int and 0 <= res.next_dealer < r.players,
                     f"{at}: next_dealer {res.next_dealer!r} is not a seat")
            again = type(r).RESULT_TYPE(d)
            s.expect(again.to_dict() == d and again.next_dealer == res.next_dealer and again.end == res.end,
                     f"{at}: RESULT_TYPE(to_dict()) is not the same result")


def check_simulate(s: Subject) -> None:
    """``mahjong_core.simulate`` runs a tiny batch of the ruleset (reproducible from its seed, with
    JSON statistics), or raises the UnsupportedError naming the family when it offers none."""
    names = s.bot_names()
    bots = names[:1] or ("greedy",)
    if s.family.simulation is None:
        try:
            simulate(s.ruleset, 2, bots=bots, seed=s.seed)
        except UnsupportedError as exc:
            s.expect(s.family.name in str(exc), f"simulate's refusal does not name the family: {exc}")
            return
        s.fail("simulate ran although the family registers no simulation hooks")
    runs = [simulate(s.ruleset, 2, bots=bots, seed=s.seed, batch_size=1) for _ in range(2)]
    texts = [run.to_json() for run in runs]
    s.expect(texts[0] == texts[1], "two simulations of the same seed differ")
    s.expect(isinstance(json.loads(texts[0]), dict) and json.loads(json.dumps(runs[0].to_dict())) == runs[0].to_dict(),
             "the simulation's statistics are not plain JSON data")


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``mahjong-core ARGV`` run in this process: (exit status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = cli.main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def _error_of(out: str, err: str) -> dict[str, Any]:
    """The error a command reported (``--json``: the object on standard output, else the line on
    standard error)."""
    try:
        doc = json.loads(out)
    except ValueError:
        return {"type": "", "kind": "", "message": err.strip()}
    return doc.get("error", {}) if isinstance(doc, dict) else {}


def _examples(s: Subject, command: str) -> Iterator[list[str]]:
    """The family's example lines of ``command`` that play this ruleset (each must exit 0)."""
    hooks = s.family.cli
    for line in (hooks.examples.get(command, ()) if hooks is not None else ()):
        argv = shlex.split(line)[1:]
        ruleset = argv[argv.index("--ruleset") + 1] if "--ruleset" in argv else DEFAULT_RULESET
        if ruleset == s.ruleset:
            yield argv


def _argv(s: Subject, command: str) -> list[str]:
    """A run of ``command`` for the ruleset with only shared arguments (hand and score get a
    malformed hand: a family must refuse it with its own error, never fail inside)."""
    rs = ["--ruleset", s.ruleset]
    bots = ["--bots", s.bot_names()[0]] if s.bot_names() else []
    return {"hand": ["hand", "zz", *rs, "--json"],
            "score": ["score", "zz", "--win", "zz", *rs, "--json"],
            "match": ["match", *rs, "--rounds", "1", "--seed", str(s.seed), *bots, "--json"],
            "simulate": ["simulate", *rs, "-n", "2", "--batch-size", "1", "--workers", "1", "--seed", str(s.seed),
                         *bots, "--json", "--quiet"],
            "play": ["play", *rs, "--seed", str(s.seed)]}[command]


def _offers(s: Subject, command: str) -> bool:
    hooks = s.family.cli
    if command == "simulate":
        return s.family.simulation is not None
    return hooks is not None and command in hooks.commands and (
        command != "play" or s.ruleset in hooks.play_rulesets())


def check_cli(s: Subject) -> None:
    """Each shared command (``hand``, ``score``, ``match``, ``simulate``, ``play``, run in this process
    through :func:`mahjong_core.cli.main`) with ``--ruleset``: a command the family offers runs its
    examples for the ruleset (exit 0), plays a match and a simulation (one JSON object), and refuses
    bad input with the library's error (never an internal error); a command it does not offer
    exits non-zero with an UnsupportedError naming the family."""
    for command in COMMANDS:
        argv = _argv(s, command)
        status, out, err = run_cli(argv)
        error = _error_of(out, err) if status else {}
        at = f"mahjong-core {shlex.join(argv)}"
        if not _offers(s, command):
            s.expect(status != 0, f"{at} exits 0 although the family does not offer {command}")
            # with --json the error's type is reported; play (no --json) reports its message only
            s.expect(error.get("type") in ("UnsupportedError", "") and f"the {s.family.name} family" in
                     str(error.get("message")),
                     f"{at} refuses with {error}, not an UnsupportedError naming the family {s.family.name!r}")
            continue
        s.expect("internal error" not in str(error.get("message", "")), f"{at} fails inside: {error}")
        if command in ("match", "simulate"):
            s.expect(status == 0, f"{at} exits {status}: {error}")
            s.expect(isinstance(json.loads(out), dict), f"{at} does not print one JSON object")
        elif command == "play":   # an empty terminal: the game starts and ends at the end of input
            s.expect(status == 0, f"{at} (no input) exits {status}: {error}")
        elif command in ("hand", "score"):
            s.expect(status != 0 and error.get("kind") == "usage",
                     f"{at} (a malformed hand) exits {status} with {error}, not a usage error")
        for example in _examples(s, command):
            if command == "play":
                continue   # interactive: the run above read an empty terminal
            status, out, err = run_cli(example)
            s.expect(status == 0, f"the example mahjong-core {shlex.join(example)} exits {status}: "
                     f"{_error_of(out, err)}")
