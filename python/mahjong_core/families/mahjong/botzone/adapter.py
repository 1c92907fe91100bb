"""An external program speaking the Botzone protocol as a seat of our round: :class:`BotzoneBot`,
a bot of the shared contract (``act_index(round, seat)``), so it sits wherever our bots do
(:func:`mahjong_core.play_round`, :func:`mahjong_core.play_match`, the duplicate match).

When our round asks its seat to act, the bot first sends the program every request the seat has
received since it was last asked (:func:`.feed.requests_for`), as Botzone sends every request to
every player; each answer is checked as Botzone's judge checks it, and the last request is the one
the decision answers.  A claim's discard (``PENG T``, ``CHI M T``) is kept for the discard our round
asks for next.  Every request gives a :class:`Decision` in :attr:`BotzoneBot.record`.

Faults, as the judge (``judge/main.cpp`` of ``ailab-pku/Chinese-Standard-Mahjong``) rules them:
a verdict other than OK (TLE, RE), a response of no allowed form or not allowed by our round
(``WA``: ``playerError(player, "WA")``), or ``HU`` on a hand that is not a win (``WH``: the
judge's ``checkHu`` with fewer than 8 fan) end the game: the offender scores -30 and each other
player +10 (``playerError``).  With ``on_fault="forfeit"`` (the default) the bot raises
:class:`BotzoneForfeit` carrying those scores (:func:`play_game` turns it into the game's outcome);
with ``on_fault="pass"`` the round goes on and the seat plays the fallback for the rest of the
round (pass when it may, else discard the tile it drew, else its first legal action), each
such decision recorded.
"""

from __future__ import annotations

import shlex
import weakref
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from ....errors import BotzoneForfeit, MahjongError
from .._constants import A_CHI_HIGH, A_CHI_LOW, A_CHI_MID, A_KONG_CLAIM, A_KONG_SELF, A_PASS, A_PON, A_WIN
from .feed import Request, requests_for
from .process import BotProcess
from .protocol import (
    BotzoneProtocolError, Response, json_input, keep_running_input, parse_output, parse_response, simple_input,
)

__all__ = ["BotzoneBot", "BotzoneForfeit", "Decision", "GameOutcome", "play_game", "FORFEIT_SCORES"]

FORFEIT_SCORES = (-30, 10)
"""The judge's scores of a faulty game: the offender's, and each other player's (``playerError``)."""


@dataclass
class Decision:
    """What happened on one request: the request and the response line, the verdict (``OK``,
    ``TLE``, ``RE``, ``WA``, ``WH``, or ``FALLBACK`` for a decision made for a faulted bot), whether
    our round asked the seat to decide on it, the action index played (None when none), the
    seconds the program took, and a note."""

    turn: int
    request: str
    response: "str | None"
    verdict: str
    asked: bool
    action: "int | None" = None
    seconds: float = 0.0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _forfeit(seat: int, players: int, decision: Decision) -> BotzoneForfeit:
    """The judge's end of the game on ``decision``, a fault of ``seat``."""
    note = f": {decision.note}" if decision.note else ""
    lose, gain = FORFEIT_SCORES
    return BotzoneForfeit(seat, [lose if s == seat else gain for s in range(players)], decision, f"seat {seat}: {decision.verdict} on request {decision.turn} "
                                                   f"({decision.request!r} answered {decision.response!r}){note}")


