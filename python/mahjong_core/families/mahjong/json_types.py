"""The JSON data of the game layer as ``TypedDict`` s: log events, actions, the per-seat view, a
finished round's result and the saved round and match states.

These are the static types of what :meth:`Round.step` / :attr:`Round.log` return,
:meth:`Round.view` and :func:`~mahjong_core.game.views.redact_event` hand a seat,
:meth:`RoundResult.to_dict` and :meth:`Round.to_dict` / :meth:`Match.to_dict` (and their
``to_json``) write.  They are plain dicts at run time; the run-time check of a document read back
is :mod:`mahjong_core.families.mahjong.round_schema` (ranges, lengths, which event types exist), and
``tests/packaging/test_typing.py`` holds the keys here equal to the keys the schema checks.

Keys that are Python keywords (``from``) or optional are why some types use the functional
syntax and a ``total=False`` subclass (``NotRequired`` needs Python 3.11).

>>> from mahjong_core import Round
>>> from mahjong_core.families.mahjong.json_types import Event, PlayerView
>>> r = Round(seed=1)
>>> view: PlayerView = r.view(0)
>>> view["seat"], len(view["hand"]), view["phase"]
(0, 14, 'ready_window')
>>> first: Event = r.log[0]
>>> first["type"]
'header'
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = [
    "ActionDict",
    "ActionEvent",
    "ChiActionDict",
    "ChiEvent",
    "ClaimView",
    "DealEvent",
    "DeclareReadyActionDict",
    "DiceEvent",
    "DiscardActionDict",
    "DiscardEvent",
    "DrawEvent",
    "Event",
    "ExhaustiveDrawEvent",
    "FanEntry",
    "FlowerEvent",
    "HeaderEvent",
    "HiddenDealEvent",
    "HiddenDrawEvent",
    "KongActionDict",
    "KongEvent",
    "MatchProgress",
    "MatchState",
    "MatchView",
    "MeldView",
    "PassActionDict",
    "PlayerView",
    "PonActionDict",
    "PonEvent",
    "ReadyEvent",
    "RoundEndEvent",
    "RoundResultDict",
    "RoundState",
    "SeatEvent",
    "WinActionDict",
    "WinEvent",
    "WinnerRecord",
]

KongKind = Literal["concealed", "added", "exposed"]

# ---------------------------------------------------------------------------------- actions
# ``Action.to_dict()`` (mahjong_core.families.mahjong.actions); schema: ``action_shape``.


class DiscardActionDict(TypedDict):
    type: Literal["discard"]
    tile: int
    ready: bool


class ChiActionDict(TypedDict):
    type: Literal["chi"]
    tiles: list[int]


class PonActionDict(TypedDict):
    type: Literal["pon"]


class KongActionDict(TypedDict):
    type: Literal["kong"]
    tile: int
    kind: KongKind


class WinActionDict(TypedDict):
    type: Literal["win"]


class PassActionDict(TypedDict):
    type: Literal["pass"]


class DeclareReadyActionDict(TypedDict):
    type: Literal["declare_ready"]


ActionDict = (DiscardActionDict | ChiActionDict | PonActionDict | KongActionDict | WinActionDict | PassActionDict
              | DeclareReadyActionDict)

# ---------------------------------------------------------------------------------- events
# One entry of the round log (``Round.log``, the list ``Round.step`` returns); schema:
# ``event_shape``.  Tiles are indices 0-33, flowers 34-41; seats 0 .. players - 1.


class _HeaderRequired(TypedDict):
    type: Literal["header"]
    schema_version: int
    ruleset: str
    seed: int
    spawn_key: list[int]
    dealer: int
    round_wind: int
    options: dict[str, bool | int | str]


class HeaderEvent(_HeaderRequired, total=False):
    """The first event: everything the round is rebuilt from (a scripted wall and dice too)."""

    wall: list[int]
    dice: list[int]
    kong_dice: list[int]


class DiceEvent(TypedDict):
    type: Literal["dice"]
    dice: list[int]
    sum: int
    opened_wall: int
    first_stack: int


class DealEvent(TypedDict):
    type: Literal["deal"]
    seat: int
    tiles: list[int]


class FlowerEvent(TypedDict):
    type: Literal["flower"]
    seat: int
    tile: int


_DrawRequired = TypedDict("_DrawRequired", {
    "type": Literal["draw"], "seat": int, "tile": int, "from": Literal["head", "tail", "die"]})


class DrawEvent(_DrawRequired, total=False):
    die: int
    """The kong die that chose the tile (``from`` = ``"die"``)."""


class ActionEvent(TypedDict):
    type: Literal["action"]
    seat: int
    action: ActionDict


class ReadyEvent(TypedDict):
    type: Literal["ready"]
    seat: int
    heavenly: bool


class _DiscardRequired(TypedDict):
    type: Literal["discard"]
    seat: int
    tile: int


class DiscardEvent(_DiscardRequired, total=False):
    ready: bool
    heavenly: bool


_KongRequired = TypedDict("_KongRequired", {
    "type": Literal["kong"], "seat": int, "kind": KongKind, "tile": int | None})
_KongFrom = TypedDict("_KongFrom", {"from": int}, total=False)


class KongEvent(_KongRequired, _KongFrom):
    """A kong; ``from`` (optional) the discarder of an exposed kong.  ``tile`` is None where
    another seat sees a concealed kong."""


PonEvent = TypedDict("PonEvent", {"type": Literal["pon"], "seat": int, "tile": int, "from": int})
ChiEvent = TypedDict("ChiEvent", {"type": Literal["chi"], "seat": int, "tiles": list[int], "tile": int,
                                  "from": int})


class ExhaustiveDrawEvent(TypedDict):
    type: Literal["exhaustive_draw"]
    wall_remaining: int


class RoundEndEvent(TypedDict):
    type: Literal["round_end"]
    draw: bool
    winners: list[int]
    next_dealer: int


FanEntry = list[str | int]
"""``[fan id, points, count]`` of a win event."""

WinEvent = TypedDict("WinEvent", {
    "type": Literal["win"], "seat": int, "from": int | None, "method": str,
    "tile": int | None, "total": int, "fans": list[FanEntry]})
"""A win (``method``: self_drawn, discard or robbing; ``from``: the discarder or the robbed seat)."""

Event = (HeaderEvent | DiceEvent | DealEvent | FlowerEvent | DrawEvent | ActionEvent | ReadyEvent | DiscardEvent
         | KongEvent | PonEvent | ChiEvent | ExhaustiveDrawEvent | RoundEndEvent | WinEvent)
"""One log event; ``event["type"]`` tells which."""


class HiddenDealEvent(TypedDict):
    """Another seat's deal as a seat sees it: how many tiles, and the flowers among them."""

    type: Literal["deal"]
    seat: int
    n: int
    flowers: list[int]


