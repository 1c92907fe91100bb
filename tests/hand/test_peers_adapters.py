"""Guards for bench/peers.py: each peer adapter must measure the right thing.

Every peer test skips (pytest.importorskip) when that peer is not installed,
so this file passes on CI machines that install only our test deps.  The
peers are installed with ``pip install -r bench/requirements.txt``.

This file does not import mahjong_core: hands are written in our compact
notation (digits + m/p/s, honors E S W N C F P with C = 中 red, F = 发 green,
P = 白 white) and parsed here into OUR 34-count arrays
(0-8 m, 9-17 p, 18-26 s, 27-30 E S W N, 31 中, 32 发, 33 白).
"""
from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PEERS_PY = ROOT / "bench" / "peers.py"

# peer adapter name -> importable module of the peer
PEER_MODULES = {
    "xiangting": "xiangting",
    "riichienv": "riichienv",
    "mahjong": "mahjong",
    "pymahjonggb": "MahjongGB",
}
RIICHI_PEERS = ("xiangting", "riichienv", "mahjong")
INSTALL_HINT = "pip install -r bench/requirements.txt"


def _load_peers_module(name: str = "_bench_peers_under_test"):
    spec = importlib.util.spec_from_file_location(name, PEERS_PY)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look the module up while executing it
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


peers = _load_peers_module()

_HONORS = {"E": 27, "S": 28, "W": 29, "N": 30, "C": 31, "F": 32, "P": 33}
_SUIT = {"m": 0, "p": 9, "s": 18}


def H(text: str) -> list:
    """'123m456p789sEEESS' -> our 34 counts."""
    counts = [0] * 34
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in _SUIT:
            assert digits, text
            for d in digits:
                counts[_SUIT[ch] + d - 1] += 1
            digits = []
        elif ch in _HONORS:
            counts[_HONORS[ch]] += 1
        elif not ch.isspace():
            raise ValueError(f"bad tile char {ch!r} in {text!r}")
    assert not digits, f"digits without a suit in {text!r}"
    assert max(counts) <= 4, text
    return counts


def _importorskip(modname: str, reason: str):
    try:
        return pytest.importorskip(modname, reason=reason)
    except TypeError:  # an old pytest without reason=
        return pytest.importorskip(modname)


def need(peer: str):
    """The adapter of ``peer``; skips when the peer package is absent."""
    _importorskip(
        PEER_MODULES[peer],
        reason=f"peer package {peer!r} (module {PEER_MODULES[peer]}) is not installed; {INSTALL_HINT}",
    )
    adapter = peers.get_peer(peer)
    assert adapter is not None, f"{peer} imports but its adapter failed: {peers.import_errors().get(peer)}"
    return adapter


@pytest.fixture(params=list(PEER_MODULES))
def peer(request):
    return need(request.param)


@pytest.fixture(params=list(RIICHI_PEERS))
def riichi_peer(request):
    return need(request.param)


@pytest.fixture
def gb():
    return need("pymahjonggb")


ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


# ---------------------------------------------------------------- the module
def test_module_imports_without_any_peer(monkeypatch):
    """bench/peers.py imports and lists nothing when no peer is importable."""
    for mod in PEER_MODULES.values():
        monkeypatch.setitem(sys.modules, mod, None)  # makes `import mod` fail
    mod = _load_peers_module("_bench_peers_no_peers")
    try:
        assert mod.available_peers() == []
        assert mod.get_peer("xiangting") is None
        assert set(mod.import_errors()) == set(PEER_MODULES)
    finally:
        sys.modules.pop("_bench_peers_no_peers", None)


# ------------------------------------------------------ every installed peer
def test_adapter_metadata(peer):
    assert peer.name in PEER_MODULES
    assert peer.version and peer.version != "unknown"
    assert peer in peers.available_peers()


def test_nine_gates_waits_on_all_manzu(peer):
    p = peer.prepare(H("1112345678999m"))
    assert peer.shanten(p) == 0
    if peer.waits is not None:
        assert peer.waits(p) == list(range(9))


def test_prepare_accepts_numpy_uint8(peer):
    np = pytest.importorskip("numpy", reason="numpy is not installed")
    counts = np.array(H("1112345678999m"), dtype=np.uint8)
    assert counts.shape == (34,)
    assert peer.shanten(peer.prepare(counts)) == 0


def test_thirteen_orphans_thirteen_sided_wait(peer):
    p = peer.prepare(H("19m19p19sESWNCFP"))
    assert peer.shanten(p) == 0
    if peer.waits is not None:
        assert peer.waits(p) == ORPHANS


