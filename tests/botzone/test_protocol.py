"""The Botzone protocol's lines and envelopes (mahjong_core.families.mahjong.botzone.protocol)."""
from __future__ import annotations

import json

import pytest

from mahjong_core.errors import MahjongError
from mahjong_core.families.mahjong.botzone.protocol import (
    BotzoneProtocolError, Response, json_input, keep_running_input, parse_output, parse_response, simple_input,
    tile_code, tile_index,
)


def test_tile_codes_cover_every_tile_both_ways() -> None:
    codes = [tile_code(t) for t in range(42)]
    assert codes[:3] == ["W1", "W2", "W3"] and codes[9] == "B1" and codes[18] == "T1"
    assert codes[27:34] == ["F1", "F2", "F3", "F4", "J1", "J2", "J3"] and codes[34] == "H1" and codes[41] == "H8"
    assert [tile_index(c) for c in codes] == list(range(42))


@pytest.mark.parametrize("bad", ["W0", "F5", "J4", "H9", "X1", "w1", "W10", ""])
def test_bad_tile_codes_are_refused_by_name(bad: str) -> None:
    with pytest.raises(BotzoneProtocolError, match=repr(bad).replace("[", r"\[")):
        tile_index(bad)
    assert issubclass(BotzoneProtocolError, MahjongError) and issubclass(BotzoneProtocolError, ValueError)


def test_responses_parse_to_their_tiles() -> None:
    assert parse_response("PASS") == Response("PASS")
    assert parse_response("PLAY T6") == Response("PLAY", (23,))
    assert parse_response("CHI T2 W3") == Response("CHI", (19, 2))
    assert parse_response("GANG") == Response("GANG") and parse_response("GANG J1") == Response("GANG", (31,))
    assert parse_response("PENG B5\r\n").line() == "PENG B5"


@pytest.mark.parametrize("bad", ["HELLO", "PLAY", "PLAY W1 W2", "CHI W2", "PASS ", "play W1", "HU W1", "BUGANG"])
def test_malformed_responses_are_refused(bad: str) -> None:
    with pytest.raises(BotzoneProtocolError):
        parse_response(bad)


def test_envelopes() -> None:
    reqs, resps = ["0 1 0", "1 0 0 0 0 W1", "2 W2"], ["PASS", "PASS"]
    assert simple_input(reqs, resps) == "3\n0 1 0\nPASS\n1 0 0 0 0 W1\nPASS\n2 W2\n"
    assert simple_input(reqs, resps, data="d").endswith("2 W2\nd\n")
    assert json.loads(json_input(reqs, resps)) == {"requests": reqs, "responses": resps}
    assert keep_running_input("2 W2", False) == "2 W2\n" and keep_running_input("2 W2", True) == '"2 W2"\n'
    assert parse_output(["PLAY W1", "dbg", "saved"], False).data == "saved"
    assert parse_output(['{"response": "PASS", "data": "x"}'], True).response == "PASS"
    assert parse_output(['"PASS"'], True).response == "PASS"
    assert parse_output(["{", '\t"response" : "PLAY W1"', "}"], True).response == "PLAY W1"   # jsoncpp's styled output
    for lines in ([], ["not json"], ['{"answer": 1}']):
        with pytest.raises(BotzoneProtocolError):
            parse_output(lines, True)
    with pytest.raises(BotzoneProtocolError):
        simple_input(reqs, ["PASS"])
