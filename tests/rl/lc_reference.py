"""The long-card observation encoding rebuilt in pure Python from a seat's documented view of the
reference hand engine (``LongcardRound(engine="reference", impl="reference").view(seat)``), its
``penalised_mask`` and the pure-Python counting (卯, T_max, F_theo, Q of spec 2.6-2.8): the oracle the
compiled encoder (``_lc_round.observe``) is held to.  Everything but ``dead`` and ``counting`` is read
off the view; those two are worked out from the view's own cards and public groups and 堂子."""

from __future__ import annotations

from typing import Any

import numpy as np
from mahjong_core.families.longcard._constants import PHASE_NAMES
from mahjong_core.families.longcard.groups import KINDS, Group
from mahjong_core.rl import ObservationLayout

_CAP = 255


def encode_view(r: Any, seat: int, layout: ObservationLayout) -> tuple[np.ndarray, np.ndarray]:
    """(obs, mask) of ``seat`` of the reference round ``r`` (a LongcardRound on the reference engine)."""
    view = r.view(seat)
    hand = r.hand
    P, T = layout.players, layout.discard_cap
    d = 1 if hand.settings.turn_direction == "ccw" else -1
    out = np.zeros(layout.size, np.uint8)
    sec = {name: out[layout.slices[name]].reshape(shape) for name, shape in layout.fields}

    def rel(s: int) -> int:
        return ((s - seat) * d) % P

    sec["hand"][:] = view["hand"]
    dead = np.zeros(21, int)
    for q, t in enumerate(view["table"]):
        k = rel(q)
        sec["caishen"][k] = t["caishen"]
        for i, g in enumerate(t["declared"]):
            cards = sorted(g["cards"])
            sec["groups"][k, i] = [1 + KINDS.index(g["kind"]), cards[0] + 1, cards[1] + 1, cards[2] + 1,
                                   0 if g["from"] is None else rel(g["from"]) + 1]
            for c in g["cards"]:
                dead[c] += 1
        for i, c in enumerate(t["tangzi"][:T]):
            sec["tangzi"][k, i] = c + 1
            dead[c] += 1
        sec["concealed"][k] = t["concealed"]
        sec["folded"][k] = t["folded"]
    sec["dead"][:] = dead
    sec["banker"][rel(view["banker"])] = 1
    if view["qi_player"] >= 0:
        sec["qi_player"][rel(view["qi_player"])] = 1
    if view["jiang"] is not None:
        sec["jiang"][0, view["jiang"][0]] = 1
        sec["jiang"][1, view["jiang"][1]] = 1
    sec["stock_left"][0] = view["stock_left"]
    sec["phase"][PHASE_NAMES.index(view["phase"])] = 1
    if view["actor"] is not None and view["phase"] != "end":
        sec["actor"][rel(view["actor"])] = 1
    if view["offer"] is not None:
        sec["offer"][view["offer"]["card"]] = 1
        sec["offer_from"][rel(view["offer"]["from"])] = 1
        sec["offer_kind"][("turn", "discard").index(view["offer"]["kind"])] = 1
    if view["discard_ban"] >= 0:
        sec["discard_ban"][view["discard_ban"]] = 1
    # counting: the pure-Python counting of the view's own cards against the dead copies of the others
    own = [Group(g["kind"], tuple(g["cards"])) for g in view["table"][seat]["declared"]]
    others_dead = dead.copy()
    for g in own:
        for c in g.cards:
            others_dead[c] -= 1
    s = hand.settings
    plan = hand.backend.plan(view["hand"], own, [int(x) for x in others_dead], seat == view["banker"], s)
    ft = hand.backend.theoretical_fan(view["hand"], own, [int(x) for x in others_dead], hand.jiang,
                                      view["table"][seat]["caishen"], s)
    sec["counting"][:] = [min(plan.mao, _CAP), min(plan.t_max, _CAP), min(ft, _CAP), int(plan.qualified)]
    mask = np.zeros(layout.action_size, np.int8)
    if view["to_act"]:
        mask[view["legal_indices"]] = 1
        sec["penalised"][:] = r.penalised_mask(seat)
        sec["flags"][0] = 1
    return out, mask
