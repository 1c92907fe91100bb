"""The observation encoding rebuilt in pure Python from a seat's documented view
(``Round.view(seat)``, the redacted per-seat view the server sends): the oracle the compiled
encoder (``_round.observe``) is held to.  Everything the encoding holds is in the view, so the
encoding shows nothing the view does not."""

from __future__ import annotations

from typing import Any

import numpy as np
from mahjong_core.families.mahjong.constants import PHASE_NAMES
from mahjong_core.rl import ObservationLayout

_KIND = {"chi": 1, "pon": 2, "kong": 3, "ckong": 5}


def encode_view(view: dict[str, Any], must_discard: int, layout: ObservationLayout) -> np.ndarray:
    P, D, seat = layout.players, layout.discard_cap, view["seat"]
    out = np.zeros(layout.size, np.uint8)
    sec = {name: out[layout.slices[name]].reshape(shape) for name, shape in layout.fields}

    def rel(s: int) -> int:
        return (s - seat) % P

    for t in view["hand"]:
        sec["hand"][t] += 1
    if view["drawn"] is not None:
        sec["drawn"][view["drawn"]] = 1
    for s in range(P):
        k = rel(s)
        for i, m in enumerate(view["melds"][s]):
            kind = _KIND[m["kind"]] + (1 if m["kind"] == "kong" and m.get("added") else 0)
            row = sec["melds"][k, i]
            row[0] = kind
            if m["tiles"] is not None:
                row[1] = min(m["tiles"]) + 1
            if m.get("claimed") is not None and m["kind"] != "ckong":
                row[2] = m["claimed"] + 1
            if m["from"] is not None:
                row[3] = rel(m["from"]) + 1
        for i, t in enumerate(view["discards"][s][:D]):
            sec["discards"][k, i] = t + 1
        for f in view["flowers"][s]:
            sec["flowers"][k, f - 34] = 1
        sec["hand_sizes"][k] = view["hand_sizes"][s]
        if view["ready"] is not None:
            sec["ready"][k] = view["ready"][s]
    if view["seat_winds"] is not None:
        sec["seat_wind"][view["seat_winds"][seat] - 27] = 1
        sec["round_wind"][view["round_wind"] - 27] = 1
    sec["dealer"][rel(view["dealer"])] = 1
    sec["wall"][:] = (view["wall_remaining"], view["live_remaining"])
    sec["phase"][PHASE_NAMES.index(view["phase"])] = 1
    if view["turn"] is not None:
        sec["turn"][rel(view["turn"])] = 1
    if view["claim"] is not None:
        sec["claim_tile"][view["claim"]["tile"]] = 1
        sec["claim_last"][0] = view["claim"]["last"]
    sec["flags"][0] = view["to_act"]
    sec["flags"][1] = 1 if (view["phase"] == "turn" and view["turn"] == seat and must_discard) else 0
    return out


def mask_of_view(view: dict[str, Any]) -> np.ndarray:
    mask = np.zeros(110, np.int8)
    mask[view["legal_indices"]] = 1
    return mask
