"""The per-call front's table of meld strings already read (issue 29, item 3): ``mj.score`` keeps
what it read of a meld string in a bounded, direct-mapped slot keyed by the string's characters
(length, first and last eight bytes), so a string written again is not read again.  A slot answers
only for the exact string it was filled from: every call answers as the Python path
(``scoring._score_checked``) whatever the slots hold, and a string the front does not read, or
one it refuses, never fills a slot."""

from __future__ import annotations

import struct

import pytest

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong._constants import MELD_CKONG, MELD_PON
from mahjong_core.families.mahjong.scoring import parse_meld
from mahjong_core.families.mahjong.tiles import format_tiles

from .test_score_vectorcall import same

pytestmark = pytest.mark.skipif(not _fan._MELD_SLOTS_ENABLED, reason="the free-threaded build reads every meld")


def _slot_of(text: str):
    """The slot rows whose characters are those of `text` (0 or 1 of them)."""
    raw = text.encode("latin-1")
    head = struct.unpack("<Q", (raw + b"\0")[:8])[0]
    tail = struct.unpack("<Q", raw[-8:])[0] if len(raw) >= 8 else 0
    return [row[3:] for row in _fan._meld_slots_in_use() if row[:3] == (len(raw), head, tail)]


def every_canonical_meld():
    out = []
    for t in range(34):
        out += [f"pon {format_tiles([t] * 3)}", f"kong {format_tiles([t] * 4)}", f"ckong {format_tiles([t] * 4)}"]
        if t < 27 and t % 9 <= 6:
            out.append(f"chi {format_tiles([t, t + 1, t + 2])}")
    return out


def test_a_meld_string_read_fills_its_slot_with_its_row():
    mj.score("1z", "1z", ruleset="mcr", melds=["pon CCC", "chi 123m", "chi 456p", "ckong 9999s"])
    assert _slot_of("pon CCC") == [(MELD_PON, 31)]            # 7 characters: the NUL ends the head
    assert _slot_of("ckong 9999s") == [(MELD_CKONG, 26)]
    assert _slot_of("chi 123m") == [parse_meld("chi 123m")]


def test_every_canonical_meld_twice_answers_as_the_python_path():
    """123 strings through 256 slots (some share one): a second pass reads from the slots that
    kept them and again where another string took the slot; every call as the Python path."""
    melds = every_canonical_meld()
    assert len(melds) == 123
    for _ in range(2):
        for m in melds:
            kind, first = parse_meld(m)
            # the meld beside a pair of East (a complete hand when the meld's tiles allow it)
            assert same("E", "E", ruleset="mcr", melds=[m, "pon CCC", "pon FFF", "pon PPP"]), m
            if _slot_of(m):
                assert _slot_of(m) == [(kind, first)]


@pytest.mark.parametrize("meld", [
    "  pon 555m",                  # blanks first: read by _text_meld, kept like any other
    "     ckong 9999m",            # 16 characters: the head and the tail cover them all
    "      ckong 9999m",           # 17: read every time, never kept
    "pon  CCC",                    # two blanks
    "chi 3m2m1m",                  # tiles unsorted, each with its suit
])
def test_other_plain_forms_answer_as_the_python_path_and_keep_their_own_rows(meld):
    melds = [meld, "pon EEE", "pon SSS", "pon WWW"]
    for _ in range(2):
        assert same("N", "N", ruleset="mcr", melds=melds)[0] == "ok"
    if len(meld) <= 16:
        assert _slot_of(meld) == [parse_meld(meld)]
    else:
        assert _slot_of(meld) == []


@pytest.mark.parametrize("meld", ["pon 123m", "chi 135m", "kong EEE", "pon CCCC", "chi 78x"])
def test_a_refused_meld_fills_no_slot(meld):
    assert same("N", "N", ruleset="mcr", melds=[meld, "pon EEE", "pon SSS", "pon WWW"])[0] == "err"
    assert _slot_of(meld) == []


def test_strings_alike_but_for_one_character_keep_their_own_rows():
    """Same length, same first eight bytes: the tail tells them apart (and the reverse)."""
    for a, b in (("chi 123m", "chi 123p"), ("kong 1111m", "kong 1111s"), ("ckong 2222m", "ckong 3333m")):
        for m in (a, b, a, b):
            assert same("E", "E", ruleset="mcr", melds=[m, "pon CCC", "pon FFF", "pon PPP"])[0] == "ok"
        assert _slot_of(a) in ([], [parse_meld(a)]) and _slot_of(b) in ([], [parse_meld(b)])
        assert parse_meld(a) != parse_meld(b)
