"""What the two round engines share: the checked construction of a round, and the API methods
that only read a round through its queries (decoding actions, views, JSON, the log, replay).

:class:`mahjong_core.game.Round` (the compiled engine's API) and the reference engine
:class:`mahjong_core.families.mahjong._ref.round_py.Round` both derive from :class:`RoundBase`; each keeps its own
state and transitions.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

import numpy as np

from .._validate import as_flag, as_int, as_seat, is_int
from ..families.registry import DEFAULT_RULESET
from ..errors import IllegalActionError, MahjongError, SeatError, TileCountError
from ..families.mahjong.constants import MELD_NAMES, PHASE_NAMES
from ..families.mahjong.tiles import meld_tiles, parse_tiles, parse_wind
from .actions import (
    ACTION_SIZE, CHI_HIGH, CHI_LOW, DECLARE_READY, DISCARD_READY, KONG_CLAIM, KONG_SELF, PON, WIN, Action,
    Chi, DeclareReady, Discard, Kong, Pass, Pon, Win,
)
from .checks import encode_action, why_illegal
from .schema import MAX_SEED, MAX_SPAWN_KEY, MAX_SPAWN_VALUE, short_repr
from ..families.mahjong.settings import settings_and_options
from .state import SCHEMA_VERSION, load_json, load_round, replay_log, round_from_header
from ..families.mahjong.wall import N_KONG_DICE, shuffle_wall
from .views import make_view, redact_checked
from .json_types import PlayerView, SeatEvent

__all__ = ["RoundBase", "meld_tiles", "MELD_NAMES", "SCHEMA_VERSION", "PHASE_NAMES"]



class RoundBase:
    """API methods common to both engines (see the module docstring).  A subclass provides
    ``settings``, ``players``, ``dealer``, ``seed``, ``phase``, ``claim_tile``, ``log``,
    ``legal_indices``, ``hand_counts``, ``step``, ``to_dict``/``from_dict`` and the helpers
    :mod:`~mahjong_core.game.checks` reads, and ``_start`` (deal the checked round)."""

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
        ``spawn_key`` (used by :class:`~mahjong_core.game.Match` to give each round its own wall),
        and for tests ``wall`` (all tiles in logical drawing order, see
        :func:`~mahjong_core.families.mahjong.wall.script_wall`), ``dice`` and ``kong_dice``.  The arguments
        are checked here; the engine starts the round in ``_start``.
        """
        s, opts = settings_and_options(ruleset, options, min_fan)
        P = s.players
        dealer = as_seat(dealer, P, "dealer (a seat)")
        round_wind = parse_wind(round_wind, "round_wind")
        if seed is None:
            seed = as_int(np.random.SeedSequence().entropy, "seed", 0, MAX_SEED)   # fresh entropy
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

    @property
    def ruleset(self) -> str:
        return self.settings.ruleset

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def live_remaining(self) -> int:
        """Tiles that may still be drawn before the exhaustive draw (wall minus ``reserved_tail_tiles``)."""
        return self._live()

    def _seat(self, seat: Any) -> int:
        """``seat`` as an int 0..P-1, else :class:`SeatError`."""
        return as_seat(seat, self.players)

    def _query_seat(self, seat: Any) -> "int | None":
        """For ``legal_indices``: ``seat`` as an int 0..P-1, ``None`` for another integer (no seat
        to act), :class:`MahjongError` for anything that is not an integer."""
        if type(seat) is int:
            return seat if 0 <= seat < self.players else None
        if not is_int(seat):
            raise SeatError(f"seat must be 0-{self.players - 1}, got {short_repr(seat)}")
        return int(seat) if 0 <= seat < self.players else None

    def seat_wind(self, seat: int) -> int:
        """Seat wind (27-30) of ``seat``: the dealer is East, his 下家 South, ... (OP-13)."""
        return 27 + (self._seat(seat) - self.dealer) % self.players

    def hand(self, seat: int) -> list[int]:
        """Sorted concealed tiles of ``seat`` (server side; views show only one's own)."""
        h = self.hand_counts(seat).tolist()
        return [k for k in range(34) for _ in range(h[k])]

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` as typed action objects (empty if he is not to act)."""
        return [self.decode_action(seat, i) for i in self.legal_indices(seat)]

    def legal_mask(self, seat: int) -> np.ndarray:
        """Boolean mask of size ``ACTION_SIZE`` (layout in :mod:`mahjong_core.game.actions`)."""
        m = np.zeros(ACTION_SIZE, dtype=bool)
        idx = self.legal_indices(seat)
        if idx:
            m[idx] = True
        return m

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

    def action_index(self, seat: int, action: Any) -> int:
        """Mask index of ``action`` (an action object, its dict, or an index) for ``seat`` now."""
        return encode_action(self, self._seat(seat), action)

    def _checked_action(self, seat: Any, action: Any) -> tuple[int, int]:
        """``(seat, mask index)`` of an action ``step`` may apply; else
        :class:`IllegalActionError` with the reason (nothing is changed)."""
        if self.is_over:
            raise IllegalActionError("the round is over; no action is accepted")
        seat = as_seat(seat, self.players)
        i = encode_action(self, seat, action)
        legal = self.legal_indices(seat)
        if not legal:
            raise IllegalActionError(
                f"seat {seat} is not to act now (phase {self.phase_name}; to act: {self.seats_to_act()})")
        if i not in legal:
            raise IllegalActionError(why_illegal(self, seat, i))
        return seat, i

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see, as plain JSON-able data (never the opponents' concealed tiles,
        face-down kongs or the wall order)."""
        return make_view(self, seat)

    def __reduce__(self):
        # pickle / copy.deepcopy through the JSON-able state (the compiled core holds C data)
        return (_from_state, (type(self), self.to_dict()))

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string; ``Round.from_json(r.to_json())`` restores it exactly."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]):
        """The round a saved state (:meth:`to_dict`) describes.  The state is not copied into the
        engine: the round is dealt again from the log's header, every action of the log is
        replayed through :meth:`step`, and the result must equal ``d`` field by field (see
        :mod:`mahjong_core.game.state`); otherwise :class:`~mahjong_core.errors.StateError` names
        the first offending field.  A finished round's result is recomputed, never read."""
        return load_round(cls, d)

    @classmethod
    def from_json(cls, data: "str | bytes | dict[str, Any]"):
        """Inverse of :meth:`to_json` (also accepts the dict of :meth:`to_dict`); any damage,
        including invalid or too deeply nested JSON, is a :class:`~mahjong_core.errors.StateError`."""
        return cls.from_dict(data if isinstance(data, dict) else load_json(data, "the round state"))

    def log_lines(self) -> list[str]:
        """The event log, one JSON object per event (the first is the header with the seed)."""
        return [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in self.log]

    def log_for(self, seat: int) -> list[SeatEvent]:
        """The event log as ``seat`` may see it: every event through
        :func:`~mahjong_core.game.views.redact_event`, the hidden ones left out (no wall, no
        other player's concealed or drawn tiles, no claim answers of others)."""
        return redact_checked(self.log, self._seat(seat))

    @classmethod
    def from_header(cls, header: dict[str, Any]) -> "RoundBase":
        """A fresh round from a log header (seed, options and any scripted wall); a damaged
        header is a :class:`~mahjong_core.errors.StateError` naming the field."""
        return round_from_header(cls, header, "header")

    @classmethod
    def replay(cls, log: "Iterable[dict[str, Any] | str]", *, verify: bool = True) -> "RoundBase":
        """Rebuild a round from its event log (dicts or JSON lines) by re-applying every action.
        With ``verify`` every event must be the one the actions produce (else
        :class:`~mahjong_core.errors.StateError` naming ``log[i]``); without it only the header
        and the actions are read.  An illegal action is a ``StateError`` naming its event."""
        return replay_log(cls, log, verify=as_flag(verify, "verify"))

    def __repr__(self) -> str:
        return (f"Round({self.ruleset!r}, seed={self.seed}, dealer={self.dealer}, phase={self.phase_name!r}, "
                f"wall_remaining={self.wall_remaining})")


def _from_state(cls: type, d: dict[str, Any]) -> RoundBase:
    return cls.from_dict(d)


def _int_list(value: Any, what: str, lo: int, hi: int, max_len: int) -> list[int]:
    """A list (or tuple / array) of at most ``max_len`` integers in ``[lo, hi]`` as plain ints."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__"):
        raise MahjongError(f"{what} must be a list of integers, got {short_repr(value)}")
    if len(value) > max_len:
        raise MahjongError(f"{what}: at most {max_len} values, got {len(value)}")
    return [as_int(v, what, lo, hi) for v in value]
