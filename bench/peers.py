"""Adapters for the PEER mahjong packages we benchmark ``mahjong_core`` against.

Each installed peer gets a :class:`PeerAdapter` with

* ``name`` / ``version`` (the installed distribution's version),
* ``prepare(counts, **kw)`` -- converts OUR ``(34,)`` count array once into the
  peer's native input, so a benchmark times only the peer's own call,
* ``shanten(prepared)`` -> int (-1 = complete hand, 0 = ready, ...),
* ``is_win(prepared)`` -> bool, for a 14-tile (3n+2) hand,
* ``waits(prepared)`` -> sorted list of OUR tile indices (``None`` if the peer
  has no such call),
* ``fan(prepared)`` (pymahjonggb only) -> list of
  ``(fan_points, count, name_cn, name_en)``,
* ``extras``: further peer calls worth timing, ``{name: fn(prepared)}``,
* ``notes``: what the numbers mean for this peer (rules, quirks).

A peer that is not installed is simply absent: :func:`available_peers` returns
the adapters whose import succeeded and importing this module never fails.
This module does not import ``mahjong_core``.

OUR tile index scheme: 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s,
27-30 = E S W N, 31 = 中 (red), 32 = 发 (green), 33 = 白 (white).

Peer tile orders (checked against their sources/docstrings):

* xiangting, riichienv, mahjong (riichi): suits identical to ours, honors
  E S W N 白(haku) 发(hatsu) 中(chun) -- i.e. our 31 and 33 are swapped
  (our 31 中 -> their 33, our 32 发 -> their 32, our 33 白 -> their 31).
* riichienv takes 136-tile ids (``tile34 * 4 + copy``; ids 16/52/88 are its
  red fives, which we avoid by using the copies from the top).
* pymahjonggb (module ``MahjongGB``): string codes ``W1-W9`` (万 = our m),
  ``B1-B9`` (饼/dots = our p), ``T1-T9`` (条/bamboo = our s), ``F1-F4``
  (E S W N), ``J1`` 中, ``J2`` 发, ``J3`` 白 -- same dragon order as ours.

Usage::

    from bench.peers import available_peers
    for peer in available_peers():
        p = peer.prepare(counts)
        peer.shanten(p)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

__all__ = [
    "PeerAdapter",
    "PEER_NAMES",
    "available_peers",
    "get_peer",
    "import_errors",
    "to_riichi34",
    "from_riichi34",
]

#: our index -> riichi 34-index (and back: the map is its own inverse)
_RIICHI_PERM = tuple(range(31)) + (33, 32, 31)

#: our index -> pymahjonggb tile code
_GB_CODES = tuple(
    [f"W{i}" for i in range(1, 10)]      # 0-8   m (characters, 万)
    + [f"B{i}" for i in range(1, 10)]    # 9-17  p (dots, 饼)
    + [f"T{i}" for i in range(1, 10)]    # 18-26 s (bamboo, 条)
    + [f"F{i}" for i in range(1, 5)]     # 27-30 E S W N
    + ["J1", "J2", "J3"]                 # 31 中, 32 发, 33 白
)
_GB_INDEX = {code: i for i, code in enumerate(_GB_CODES)}

#: winds accepted by the pymahjonggb fan adapter (0..3 or E/S/W/N)
_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def _as_list(counts) -> List[int]:
    """Our counts (numpy array or any sequence of 34 ints) -> list of int."""
    tolist = getattr(counts, "tolist", None)
    lst = tolist() if tolist is not None else [int(c) for c in counts]
    if len(lst) != 34:
        raise ValueError(f"expected 34 tile counts, got {len(lst)}")
    return lst


def to_riichi34(counts) -> List[int]:
    """Our 34-count array -> riichi-ordered 34-count list (dragons swapped)."""
    c = _as_list(counts)
    return [c[_RIICHI_PERM[i]] for i in range(34)]


def from_riichi34(index: int) -> int:
    """A riichi 34-index -> our index."""
    return _RIICHI_PERM[index]


def _bits_to_ours(mask: int) -> List[int]:
    """xiangting bit set (bit i = riichi tile i) -> sorted list of our indices."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_RIICHI_PERM[low.bit_length() - 1])
        mask ^= low
    out.sort()
    return out


@dataclass
class PeerAdapter:
    name: str
    version: str
    module: str
    prepare: Callable[..., Any]
    shanten: Callable[[Any], int]
    is_win: Callable[[Any], bool]
    waits: Optional[Callable[[Any], List[int]]] = None
    fan: Optional[Callable[[Any], list]] = None
    extras: Dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    notes: str = ""

    def __repr__(self) -> str:  # keep the callables out of the repr
        return f"PeerAdapter({self.name!r}, version={self.version!r})"