def test_two_shanten_hand(peer):
    # 123m 456p + 57m 78s + E W N: two sets, two partial sets, no pair
    p = peer.prepare(H("12357m456p78sEWN"))
    assert peer.shanten(p) == 2
    if peer.waits is not None:
        assert peer.waits(p) == []


@pytest.mark.parametrize(
    "hand, win",
    [
        ("123m456p789sEEESS", True),
        ("123m456p789sEEESW", False),
        ("19m19p19sESWNCFPP", True),   # thirteen orphans
        ("1133557799m1133p", True),    # seven distinct pairs
        ("11123456789999m", True),     # nine gates on 9m
        ("11123456789999p", True),
        ("11122233344455s", True),
        ("1112223334445s", None),      # 13 tiles: not a win for anyone
    ],
)
def test_is_win(peer, hand, win):
    p = peer.prepare(H(hand))
    assert peer.is_win(p) is bool(win)


@pytest.mark.parametrize("dragon, index", [("C", 31), ("F", 32), ("P", 33)])
def test_dragon_order(peer, dragon, index):
    """Our 31 中 / 32 发 / 33 白 must reach the peer as the same dragon."""
    p = peer.prepare(H("123m456p789sEEE" + dragon))
    assert peer.shanten(p) == 0
    if peer.waits is not None:
        assert peer.waits(p) == [index]
    if peer.name in ("xiangting", "mahjong"):  # prepared = riichi 34-counts
        native = list(p)
        riichi_index = {31: 33, 32: 32, 33: 31}[index]  # their 31 haku, 33 chun
        assert native[riichi_index] == 1
        assert sum(native[31:]) == 1


# ------------------------------------------------------ riichi peers' rules
def test_riichi_seven_pairs_do_not_count_a_kong_as_two_pairs(riichi_peer):
    assert riichi_peer.shanten(riichi_peer.prepare(H("1111335577m113p"))) == 2
    p14 = riichi_peer.prepare(H("1111335577m1133p"))
    assert riichi_peer.shanten(p14) == 1
    assert riichi_peer.is_win(p14) is False


def test_riichi_wait_on_a_tile_held_four_times_is_no_wait(riichi_peer):
    # 1111m + 456p 789p 123s: the only "wait" is the fifth 1m
    p = riichi_peer.prepare(H("1111m456789p123s"))
    assert riichi_peer.shanten(p) == 1
    if riichi_peer.waits is not None:
        assert riichi_peer.waits(p) == []


def test_riichi_has_no_chinese_knitted_forms(riichi_peer):
    assert riichi_peer.shanten(riichi_peer.prepare(H("147m258p369sESWN"))) == 6


def test_xiangting_necessary_and_unnecessary_tiles():
    xt = need("xiangting")
    # 1-shanten: every tile except the exhausted 1m lowers the shanten
    sh, tiles = xt.extras["necessary_tiles"](xt.prepare(H("1111m456789p123s")))
    assert sh == 1 and tiles == list(range(1, 34))
    # ready: necessary tiles == waits; a 13-tile hand has no discard set
    sh, tiles = xt.extras["necessary_tiles"](xt.prepare(H("1112345678999m")))
    assert sh == 0 and tiles == list(range(9))
    sh, tiles = xt.extras["unnecessary_tiles"](xt.prepare(H("123m456p789sEEESW")))
    assert sh == 0 and tiles == [28, 29]
    assert xt.shanten(xt.prepare(H("123m456p789sEEESS"))) == -1


def test_riichienv_evaluator_agrees():
    rie = need("riichienv")
    assert rie.extras["is_win_evaluator"](rie.prepare(H("123m456p789sEEESS"), win_tile=28))
    assert rie.extras["is_win_evaluator"](rie.prepare(H("19m19p19sESWNCFPP"), win_tile=33))
    assert not rie.extras["is_win_evaluator"](rie.prepare(H("123m456p789sEEESW"), win_tile=29))
    assert rie.extras["is_tenpai"](rie.prepare(H("1112345678999m")))
    assert rie.extras["waits_with_build"](rie.prepare(H("123m456p789sEEEC"))) == [31]
    assert rie.shanten(rie.prepare(H("123m456p789sEEESS"))) == -1


def test_mahjong_has_no_waits_and_rejects_twelve_tiles():
    mj = need("mahjong")
    assert mj.waits is None
    with pytest.raises(ValueError):
        mj.shanten(mj.prepare(H("123m456p789sEEE")))
    assert mj.extras["shanten_regular"](mj.prepare(H("19m19p19sESWNCFP"))) == 8


