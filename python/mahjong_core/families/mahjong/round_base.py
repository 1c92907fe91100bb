"""What the two mahjong round engines share: the checked construction of a round (wall, dice,
winds), and the mahjong answers to the hooks of :class:`mahjong_core.game.round_base.RoundBase`
(action decoding and refusals, the view, event redaction, the header shape, the invariants).

:class:`mahjong_core.families.mahjong.round.Round` (the compiled engine's API) and the reference
engine :class:`mahjong_core.families.mahjong._ref.round.Round` both derive from
:class:`MahjongRoundBase`; each keeps its own state and transitions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

import numpy as np
import numpy.typing as npt

from ..._validate import as_int, as_seat
from ...errors import MahjongError, TileCountError
from .actions import (
    ACTION_SIZE, CHI_HIGH, CHI_LOW, DECLARE_READY, DISCARD_READY, KONG_CLAIM, KONG_SELF, PON, WIN, Action,
    Chi, DeclareReady, Discard, Kong, Pass, Pon, Win,
)
from ...game.round_base import RoundBase
from ...game.schema import MAX_SEED, MAX_SPAWN_KEY, MAX_SPAWN_VALUE, Obj, short_repr
from ...game.state import SCHEMA_VERSION
from ..registry import DEFAULT_RULESET
from .constants import MELD_NAMES, PHASE_NAMES
from .round_checks import encode_action, why_illegal
from .round_invariants import check_invariants
from .round_schema import header_shape
from .round_views import VIEW_KEYS, redact_one, redact_shared, view_fields
from .settings import FlowSettings, settings_and_options
from .tiles import meld_tiles, parse_tiles, parse_wind
from .wall import N_KONG_DICE, shuffle_wall

__all__ = ["MahjongRoundBase", "meld_tiles", "MELD_NAMES", "SCHEMA_VERSION", "PHASE_NAMES"]


class MahjongRoundBase(RoundBase):
    """The mahjong part common to both engines (see the module docstring).  A subclass provides
    ``settings``, ``players``, ``dealer``, ``seed``, ``phase``, ``claim_tile``, ``log``,
    ``legal_indices``, ``hand_counts``, ``step``, ``to_dict``, the helpers
    :mod:`~mahjong_core.families.mahjong.round_checks` reads, and ``_start`` (deal the checked round)."""

    ACTION_SIZE = ACTION_SIZE
    PHASE_NAMES = PHASE_NAMES
    VIEW_KEYS = VIEW_KEYS

    # what the engines provide beyond RoundBase's hooks (see RoundBase: the state is declared for
    # the type checker only, the methods raise unless the engine defines them)
    settings: FlowSettings
    header: dict[str, Any]
    round_wind: int

    if TYPE_CHECKING:   # read-only here; stubtest_allowlist.txt names them (absent at run time)
        @property
        def claim_tile(self) -> int: ...
        @property
        def wall_remaining(self) -> int: ...

    def _start(self, s: FlowSettings, header: dict[str, Any], tiles: list[int], dice: list[int],
               kong_dice: list[int]) -> None:
        """Deal the round the constructor checked (the engine's own state and first events)."""
        raise NotImplementedError

    def _live(self) -> int:
        raise NotImplementedError

    def hand_counts(self, seat: int) -> npt.NDArray[np.uint8]:
        raise NotImplementedError

    def _pon_of(self, seat: int, t: int) -> int:
        raise NotImplementedError

    def __init__(
        self,
        ruleset: str = DEFAULT_RULESET,
        seed: "int | None" = None,
        *,
        dealer: int = 0,
        round_wind: Any = 27,
        min_fan: "int | None" = None,
        options: "dict[str, Any] | None" = None,
        spawn_key: Sequence[int] = (),
        wall: "Sequence[int] | str | None" = None,
        dice: "Sequence[int] | None" = None,
        kong_dice: "Sequence[int] | None" = None,
    ) -> None:
        """One round of mahjong under ``ruleset``, from a seed (or a scripted wall).

        ``Round(ruleset="two-player", seed=1)``.  Keyword arguments: ``dealer`` (seat 0..P-1,
        default 0), ``round_wind`` (27-30 or "E"/"S"/"W"/"N"; `public` only), ``min_fan`` (起和,
        default the ruleset's), ``options`` (overrides of :class:`FlowSettings` fields),
        ``spawn_key`` (used by :class:`~mahjong_core.Match` to give each round its own wall),
        and for tests ``wall`` (all tiles in logical drawing order, see
        :func:`~mahjong_core.families.mahjong.wall.script_wall`), ``dice`` and ``kong_dice``.  The arguments
        are checked here; the engine starts the round in ``_start``.
        """
        s, opts = settings_and_options(ruleset, options, min_fan)
        P = s.players
        dealer = as_seat(dealer, P, "dealer (a seat)")
        round_wind = parse_wind(round_wind, "round_wind")
        if seed is None:
            seed = int(cast(int, np.random.SeedSequence().entropy))
        seed = as_int(seed, "seed", 0, MAX_SEED)
        spawn_key = _int_list(spawn_key, "spawn_key", 0, MAX_SPAWN_VALUE, MAX_SPAWN_KEY)
        tiles, dice0, kd0 = shuffle_wall(s, seed, spawn_key)
        header: dict[str, Any] = {
            "type": "header",
            "schema_version": SCHEMA_VERSION,
            "ruleset": s.ruleset,
            "seed": seed,
            "spawn_key": spawn_key,
            "dealer": dealer,
            "round_wind": round_wind,
            "options": opts,
        }
        if wall is not None:
            tiles = parse_tiles(wall) if isinstance(wall, str) else _int_list(wall, "wall", 0, 41, s.n_tiles)
            if sorted(tiles) != s.tile_set():
                raise TileCountError(
                    f"a scripted wall must hold exactly the {s.n_tiles} tiles of {s.ruleset!r}"
                )
            header["wall"] = list(tiles)
        if dice is not None:
            dice0 = _int_list(dice, "dice (two values 1-6)", 1, 6, 2)
            if len(dice0) != 2:
                raise MahjongError(f"dice must be two values 1-6, got {dice!r}")
            header["dice"] = dice0
        if kong_dice is not None:
            kd = _int_list(kong_dice, f"kong_dice (at most {N_KONG_DICE} values 1-6)", 1, 6, N_KONG_DICE)
            header["kong_dice"] = kd
            kd0 = kd + kd0[len(kd):]
        self._start(s, header, list(tiles), dice0, kd0)

    # ------------------------------------------------------------------ the state boundary's hooks
    @staticmethod
    def _settings_and_options(ruleset: Any, options: Any = None,
                              min_fan: Any = None) -> tuple[FlowSettings, dict[str, Any]]:
        return settings_and_options(ruleset, options, min_fan)

    @classmethod
    def _header_shape(cls) -> Obj:
        return header_shape()

    @classmethod
    def _new_from_header(cls, header: dict[str, Any]) -> "MahjongRoundBase":
        return cls(
            header["ruleset"], header["seed"], dealer=header["dealer"], round_wind=header["round_wind"],
            options=header["options"], spawn_key=header["spawn_key"], wall=header.get("wall"),
            dice=header.get("dice"), kong_dice=header.get("kong_dice"),
        )

    def _check_invariants(self, events: bool = True) -> None:
        check_invariants(self, events=events)

    # ------------------------------------------------------------------ queries
    @property
    def live_remaining(self) -> int:
        """Tiles that may still be drawn before the exhaustive draw (wall minus ``reserved_tail_tiles``)."""
        return self._live()

    def seat_wind(self, seat: int) -> int:
        """Seat wind (27-30) of ``seat``: the dealer is East, his 下家 South, ... (OP-13)."""
        return 27 + (self._seat(seat) - self.dealer) % self.players

    def hand(self, seat: int) -> list[int]:
        """Sorted concealed tiles of ``seat`` (server side; views show only one's own)."""
        h = self.hand_counts(seat).tolist()
        return [k for k in range(34) for _ in range(h[k])]

    # ------------------------------------------------------------------ actions
    def decode_action(self, seat: int, i: int) -> Action:
        """The action object of mask index ``i`` for ``seat`` now (``i`` one of its legal indices)."""
        if i < DISCARD_READY:
            return Discard(i)
        if i < KONG_SELF:
            return Discard(i - DISCARD_READY, True)
        if i < CHI_LOW:
            t = i - KONG_SELF
            return Kong(t, "added" if self._pon_of(seat, t) >= 0 else "concealed")
        if i <= CHI_HIGH:
            low = self.claim_tile - (i - CHI_LOW)
            return Chi((low, low + 1, low + 2))
        if i == PON:
            return Pon()
        if i == KONG_CLAIM:
            return Kong(self.claim_tile, "exposed")
        if i == WIN:
            return Win()
        if i == DECLARE_READY:
            return DeclareReady()
        return Pass()

    def _encode_action(self, seat: int, action: Any) -> int:
        return encode_action(self, seat, action)

    def _why_illegal(self, seat: int, i: int) -> str:
        return why_illegal(self, seat, i)

    # ------------------------------------------------------------------ views
    def _view_fields(self, seat: int, legal: list[int]) -> dict[str, Any]:
        return view_fields(self, seat, legal)

    @staticmethod
    def _redact_event(ev: dict[str, Any], seat: int) -> "dict[str, Any] | None":
        return redact_one(ev, seat)

    _redact_shared = staticmethod(redact_shared)
    """:meth:`_redact_event`, an event the seat sees as it is given back itself (the server's streams):
    the function itself, not a method calling it (called per event and seat of every step)."""

    def __repr__(self) -> str:
        return (f"Round({self.ruleset!r}, seed={self.seed}, dealer={self.dealer}, phase={self.phase_name!r}, "
                f"wall_remaining={self.wall_remaining})")


def _int_list(value: Any, what: str, lo: int, hi: int, max_len: int) -> list[int]:
    """A list (or tuple / array) of at most ``max_len`` integers in ``[lo, hi]`` as plain ints."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__"):
        raise MahjongError(f"{what} must be a list of integers, got {short_repr(value)}")
    if len(value) > max_len:
        raise MahjongError(f"{what}: at most {max_len} values, got {len(value)}")
    return [as_int(v, what, lo, hi) for v in value]