def _dist_version(dist: str, mod) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return str(getattr(mod, "__version__", "unknown"))


# --------------------------------------------------------------------------
# xiangting (Rust, riichi): replacement number = shanten + 1
# --------------------------------------------------------------------------
def _make_xiangting() -> PeerAdapter:
    import xiangting as xt

    four = xt.PlayerCount.FOUR
    rn_fn = xt.calculate_replacement_number
    nec_fn = xt.calculate_necessary_tiles
    unn_fn = xt.calculate_unnecessary_tiles

    def prepare(counts):
        # a tuple extracts faster than a list or a numpy array in its bindings
        return tuple(to_riichi34(counts))

    def shanten(p):
        return rn_fn(p, four) - 1

    def is_win(p):
        return rn_fn(p, four) == 0

    def waits(p):
        # necessary tiles = tiles that lower the replacement number; for a
        # ready (rn == 1) hand these are exactly its winning tiles.  For a
        # hand that is not ready there are no waits.
        rn, mask = nec_fn(p, four)
        return _bits_to_ours(mask) if rn == 1 else []

    def necessary(p):
        rn, mask = nec_fn(p, four)
        return rn - 1, _bits_to_ours(mask)

    def unnecessary(p):
        rn, mask = unn_fn(p, four)
        return rn - 1, _bits_to_ours(mask)

    return PeerAdapter(
        name="xiangting",
        version=_dist_version("xiangting", xt),
        module="xiangting",
        prepare=prepare,
        shanten=shanten,
        is_win=is_win,
        waits=waits,
        extras={
            "necessary_tiles": necessary,      # (shanten, our indices)
            "unnecessary_tiles": unnecessary,  # (shanten, our indices)
        },
        notes=(
            "riichi rules, 4-player; min over regular / seven pairs (riichi: "
            "a 4-of-a-kind is NOT two pairs) / thirteen orphans. Tiles the hand "
            "already holds 4 of cannot be waited on (1111m+4 sets = 1-shanten). "
            "Replacement number rn = shanten + 1; is_win is rn == 0."
        ),
    )