# ------------------------------------------- pymahjonggb (Chinese Official)
def test_gb_seven_pairs_count_a_kong_as_two_pairs(gb):
    p = gb.prepare(H("1111335577m113p"))
    assert gb.shanten(p) == 0
    assert gb.waits(p) == [11]  # 3p
    assert gb.is_win(gb.prepare(H("1111335577m1133p"), win_tile=11))


def test_gb_wait_on_a_tile_held_four_times_still_counts(gb):
    p = gb.prepare(H("1111m456789p123s"))
    assert gb.shanten(p) == 0
    assert gb.waits(p) == [0]
    assert gb.extras["regular_shanten"](p) == (0, [0])


def test_gb_honors_and_knitted_tiles(gb):
    p = gb.prepare(H("147m258p369sESWN"))
    assert gb.shanten(p) == 0
    assert gb.waits(p) == [31, 32, 33]


def test_gb_shanten_takes_only_standing_13_minus_3n(gb):
    with pytest.raises(TypeError):
        gb.shanten(gb.prepare(H("123m456p789sEEESS")))
    # with a declared pung the hand has 10 standing tiles
    assert gb.shanten(gb.prepare(H("123m456p789sE"), packs=[("PENG", 28, 1)])) == 0


def _fans(result):
    return {en: (pts, cnt) for pts, cnt, _cn, en in result}


def test_gb_fan_full_flush(gb):
    # 123m 123m 456m 789m 99m, won on 9m by discard (9m also ends 78m -> no wait fan)
    res = gb.fan(gb.prepare(H("12312345678999m"), win_tile=8))
    assert _fans(res) == {
        "Full Flush": (24, 1),
        "Pure Straight": (16, 1),
        "Concealed Hand": (2, 1),
        "All Chows": (2, 1),
        "Pure Double Chow": (1, 1),
    }
    assert ("清一色" in {cn for _p, _c, cn, _en in res})
    assert sum(p * c for p, c, _cn, _en in res) == 45


def test_gb_fan_winds_and_self_draw(gb):
    hand = H("123m456p789sEEESS")
    res = _fans(gb.fan(gb.prepare(hand, win_tile=28, seat_wind=0, prevalent_wind=0)))
    assert res == {
        "Mixed Straight": (8, 1),
        "Prevalent Wind": (2, 1),
        "Seat Wind": (2, 1),
        "Concealed Hand": (2, 1),
        "Single Wait": (1, 1),
    }
    res = _fans(gb.fan(gb.prepare(hand, win_tile=28, seat_wind="S", prevalent_wind="E", self_drawn=True)))
    assert res == {
        "Mixed Straight": (8, 1),
        "Fully Concealed Hand": (4, 1),
        "Prevalent Wind": (2, 1),
        "Single Wait": (1, 1),
    }


def test_gb_fan_with_a_melded_pung(gb):
    p = gb.prepare(H("123m456p789sEE"), win_tile=27, packs=[("PENG", 28, 1)])
    assert _fans(gb.fan(p)) == {
        "Mixed Straight": (8, 1),
        "Pung of Terminals or Honors": (1, 1),
        "Single Wait": (1, 1),
    }
    assert gb.is_win(p)


def test_gb_fan_dragon_codes(gb):
    """发 (our 32) makes All Green; 白 (our 33) makes Reversible Tiles."""
    assert "All Green" in _fans(gb.fan(gb.prepare(H("22334466888sFFF"), win_tile=32)))
    assert "All Green" not in _fans(gb.fan(gb.prepare(H("22334466888sCCC"), win_tile=31)))
    assert "Reversible Tiles" in _fans(gb.fan(gb.prepare(H("123345p45699sPPP"), win_tile=26)))
    assert "Reversible Tiles" not in _fans(gb.fan(gb.prepare(H("123345p45699sCCC"), win_tile=26)))
    assert _fans(gb.fan(gb.prepare(H("19m19p19sESWNCFPP"), win_tile=33))) == {
        "Thirteen Orphans": (88, 1)
    }


def test_gb_fan_rejects_a_hand_that_is_not_complete(gb):
    with pytest.raises(TypeError, match="ERROR_NOT_WIN"):
        gb.fan(gb.prepare(H("123m456p789sEEESW"), win_tile=29))
    with pytest.raises(ValueError):
        gb.fan(gb.prepare(H("1112345678999m")))  # 13 tiles: no fan call