_HiddenDrawRequired = TypedDict("_HiddenDrawRequired", {
    "type": Literal["draw"], "seat": int, "from": Literal["head", "tail", "die"]})


class HiddenDrawEvent(_HiddenDrawRequired, total=False):
    """Another seat's draw as a seat sees it: the tile only when it is a flower (shown at once)."""

    tile: int
    die: int


SeatEvent = Event | HiddenDealEvent | HiddenDrawEvent
"""An event as one seat may see it (:func:`~mahjong_core.game.views.redact_event`): the header
without the wall, dice and seed; another seat's deal and draw hidden; a concealed kong's tile None."""

# ---------------------------------------------------------------------------------- views
_MeldRequired = TypedDict("_MeldRequired", {"kind": str, "tiles": list[int] | None, "from": int | None})


class MeldView(_MeldRequired, total=False):
    """A meld in a view: ``kind`` (chi, pon, kong, ckong), ``tiles`` (None for another seat's
    concealed kong), ``from``; ``claimed`` (the claimed tile) and ``added`` (an added kong)
    where they apply."""

    claimed: int
    added: bool


ClaimView = TypedDict("ClaimView", {
    "tile": int, "from": int, "kind": Literal["discard", "added_kong"], "last": bool})
"""The tile a claim window is open on, its discarder, and whether it is the wall's last."""