class BotzoneBot:
    """A program speaking the Botzone protocol of Chinese Standard Mahjong, as a bot.

    ``command``: the program, an argument list or a shell-like string.  ``json``: the JSON
    envelope instead of simple interaction.  ``keep_running``: the program may stay alive between
    requests (Botzone's per-bot setting).  ``time_limit`` / ``kept_time_limit``: seconds for a
    request to a fresh process / to a kept-alive one (default Botzone's C++ limits, 1 s each).
    ``on_fault``: ``"forfeit"`` or ``"pass"`` (module docstring).  ``cwd``, ``env``, ``stderr``:
    for the subprocess.  :meth:`close` ends a kept-alive process (also done when a new round starts
    and when the bot is collected)."""

    name = "botzone"

    def __init__(self, command: "str | Sequence[str]", *, json: bool = False, keep_running: bool = False,
                 time_limit: float = 1.0, kept_time_limit: "float | None" = None, on_fault: str = "forfeit",
                 cwd: "str | None" = None, env: "dict[str, str] | None" = None, stderr: Any = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise MahjongError(f"command must be a program and its arguments, got {command!r}")
        if on_fault not in ("forfeit", "pass"):
            raise MahjongError(f"on_fault must be 'forfeit' or 'pass', got {on_fault!r}")
        for what, v in (("time_limit", time_limit), ("kept_time_limit", kept_time_limit)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 600):
                raise MahjongError(f"{what} must be a number of seconds in (0, 600], got {v!r}")
        import subprocess
        self.json = bool(json)
        self.time_limit = float(time_limit)
        self.kept_time_limit = float(kept_time_limit if kept_time_limit is not None else time_limit)
        self.on_fault = on_fault
        self.process = BotProcess(argv, keep_running=keep_running, cwd=cwd, env=env,
                                  stderr=subprocess.DEVNULL if stderr is None else stderr)
        self._finalizer = weakref.finalize(self, self.process.close)
        self.record: list[Decision] = []
        self._round: Any = None
        self._reset(None)

    # ------------------------------------------------------------------ per round
    def _reset(self, rnd: Any) -> None:
        self.process.close()
        self._round = rnd
        self.record = []
        self._requests: list[str] = []
        self._responses: list[str] = []
        self._data: "str | None" = None
        self._globaldata: "str | None" = getattr(self, "_globaldata", None)   # kept across games, as Botzone
        self._held: "int | None" = None      # the discard of a claim (PENG T, CHI M T)
        self.faulted: "Decision | None" = None

    def close(self) -> None:
        """End a kept-alive process."""
        self.process.close()

    def __enter__(self) -> "BotzoneBot":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ the contract
    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))

    def act_index(self, rnd: Any, seat: int) -> int:
        if rnd is not self._round:
            if rnd.players != 4:
                raise MahjongError(f"the Botzone protocol is for four players; {rnd.ruleset!r} has {rnd.players}")
            self._reset(rnd)
        legal = rnd.legal_indices(seat)
        t: "int | None" = None
        if self.faulted is not None:
            return self._fallback(rnd, seat, legal, "the bot faulted earlier in this round")
        if self._held is not None:     # the discard announced with a claim, if the claim was made
            t, self._held = self._held, None
            prev = [e for e in rnd.log_for(seat) if e["type"] not in ("action", "ready")][-1]
            if prev["type"] not in ("pon", "chi") or prev.get("seat") != seat:
                t = None
        if self._held is None and t is not None:
            if t in legal:
                self.record.append(Decision(len(self._requests), "", None, "OK", True, t,
                                            note="the discard announced with the claim"))
                return t
            return self._fault(rnd, seat, legal, Decision(len(self._requests), "", None, "WA", True,
                                                          note=f"the claim's discard {t} is not a legal discard"))
        reqs = requests_for(rnd.log_for(seat), seat)
        new = reqs[len(self._requests):]
        for k, req in enumerate(new):
            last = k == len(new) - 1
            decide = last and req.kind in ("draw", "claim", "rob")
            d = self._ask(req)
            if d.verdict == "OK":
                if decide:
                    d.asked = True
                    self._decide(rnd, seat, legal, req, d)
                else:
                    self._check_unasked(req, d)
            self.record.append(d)
            if d.verdict != "OK":
                return self._fault(rnd, seat, legal, d)
            if decide:
                assert d.action is not None
                return d.action
        # asked with no request to answer (a window Botzone has not: 报听, 天听): pass
        return self._fallback(rnd, seat, legal, "no Botzone request for this decision", verdict="OK")

    # ------------------------------------------------------------------ one request
    def _ask(self, req: Request) -> Decision:
        self._requests.append(req.line)
        env = json_input if self.json else simple_input
        fresh = env(self._requests, self._responses, self._data, self._globaldata)
        turn = self.process.run(fresh, keep_running_input(req.line, self.json), self.time_limit, self.kept_time_limit)
        n = len(self._requests)
        if turn.verdict != "OK":
            self._responses.append("")
            return Decision(n, req.line, None, turn.verdict, False, seconds=turn.seconds, note=turn.note)
        try:
            out = parse_output(turn.lines, self.json)
        except BotzoneProtocolError as exc:
            self._responses.append("")
            return Decision(n, req.line, turn.lines[0] if turn.lines else None, "WA", False,
                            seconds=turn.seconds, note=str(exc))
        self._responses.append(out.response)
        if not turn.kept:
            self._data = out.data
        if out.globaldata:
            self._globaldata = out.globaldata
        return Decision(n, req.line, out.response, "OK", False, seconds=turn.seconds,
                        note=f"debug: {out.debug}" if out.debug else "")

    def _check_unasked(self, req: Request, d: Decision) -> None:
        """A request our round did not ask the seat about, checked as the judge checks it: PASS
        where only PASS is allowed (``checkInputPASS``); ``HU`` where our round offered no win is a
        false win (``WH``); on another player's discard a claim our round did not offer the seat is
        a ``WA`` if the judge would have examined it and found the tiles missing (pungs and kongs
        examined in player order until one is taken, then chows: ``checkInputPLAY2``,
        ``checkInputPLAY3``), else ignored (a claim of higher priority took the tile)."""
        try:
            r = parse_response(d.response)
        except BotzoneProtocolError as exc:
            d.verdict, d.note = "WA", str(exc)
            return
        if r.kind == "PASS":
            return
        if req.kind in ("claim", "rob") and r.kind == "HU":
            d.verdict, d.note = "WH", "HU where our round offered no win"
            return
        if req.kind != "claim" or r.kind not in ("PENG", "CHI", "GANG") or (r.kind == "GANG" and r.tiles):
            d.verdict, d.note = "WA", f"{r.kind} answers a request that allows only PASS"
            return
        my_id = int(self._requests[0].split()[1])
        taken = req.taken
        if taken is None:
            examined = True
        elif r.kind == "CHI":    # chows are examined when no pung or kong was taken, in player order
            examined = taken[0] == "CHI" and my_id < taken[1]
        else:                    # pungs and kongs in player order until one is taken (a chow: after them all)
            examined = taken[0] == "CHI" or my_id < taken[1]
        if not examined:
            d.note = f"{r.kind}: another player's claim took the tile first (ignored, as the judge does)"
            return
        why = _claim_fault(r, req, my_id)
        if why:
            d.verdict, d.note = "WA", why
        else:
            d.note = f"{r.kind}: a claim our round did not take (ignored)"

    def _decide(self, rnd: Any, seat: int, legal: list[int], req: Request, d: Decision) -> None:
        """The action of the response to the request our round asked about (or a WA / WH)."""
        try:
            r = parse_response(d.response)
        except BotzoneProtocolError as exc:
            d.verdict, d.note = "WA", str(exc)
            return
        i: "int | None" = None
        if r.kind == "HU":
            if A_WIN in legal:
                d.action = A_WIN
            else:
                d.verdict, d.note = "WH", "not a winning hand of at least the minimum fan here"
            return
        if req.kind == "draw":
            if r.kind == "PLAY":
                i = r.tiles[0]
            elif r.kind in ("GANG", "BUGANG") and r.tiles:
                t = r.tiles[0]
                concealed = int(rnd.hand_counts(seat)[t]) == 4
                if concealed == (r.kind == "GANG"):
                    i = A_KONG_SELF + t
        elif req.kind == "claim":
            if r.kind == "PASS":
                i = A_PASS
            elif r.kind == "GANG" and not r.tiles:
                i = A_KONG_CLAIM
            elif r.kind == "PENG":
                i, self._held = A_PON, r.tiles[0]
            elif r.kind == "CHI":
                mid, claimed = r.tiles[0], rnd.claim_tile
                i = {mid - 1: A_CHI_LOW, mid: A_CHI_MID, mid + 1: A_CHI_HIGH}.get(claimed)
                self._held = r.tiles[1]
        elif req.kind == "rob" and r.kind == "PASS":
            i = A_PASS
        if i is None or i not in legal:
            self._held = None
            d.verdict, d.note = "WA", f"{d.response!r} is not a legal answer here"
            return
        d.action = i

    # ------------------------------------------------------------------ faults
    def _fault(self, rnd: Any, seat: int, legal: list[int], d: Decision) -> int:
        self.faulted = d
        self.process.close()
        if self.on_fault == "forfeit":
            raise _forfeit(seat, rnd.players, d)
        return self._fallback(rnd, seat, legal, f"after {d.verdict}")

    def _fallback(self, rnd: Any, seat: int, legal: list[int], note: str, verdict: str = "FALLBACK") -> int:
        if A_PASS in legal:
            i = A_PASS
        elif rnd.drawn >= 0 and rnd.drawn in legal:
            i = rnd.drawn
        else:
            i = legal[0]
        self.record.append(Decision(len(self._requests), "", None, verdict, True, i, note=note))
        return i


