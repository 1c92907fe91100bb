"""The per-call front's table of flower strings already read (issue 29, item 3): ``mj.score`` keeps
the flower bits of a flower string (1-16 one-byte characters) in a bounded, direct-mapped slot keyed
by its characters, so a string passed again is not read again.  A slot answers only for the exact
string it was filled from: every call answers as the Python path (``scoring._score_checked``)
whatever the slots hold, and a string the front refuses never fills a slot."""

from __future__ import annotations

import itertools
import struct

import pytest

from mahjong_core import _fan

from .test_score_vectorcall import same

pytestmark = pytest.mark.skipif(not _fan._FLOWER_SLOTS_ENABLED, reason="the free-threaded build reads every string")

HAND = ("123m456m789m11pEE", "E")   # a complete hand with East as the winning tile (seat wind East)


def _slot_of(text: str):
    """The slot rows whose characters are those of `text` (0 or 1 of them)."""
    raw = text.encode("latin-1") + b"\0" * 16
    head, tail = struct.unpack("<QQ", raw[:16])
    return [row[3] for row in _fan._flower_slots_in_use() if row[:3] == (len(text), head, tail)]


def test_a_flower_string_read_fills_its_slot_with_its_bits():
    assert same(*HAND, ruleset="mcr", flowers="1f3f")[0] == "ok"
    assert _slot_of("1f3f") == [0b101]
    assert same(*HAND, ruleset="mcr", flowers="8f")[0] == "ok"
    assert _slot_of("8f") == [0b10000000]


def test_every_set_of_flowers_twice_answers_as_the_python_path():
    """The 255 strings of distinct flowers in rank order through 64 slots (many share one): a second
    pass reads from the slots that kept them and again where another string took the slot."""
    strings = ["".join(f"{i + 1}f" for i in c) for k in range(1, 9) for c in itertools.combinations(range(8), k)]
    for _ in range(2):
        for s in strings:
            got = same(*HAND, ruleset="mcr", flowers=s)
            assert got[0] == "ok", s
            assert _slot_of(s) in ([], [sum(1 << (int(f) - 1) for f in s[::2])]), s


@pytest.mark.parametrize("flowers", ["1f1f", "1m", "9f", "1f2", "x", "1f2f3f4f5f6f7f8f1f"])
def test_a_refused_string_fills_no_slot(flowers):
    assert same(*HAND, ruleset="mcr", flowers=flowers)[0] == "err"
    assert _slot_of(flowers) == []


def test_strings_alike_but_for_one_character_keep_their_own_bits():
    """Same length, same first eight bytes: the second word tells them apart."""
    for a, b in (("1f2f3f4f5f", "1f2f3f4f6f"), ("1f", "2f"), ("1f2f3f4f5f6f7f8f", "1f2f3f4f5f6f7f")):
        for s in (a, b, a, b):
            assert same(*HAND, ruleset="mcr", flowers=s)[0] == "ok"
        assert _slot_of(a) != _slot_of(b) or _slot_of(a) == []
