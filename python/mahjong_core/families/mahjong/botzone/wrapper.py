"""Our bots as a Botzone bot of Chinese Standard Mahjong: :func:`respond` answers one request
from the history (a world of ours rebuilt from it, :mod:`.world`, where the bot decides), and
:func:`serve` is the program: it reads Botzone's input (simple interaction or JSON) from standard
input and prints the response, then, with ``keep_running``, asks to stay alive and answers each
further request as it comes (``mahjong-core botzone-bot --bot greedy``).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Sequence, TextIO

from ....errors import MahjongError, RulesetError
from .._constants import A_CHI_HIGH, A_CHI_LOW, A_CHI_MID, A_KONG_CLAIM, A_KONG_SELF, A_PON, A_WIN
from ..rulesets import get_ruleset
from .protocol import KEEP_RUNNING, BotzoneProtocolError, tile_code
from .world import build_world, parse_history, replay

__all__ = ["respond", "serve", "make_bot"]


def make_bot(name: str, seed: "int | None" = 0) -> Any:
    """One of our bots by name (the family's registered factories, :data:`..bots.BUILTIN_BOTS`:
    ``greedy``, ``random``, ``advisor``, ``search``), made with ``seed``."""
    from ..bots import BUILTIN_BOTS
    if name not in BUILTIN_BOTS:
        raise MahjongError(f"unknown bot {name!r}; expected one of {', '.join(BUILTIN_BOTS)}")
    return BUILTIN_BOTS[name](seed)


def _fallback(requests: Sequence[str]) -> str:
    w = requests[-1].split()
    return f"PLAY {w[1]}" if w[0] == "2" else "PASS"


def respond(requests: Sequence[str], responses: Sequence[str], bot: Any, ruleset: str,
            notes: "list[str] | None" = None) -> str:
    """The response of ``bot`` to the last request.  A request that allows only PASS is answered
    PASS; a history our round cannot reproduce is answered safely (discard the tile drawn, or
    PASS), the reason appended to ``notes``."""
    w = requests[-1].split()
    me = int(requests[0].split()[1])
    decision = w[0] == "2" or (w[0] == "3" and int(w[1]) != me and w[2] in ("PLAY", "PENG", "CHI", "BUGANG"))
    if len(requests) < 3 or not decision:
        return "PASS"
    try:
        h = parse_history(requests, responses)
        rnd, actions = build_world(h, ruleset)
        if not replay(rnd, actions, me, window=w[0] == "3"):
            if w[0] == "2" and notes is not None:
                notes.append("fallback: our round did not give this seat its turn")
            return _fallback(requests)
        return _answer(rnd, me, bot)
    except MahjongError as exc:
        if notes is not None:
            notes.append(f"fallback: {exc}")
        return _fallback(requests)


def _answer(rnd: Any, me: int, bot: Any) -> str:
    i = bot.act_index(rnd, me)
    if i < 68:
        return f"PLAY {tile_code(i % 34)}"
    if i < 102:
        t = i - A_KONG_SELF
        return f"{'GANG' if int(rnd.hand_counts(me)[t]) == 4 else 'BUGANG'} {tile_code(t)}"
    if i == A_WIN:
        return "HU"
    if i == A_KONG_CLAIM:
        return "GANG"
    if i in (A_PON, A_CHI_LOW, A_CHI_MID, A_CHI_HIGH):
        claimed = rnd.claim_tile
        rnd.step(me, i)
        while not rnd.is_over and rnd.seats_to_act()[0] != me:   # others in the window pass
            rnd.step(rnd.seats_to_act()[0], 109)
        j = bot.act_index(rnd, me)
        if j >= 68:   # our ruleset offers more than a discard here; Botzone needs one
            j = next(k for k in rnd.legal_indices(me) if k < 68)
        out = tile_code(j % 34)
        if i == A_PON:
            return f"PENG {out}"
        mid = claimed + {A_CHI_LOW: 1, A_CHI_MID: 0, A_CHI_HIGH: -1}[i]
        return f"CHI {tile_code(mid)} {out}"
    return "PASS"


def _read_first(inp: TextIO, use_json: bool) -> "tuple[list[str], list[str]] | None":
    """The first input of the process (None at once at the end of the input); an input of
    neither envelope is a :class:`~.protocol.BotzoneProtocolError`."""
    line = inp.readline()
    if not line.strip():
        return None
    if use_json:
        try:
            d = json.loads(line)
            requests, responses = d["requests"], d["responses"]
        except (ValueError, TypeError, KeyError):
            raise BotzoneProtocolError(f"not Botzone's JSON input (requests, responses): {line[:80]!r}") from None
        if not isinstance(requests, list) or not isinstance(responses, list) or len(requests) != len(responses) + 1:
            raise BotzoneProtocolError("the JSON input needs one more request than responses")
        return [str(x) for x in requests], [str(x) for x in responses]
    if not line.strip().isdigit() or int(line) < 1:
        raise BotzoneProtocolError(f"simple interaction starts with the turn number, got {line.strip()[:80]!r}")
    n = int(line)
    lines = [inp.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
    return lines[0::2], lines[1::2]


def serve(bot: Any, ruleset: str, *, use_json: bool = False, keep_running: bool = True,
          stdin: "TextIO | None" = None, stdout: "TextIO | None" = None,
          respond_fn: "Callable[..., str] | None" = None) -> int:
    """The Botzone program: answer the input on ``stdin``; with ``keep_running`` stay alive and
    answer each further request (until the input ends).  Returns the exit status, 0."""
    rs = get_ruleset(ruleset)
    if rs.players != 4:
        raise RulesetError(f"the Botzone protocol is for four players; {rs.name} has {rs.players}")
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    answer = respond_fn or respond
    got = _read_first(inp, use_json)
    if got is None:
        return 0
    requests, responses = got
    while True:
        notes: list[str] = []
        r = answer(requests, responses, bot, ruleset, notes)
        responses.append(r)
        if use_json:
            d = {"response": r}
            if notes:
                d["debug"] = "; ".join(notes)
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
        else:   # the debug line follows the response (Botzone's simple interaction)
            out.write(r + "\n" + ("; ".join(notes) + "\n" if notes else ""))
        if not keep_running:
            out.flush()
            return 0
        out.write(KEEP_RUNNING + "\n")
        out.flush()
        line = inp.readline()
        while line and not line.strip():   # the empty data / globaldata lines Botzone may send
            line = inp.readline()
        if not line:
            return 0
        line = line.rstrip("\r\n")
        requests.append(json.loads(line) if use_json else line)