def _claim_fault(r: Response, req: Request, my_id: int) -> str:
    """Why the judge refuses this claim of the discard ``req.tile`` (empty: it would accept it)."""
    hand, d = list(req.hand), req.tile
    if r.kind == "GANG":
        return "" if hand[d] >= 3 else "GANG without three of the tile in hand"
    if r.kind == "PENG":
        if hand[d] < 2:
            return "PENG without two of the tile in hand"
        hand[d] -= 2
        return "" if hand[r.tiles[0]] > 0 else "PENG discarding a tile not in hand"
    mid, out = r.tiles
    if (req.discarder + 1) % 4 != my_id:
        return "CHI of a discard not made by the player before"
    if mid >= 27 or d >= 27 or mid // 9 != d // 9 or abs(mid - d) > 1 or mid % 9 in (0, 8):
        return "CHI whose chow does not hold the discard"
    hand[d] += 1
    for x in (mid - 1, mid, mid + 1):
        if hand[x] <= 0:
            return "CHI without the chow's tiles in hand"
        hand[x] -= 1
    return "" if hand[out] > 0 else "CHI discarding a tile not in hand"


# ------------------------------------------------------------------ a game as Botzone scores it
@dataclass
class GameOutcome:
    """A round played to its end or to a Botzone forfeit: ``scores`` per seat (the round's
    settlement, or the judge's -30 / +10), ``result`` (None after a forfeit), ``forfeit``."""

    scores: list[int]
    result: Any = None
    forfeit: "BotzoneForfeit | None" = None
    records: "dict[int, list[Decision]]" = field(default_factory=dict)


def play_game(rnd: Any, bots: Sequence[Any], *, max_steps: int = 10_000) -> GameOutcome:
    """Play ``rnd`` with ``bots`` (objects or names, as :func:`mahjong_core.play_round`) step by step;
    a :class:`BotzoneForfeit` ends the game with the judge's scores.  Kept-alive programs are ended
    when the game is."""
    from ....game.bots import make_bots, play_steps
    if any(isinstance(b, str) for b in bots):
        bots = make_bots(list(bots), rnd.seed, ruleset=rnd.ruleset)
    try:
        try:
            play_steps(rnd, bots, max_steps)
        except BotzoneForfeit as exc:
            out = GameOutcome(list(exc.scores), None, exc)
        else:
            res = rnd.result
            out = GameOutcome(list(res.deltas), res, None)
    finally:
        for b in bots:
            if isinstance(b, BotzoneBot):
                b.close()
    out.records = {s: list(b.record) for s, b in enumerate(bots) if isinstance(b, BotzoneBot)}
    return out
