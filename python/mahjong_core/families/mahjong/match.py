"""A mahjong match: the shared :class:`mahjong_core.game.match.Match` with mahjong's rounds and
its prevalent wind (spec 2.10, OP-13).  The dealer rules are the round's (``next_dealer``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, cast, overload

from ..._types import Int as Integer, LongcardRulesetName, MahjongRulesetName, WindLike
from ..._validate import as_flag
from ...game.match import Match as SharedMatch
from ...game.schema import Bool, Int
from ..registry import DEFAULT_RULESET
from .round import Round, RoundResult
from .rulesetdef import Ruleset
from .tiles import parse_wind

if TYPE_CHECKING:
    from ...game.contract import Match as AnyMatch
    from .json_types import RoundResultDict

__all__ = ["Match"]


class Match(SharedMatch):
    """Rounds in sequence.  ``Match("public", seed=5, rounds=8)``.

    ``rounds``: number of rounds (``None``: unbounded; the match length is not part of the rules,
    OP-53).  ``first_dealer``: seat, or ``None`` for a random one from the seed (2.2, OP-15).
    ``round_wind``: prevalent wind (`public`, default East); ``wind_rotation=True`` advances it one
    wind every ``players`` rounds (OP-13 option).  ``min_fan`` / ``options``: as for :class:`Round`.

    Play the current :attr:`round` (``match.round.step(...)``, or :meth:`step` here); when it is
    over, :meth:`next_round` records its result and deals the next one (:meth:`step` does that
    automatically with ``auto_advance=True``).
    """

    round_class = Round
    FAMILY_ARGS = {"round_wind": Int(27, 30), "wind_rotation": Bool()}

    # the constructor's type, as mj.Round's: another family's ruleset gives a match of the contract
    @overload
    def __new__(cls, ruleset: LongcardRulesetName, seed: Integer | None = None,  # type: ignore[misc]
                **kwargs: Any) -> AnyMatch: ...
    @overload
    def __new__(cls, ruleset: MahjongRulesetName | Ruleset = ..., seed: Integer | None = None, *,
                rounds: Integer | None = None, first_dealer: Integer | None = None, round_wind: WindLike = 27,
                wind_rotation: bool = False, min_fan: Integer | None = None, options: Mapping[str, Any] | None = None,
                auto_advance: bool = False, duplicate: bool = False) -> Match: ...
    @overload
    def __new__(cls, ruleset: str, seed: Integer | None = None,  # type: ignore[misc]
                **kwargs: Any) -> Match | AnyMatch: ...
    def __new__(cls, ruleset: Any = DEFAULT_RULESET, *args: Any, **kwargs: Any) -> Any:  # noqa: PYI034
        # the public face of every family's match, as mj.Round (game/contract.py)
        return super().__new__(cls, ruleset, *args, **kwargs)

    def __init__(self, ruleset: str = DEFAULT_RULESET, seed: "int | None" = None, *, rounds: "int | None" = None,
                 first_dealer: "int | None" = None, round_wind: int = 27, wind_rotation: bool = False,
                 min_fan: "int | None" = None, options: "dict[str, Any] | None" = None,
                 auto_advance: bool = False, duplicate: bool = False) -> None:
        super().__init__(ruleset, seed, rounds=rounds, first_dealer=first_dealer, min_fan=min_fan, options=options,
                         auto_advance=auto_advance, duplicate=duplicate, round_wind=round_wind,
                         wind_rotation=wind_rotation)

    @property
    def round_results(self) -> list[RoundResult]:
        """The recorded rounds' :class:`~mahjong_core.families.mahjong.round.RoundResult` objects
        (knowing their ruleset, so that a draw has its ``deltas``)."""
        return [RoundResult(cast("RoundResultDict", r), ruleset=self.ruleset) for r in self.results]

    def _init_family(self, round_wind: Any = 27, wind_rotation: Any = False) -> None:
        self.base_round_wind = parse_wind(round_wind, "round_wind")
        self.wind_rotation = as_flag(wind_rotation, "wind_rotation")

    def _family_args(self) -> dict[str, Any]:
        return {"round_wind": self.base_round_wind, "wind_rotation": self.wind_rotation}

    def _wind(self, k: int) -> int:
        if not self.wind_rotation:
            return self.base_round_wind
        return 27 + (self.base_round_wind - 27 + k // self.players) % 4

    def _round_kwargs(self, k: int) -> dict[str, Any]:
        return {"round_wind": self._wind(k)}

    def _round_record(self, rnd: Any) -> dict[str, Any]:
        return {"round_wind": rnd.round_wind}