class PlayerView(TypedDict):
    """What one seat may know (:meth:`Round.view`); keys :data:`~mahjong_core.game.views.VIEW_KEYS`."""

    schema_version: int
    ruleset: str
    seat: int
    players: int
    dealer: int
    round_wind: int | None
    seat_winds: list[int] | None
    phase: str
    turn: int | None
    to_act: bool
    hand: list[int]
    drawn: int | None
    hand_sizes: list[int]
    melds: list[list[MeldView]]
    discards: list[list[int]]
    flowers: list[list[int]]
    ready: list[bool] | None
    wall_remaining: int
    live_remaining: int
    dice: list[int]
    claim: ClaimView | None
    legal_actions: list[ActionDict]
    legal_indices: list[int]
    result: RoundResultDict | None
    min_fan: int


class MatchProgress(TypedDict):
    round: int
    rounds: int | None
    results: list[RoundResultDict]


class MatchView(PlayerView):
    """:meth:`Match.view`: the round's view and where the match stands."""

    match: MatchProgress


# ---------------------------------------------------------------------------------- results and states
class WinnerRecord(TypedDict):
    """One winner of :meth:`RoundResult.to_dict` (``score``: :meth:`Score.to_dict`; ``score_args``:
    the keyword arguments of :func:`mahjong_core.score` that give it again)."""

    seat: int
    loser: int | None
    method: str
    win_tile: int | None
    total: int
    non_flower_total: int
    score: dict[str, Any]
    score_args: dict[str, Any]


class RoundResultDict(TypedDict):
    """A finished round (:meth:`RoundResult.to_dict`); schema: ``result_shape``."""

    draw: bool
    winners: list[WinnerRecord]
    dealer: int
    next_dealer: int
    dealer_continues: bool
    wall_remaining: int


class RoundState(TypedDict):
    """The whole round (:meth:`Round.to_dict`, ``to_json``); schema: ``state_shape``.  ``melds``
    rows are ``[kind, first tile, from, claimed, added]``; ``claim.responses`` the mask index each
    seat answered (-1: none yet)."""

    schema_version: int
    header: HeaderEvent
    wall: dict[str, Any]
    dice: list[int]
    kong_dice: list[int]
    kong_dice_used: int
    hands: list[list[int]]
    melds: list[list[list[int]]]
    discards: list[list[int]]
    flowers: list[list[int]]
    phase: str
    turn: int
    drawn: int
    drawn_src: str
    must_discard: bool
    ready: list[bool]
    ready_concealed: list[bool]
    heavenly_ready: list[bool]
    dealer_first: bool
    calls_made: bool
    drew: list[bool]
    earthly_seat: int
    claim: dict[str, Any]
    n_steps: int
    result: RoundResultDict | None
    log: list[Event]


class _MatchStateRequired(TypedDict):
    """The keys of every match state (:class:`MatchState`)."""

    schema_version: int
    type: Literal["match"]
    ruleset: str
    seed: int
    rounds: int | None
    first_dealer: int
    round_wind: int
    wind_rotation: bool
    options: dict[str, Any]
    auto_advance: bool
    results: list[RoundResultDict]
    actions: list[list[list[int]]]
    round: RoundState


class MatchState(_MatchStateRequired, total=False):
    """A match (:meth:`Match.to_dict`, ``to_json``): its arguments, the finished rounds' results
    and actions (``[seat, mask index]`` pairs per round), and the current round's state."""

    duplicate: bool
    """Present (True) only in a match of Botzone's duplicate format (``Match(duplicate=True)``)."""