# --------------------------------------------------------------------------
# riichienv (Rust, riichi): 136-id input
# --------------------------------------------------------------------------
def _make_riichienv() -> PeerAdapter:
    import riichienv as rie
    from riichienv import _riichienv as core

    shanten_fn = core.calculate_shanten
    Evaluator = core.HandEvaluator  # raw pyo3 class (the Python wrapper only adds text helpers)

    class Prepared:
        __slots__ = ("tiles136", "evaluator", "win_tile")

    def prepare(counts, win_tile: Optional[int] = None):
        c34 = to_riichi34(counts)
        tiles = []
        for t, n in enumerate(c34):
            if n > 4:
                raise ValueError(f"tile {t} count {n} > 4")
            # copies from the top: 5m/5p/5s copy 0 (ids 16/52/88) is red
            tiles.extend(4 * t + 3 - k for k in range(n))
        p = Prepared()
        p.tiles136 = tiles
        p.evaluator = Evaluator(tiles, [])
        if win_tile is None:
            p.win_tile = tiles[-1] if tiles else None
        else:
            wt = _RIICHI_PERM[win_tile]
            p.win_tile = next(x for x in tiles if x // 4 == wt)
        return p

    def shanten(p):
        return shanten_fn(p.tiles136)

    def is_win(p):
        return shanten_fn(p.tiles136) == -1

    def is_win_evaluator(p):
        # full riichi evaluation; has_win_shape ignores the yaku requirement
        # (is_win on the result would additionally require a yaku).
        return p.evaluator.calc(p.win_tile).has_win_shape

    def waits(p):
        return sorted(_RIICHI_PERM[t] for t in p.evaluator.get_waits())

    def waits_with_build(p):
        return sorted(_RIICHI_PERM[t] for t in Evaluator(p.tiles136, []).get_waits())

    def is_tenpai(p):
        return p.evaluator.is_tenpai()

    return PeerAdapter(
        name="riichienv",
        version=_dist_version("riichienv", rie),
        module="riichienv",
        prepare=prepare,
        shanten=shanten,
        is_win=is_win,
        waits=waits,
        extras={
            "is_win_evaluator": is_win_evaluator,
            "is_tenpai": is_tenpai,
            "waits_with_build": waits_with_build,
        },
        notes=(
            "riichi rules; calculate_shanten(list of 136-ids) is the min over "
            "regular / seven pairs (4-of-a-kind is NOT two pairs) / thirteen "
            "orphans and treats a wait on a tile held 4 times as no wait. "
            "HandEvaluator(tiles136, melds).get_waits() returns riichi 34-indices "
            "([] if not tenpai); .calc(win_tile) returns WinResult (is_win needs "
            "a yaku, has_win_shape is shape only; with 13 tiles win_tile is "
            "added). Bad input can raise pyo3 PanicException (a BaseException, "
            "not an Exception)."
        ),
    )


# --------------------------------------------------------------------------
# mahjong (MahjongRepository, pure Python, riichi)
# --------------------------------------------------------------------------
def _make_mahjong() -> PeerAdapter:
    import mahjong
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    calc = Shanten.calculate_shanten
    regular = Shanten.calculate_shanten_for_regular_hand
    agari = Agari.is_agari

    def prepare(counts):
        return to_riichi34(counts)

    def shanten(p):
        return calc(p)

    def is_win(p):
        return agari(p)

    def shanten_regular(p):
        return regular(p)

    return PeerAdapter(
        name="mahjong",
        version=_dist_version("mahjong", mahjong),
        module="mahjong",
        prepare=prepare,
        shanten=shanten,
        is_win=is_win,
        waits=None,  # no wait/ukeire call in the library
        extras={"shanten_regular": shanten_regular},
        notes=(
            "riichi rules, pure Python; Shanten.calculate_shanten(tiles_34, "
            "use_chiitoitsu=True, use_kokushi=True, is_three_player=False) "
            "rejects tile counts divisible by 3 and > 14 (ValueError); seven "
            "pairs counts a 4-of-a-kind as one pair. Agari.is_agari(tiles_34, "
            "open_sets_34=None) is a shape check (regular/seven pairs/kokushi). "
            "No waits function."
        ),
    )


# --------------------------------------------------------------------------
# pymahjonggb (module MahjongGB, C++; Chinese Official / 国标)
# --------------------------------------------------------------------------
def _make_pymahjonggb() -> PeerAdapter:
    import MahjongGB as gb

    fan_calc = gb.MahjongFanCalculator
    shanten_all = gb.MahjongShanten
    forms = (
        gb.RegularShanten,
        gb.SevenPairsShanten,
        gb.ThirteenOrphansShanten,
        gb.HonorsAndKnittedTilesShanten,
        gb.KnittedStraightShanten,
    )

    class Prepared:
        __slots__ = ("packs", "hand", "fan_args")

    def _tiles(counts) -> List[str]:
        out = []
        for i, n in enumerate(_as_list(counts)):
            out.extend([_GB_CODES[i]] * n)
        return out

    def prepare(
        counts,
        win_tile: Optional[int] = None,
        packs=(),
        flower_count: int = 0,
        self_drawn: bool = False,
        is_4th_tile: bool = False,
        about_kong: bool = False,
        wall_last: bool = False,
        seat_wind=0,
        prevalent_wind=0,
    ):
        """``counts`` = the concealed tiles (win tile included for a complete
        hand).  ``packs`` = declared melds as ``(kind, tile, offer)`` with
        kind "CHI"/"PENG"/"GANG", tile = OUR index (middle tile of a chow)
        or a code, offer 0..3 (0 = concealed kong; for a pung/kong 1..3 =
        left/opposite/right player offered it, for a chow 1..3 = which tile
        was claimed).  ``win_tile`` (OUR index) defaults to the highest tile
        of the hand; it is removed from the standing tiles for the fan call.
        """
        tiles = _tiles(counts)
        packs_t = tuple(
            (kind, _GB_CODES[t] if isinstance(t, int) else t, int(offer))
            for kind, t, offer in packs
        )
        p = Prepared()
        p.packs = packs_t
        p.hand = tuple(tiles)
        p.fan_args = None
        if (len(tiles) + 3 * len(packs_t)) == 14 and tiles:
            wt = _GB_CODES[win_tile] if win_tile is not None else tiles[-1]
            standing = list(tiles)
            standing.remove(wt)  # ValueError if the win tile is not in the hand
            sw = _WIND.get(seat_wind, seat_wind)
            pw = _WIND.get(prevalent_wind, prevalent_wind)
            p.fan_args = (
                packs_t, tuple(standing), wt, int(flower_count), bool(self_drawn),
                bool(is_4th_tile), bool(about_kong), bool(wall_last), int(sw), int(pw),
                True,  # verbose: (fan_point, count, name_cn, name_en)
            )
        return p

    def shanten(p):
        # MahjongShanten: min over all 5 forms, standing tiles 13 - 3*packs only
        return shanten_all(p.packs, p.hand)

    def is_win(p):
        # No dedicated win check is exposed: the fan calculator raises
        # TypeError("ERROR_NOT_WIN") on a hand that is not complete.
        if p.fan_args is None:
            return False
        try:
            fan_calc(*p.fan_args)
        except TypeError as e:
            if str(e) == "ERROR_NOT_WIN":
                return False
            raise
        return True

    def fan(p):
        if p.fan_args is None:
            raise ValueError("fan() needs a 14-tile hand (concealed + 3 per pack)")
        return list(fan_calc(*p.fan_args))

    def waits(p):
        # union of the useful tiles of every form that is ready (shanten 0);
        # 5 native calls.  Forms 2-5 need 13 standing tiles (no packs).
        best = None
        useful = set()
        for f in forms:
            try:
                s, u = f(p.hand)
            except TypeError:  # form not applicable to this tile count
                continue
            if best is None or s < best:
                best, useful = s, set(u)
            elif s == best:
                useful.update(u)
        if best != 0:
            return []
        return sorted(_GB_INDEX[c] for c in useful)

    def regular(p):
        s, u = gb.RegularShanten(p.hand)
        return s, sorted(_GB_INDEX[c] for c in u)

    return PeerAdapter(
        name="pymahjonggb",
        version=_dist_version("PyMahjongGB", gb),
        module="MahjongGB",
        prepare=prepare,
        shanten=shanten,
        is_win=is_win,
        waits=waits,
        fan=fan,
        extras={"regular_shanten": regular},
        notes=(
            "Chinese Official rules (ChineseOfficialMahjongHelper core). "
            "MahjongShanten(pack, hand) = min over regular / seven pairs (a "
            "4-of-a-kind counts as two pairs) / thirteen orphans / honors & "
            "knitted / knitted straight; hand must be 13 - 3*packs standing "
            "tiles (14 tiles -> TypeError ERROR_INVALID_HAND_OR_PACK). Its "
            "regular form does NOT discount waits on a tile held 4 times. "
            "is_win goes through MahjongFanCalculator (full fan calculation, "
            "TypeError ERROR_NOT_WIN when not complete); the 8-fan minimum is "
            "not enforced. All errors are TypeError."
        ),
    )


# --------------------------------------------------------------------------
_FACTORIES = (
    ("xiangting", _make_xiangting),
    ("riichienv", _make_riichienv),
    ("mahjong", _make_mahjong),
    ("pymahjonggb", _make_pymahjonggb),
)
PEER_NAMES = tuple(n for n, _ in _FACTORIES)

_cache: Optional[Dict[str, PeerAdapter]] = None
_errors: Dict[str, str] = {}


def _load() -> Dict[str, PeerAdapter]:
    global _cache
    if _cache is None:
        found = {}
        for name, factory in _FACTORIES:
            try:
                found[name] = factory()
            except BaseException as e:  # ImportError, or a pyo3 panic on import
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                _errors[name] = f"{type(e).__name__}: {e}"
        _cache = found
    return _cache


def available_peers() -> List[PeerAdapter]:
    """Adapters of the peers that imported, in a fixed order."""
    return list(_load().values())


def get_peer(name: str) -> Optional[PeerAdapter]:
    """The adapter named ``name``, or None when that peer is not installed."""
    return _load().get(name)


def import_errors() -> Dict[str, str]:
    """Why each missing peer could not be loaded."""
    _load()
    return dict(_errors)


if __name__ == "__main__":  # quick per-call timing: python bench/peers.py [N]
    import sys
    import timeit

    def _counts(tiles):
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        return c

    hands = {
        # 1112345678999m: ready on 9 tiles (a hard case for decomposition search)
        "9gates13": _counts((0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)),
        # 12357m456p78sEWN: a plain 2-shanten hand
        "2shanten13": _counts((0, 1, 2, 4, 6, 12, 13, 14, 24, 25, 27, 29, 30)),
        # 123m456p789sEEESS: complete (win on S)
        "win14": _counts((0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 28, 28)),
    }
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    for peer in available_peers():
        prepared = {k: peer.prepare(v) for k, v in hands.items()}
        calls = []
        for h13 in ("9gates13", "2shanten13"):
            calls.append(("shanten", h13, peer.shanten))
            if peer.waits:
                calls.append(("waits", h13, peer.waits))
            for key, fn in peer.extras.items():
                calls.append((key, h13, fn))
        calls.append(("is_win", "win14", peer.is_win))
        if peer.fan:
            calls.append(("fan", "win14", peer.fan))
        for label, hand, fn in calls:
            arg = prepared[hand]
            dt = min(timeit.repeat(lambda: fn(arg), number=n, repeat=3))
            print(f"{peer.name:12s} {peer.version:8s} {label:20s} {hand:11s} {n / dt:12,.0f} calls/s")
    for name, err in import_errors().items():
        print(f"{name}: not available ({err})")
