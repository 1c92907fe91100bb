"""The Botzone protocol of Chinese Standard Mahjong (国标麻将): its tile notation, its request and
response lines, and the two envelopes a bot program reads and writes.

Facts of the protocol, as Botzone documents them (the wiki page ``Chinese-Standard-Mahjong``, its
request and response tables; the judge program ``judge/main.cpp`` of the public repository
``ailab-pku/Chinese-Standard-Mahjong``; the bot envelope of the wiki page ``Bot``):

* Tiles: ``W1``-``W9`` characters (万), ``B1``-``B9`` dots (饼), ``T1``-``T9`` bamboo (条),
  ``F1``-``F4`` winds East..North, ``J1``-``J3`` dragons 中 发 白, ``H1``-``H8`` flowers.
* Player ids are seat winds: 0 is East and plays first; ``quan`` is the prevalent wind 0-3.
* Requests: ``0 id quan``; ``1 hua0..hua3 <13 tiles> <every flower>``; ``2 T`` (you drew T);
  ``3 p BUHUA H``; ``3 p DRAW``; ``3 p PLAY T``; ``3 p PENG T`` (claimed the last discard,
  discarded T); ``3 p CHI M T`` (chow with middle tile M, discarded T); ``3 p GANG`` (a kong: of
  the last discard, or concealed after p's draw, its tile hidden); ``3 p BUGANG T``.
* Responses: ``PASS``; after your draw ``PLAY T`` / ``GANG T`` / ``BUGANG T`` / ``HU``; on
  another player's discard ``PENG T`` / ``CHI M T`` / ``GANG`` / ``HU``; on a ``BUGANG`` ``HU``
  (robbing the kong).  Every other request is answered ``PASS``.
* Simple interaction: the first line is the turn number n, then the 2n-1 lines request 1,
  response 1, ..., request n (then the saved ``data`` line and the ``globaldata``); the bot
  prints its response on the first line (then optionally debug, data, globaldata lines).
  JSON: one line ``{"requests": [...], "responses": [...], "data": ..., "globaldata": ...}``,
  answered with ``{"response": ..., "debug": ..., "data": ..., "globaldata": ...}`` (the official
  sample bot prints it with jsoncpp's styled writer, over several lines).
* Keep running: a bot that prints :data:`KEEP_RUNNING` after its response stays alive; its next
  input is the new request alone (simple: the request line; JSON: the request as a JSON string).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from ....errors import BotzoneProtocolError

__all__ = [
    "BotzoneProtocolError", "BOTZONE_RULESET", "KEEP_RUNNING", "tile_code", "tile_index", "Response", "parse_response",
    "simple_input", "json_input", "keep_running_input", "parse_output",
]

BOTZONE_RULESET = "mcr"
"""The ruleset our side of the protocol plays by default (the wrapper's world, ``botzone-bot``): `mcr`,
the Chinese Official rules Botzone's Chinese Standard Mahjong judge scores by."""

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a bot prints after its response to stay alive for the next request."""


_SUITS = "WBT"


def tile_code(t: int) -> str:
    """Our tile index (0-41) as a Botzone code: ``0`` -> ``W1``, ``31`` -> ``J1`` (中), ``34`` -> ``H1``."""
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 41:
        raise BotzoneProtocolError(f"not a tile index 0-41: {t!r}")
    if t < 27:
        return f"{_SUITS[t // 9]}{t % 9 + 1}"
    if t < 31:
        return f"F{t - 26}"
    if t < 34:
        return f"J{t - 30}"
    return f"H{t - 33}"


_LIMITS = {"W": (0, 9), "B": (9, 9), "T": (18, 9), "F": (27, 4), "J": (31, 3), "H": (34, 8)}


def tile_index(code: str) -> int:
    """A Botzone tile code as our tile index: ``W1`` -> 0, ``B1`` -> 9, ``T1`` -> 18, ``F1`` -> 27
    (East), ``J1`` -> 31 (中), ``H1`` -> 34.  Anything else is a :class:`BotzoneProtocolError`."""
    if isinstance(code, str) and len(code) == 2 and code[0] in _LIMITS and code[1].isdigit():
        base, n = _LIMITS[code[0]]
        r = int(code[1])
        if 1 <= r <= n:
            return base + r - 1
    raise BotzoneProtocolError(f"not a Botzone tile code (W1-9 B1-9 T1-9 F1-4 J1-3 H1-8): {code!r}")


@dataclass(frozen=True)
class Response:
    """A parsed response line: ``kind`` one of PASS PLAY GANG BUGANG HU PENG CHI, ``tiles`` its
    tile indices (``PLAY T``: ``(T,)``; ``CHI M T``: ``(M, T)``; ``GANG`` on a discard: ``()``)."""

    kind: str
    tiles: tuple[int, ...] = ()

    def line(self) -> str:
        return " ".join([self.kind, *(tile_code(t) for t in self.tiles)])


_ARITY = {"PASS": (0,), "HU": (0,), "PLAY": (1,), "GANG": (0, 1), "BUGANG": (1,), "PENG": (1,), "CHI": (2,)}


def parse_response(line: Any) -> Response:
    """A response line as a :class:`Response`; a line of no known form (an unknown word, a wrong
    number of tiles, a bad tile code) is a :class:`BotzoneProtocolError` quoting it.  Words are
    split on single spaces, as the judge splits them (``boost::split`` on ``" "``)."""
    if not isinstance(line, str):
        raise BotzoneProtocolError(f"a response must be a line of text, got {type(line).__name__}")
    words = line.strip("\r\n").split(" ")
    kind, args = words[0], words[1:]
    if kind not in _ARITY or len(args) not in _ARITY[kind]:
        raise BotzoneProtocolError(f"not a response of Chinese Standard Mahjong: {line[:80]!r}")
    return Response(kind, tuple(tile_index(a) for a in args))


# ------------------------------------------------------------------ envelopes
def simple_input(requests: Sequence[str], responses: Sequence[str], data: "str | None" = None,
                 globaldata: "str | None" = None) -> str:
    """The simple-interaction input of a fresh process: turn number, the requests and responses
    alternating, the new request last; then ``data`` and ``globaldata`` when there are any."""
    n = len(requests)
    if len(responses) != n - 1:
        raise BotzoneProtocolError(f"{n} requests need {n - 1} responses, got {len(responses)}")
    lines = [str(n)]
    for i in range(n - 1):
        lines += [requests[i], responses[i]]
    lines.append(requests[-1])
    if data or globaldata:
        lines.append(data or "")
    if globaldata:
        lines.append(globaldata)
    return "\n".join(lines) + "\n"


def json_input(requests: Sequence[str], responses: Sequence[str], data: "str | None" = None,
               globaldata: "str | None" = None) -> str:
    """The JSON input of a fresh process, one line."""
    d: dict[str, Any] = {"requests": list(requests), "responses": list(responses)}
    if data:
        d["data"] = data
    if globaldata:
        d["globaldata"] = globaldata
    return json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n"


def keep_running_input(request: str, use_json: bool) -> str:
    """The input of a kept-alive process: the new request alone."""
    return (json.dumps(request, ensure_ascii=False) if use_json else request) + "\n"


@dataclass(frozen=True)
class Output:
    """What a bot printed for one request: its response line, and the optional debug, data and
    globaldata it saved."""

    response: str
    debug: "str | None" = None
    data: "str | None" = None
    globaldata: "str | None" = None


def parse_output(lines: Sequence[str], use_json: bool) -> Output:
    """A bot's output lines (the keep-running line excluded): simple interaction takes the first
    line as the response (debug, data, globaldata follow); JSON takes the first JSON value printed
    (on one line or several) as an object with ``response`` (or, as Botzone's local runner accepts,
    a bare JSON string).  No line, or a JSON line that
    does not parse or holds no string response, is a :class:`BotzoneProtocolError`."""
    if not lines:
        raise BotzoneProtocolError("the bot printed nothing")
    if not use_json:
        rest = list(lines[1:])
        return Output(lines[0], rest[0] if rest else None, rest[1] if len(rest) > 1 else None,
                      "\n".join(rest[2:]) if len(rest) > 2 else None)
    text = "\n".join(lines).lstrip()
    try:   # the first JSON value of the output: jsoncpp's ``cout << value`` spreads one over lines
        d, _ = json.JSONDecoder().raw_decode(text)
    except ValueError:
        raise BotzoneProtocolError(f"no JSON value in the bot's output: {text[:80]!r}") from None
    if isinstance(d, str):
        return Output(d)
    if not isinstance(d, dict) or not isinstance(d.get("response"), str):
        raise BotzoneProtocolError(f"no string 'response' in the bot's JSON: {text[:80]!r}")

    def saved(key: str) -> "str | None":
        v = d.get(key)
        return v if isinstance(v, str) else None if v is None else json.dumps(v)
    return Output(d["response"], saved("debug"), saved("data"), saved("globaldata"))
