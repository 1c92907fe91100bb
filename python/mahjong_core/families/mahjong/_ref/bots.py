"""Reference bots (pure Python) for the reference round engine: the oracle of the compiled bots.

Bots see only what a player may know: their own concealed tiles, the public tiles
(:meth:`Round.visible_counts`) and their legal actions.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..hand import shanten, shanten_batch
from ..actions import (
    CHI_HIGH, CHI_LOW, DECLARE_READY, DISCARD_READY, KONG_CLAIM, KONG_SELF, PASS, PON, WIN, Action,
)
from ....game.bots import play_steps
from .round import Round, RoundResult

__all__ = ["RandomBot", "GreedyBot", "play_round"]


class RandomBot:
    """Chooses uniformly among the legal actions (its own seeded PCG64 generator)."""

    def __init__(self, seed: "int | None" = None) -> None:
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def act_index(self, rnd: Round, seat: int) -> int:
        legal = rnd.legal_indices(seat)
        return legal[int(self.rng.integers(len(legal)))]

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


class GreedyBot:
    """Wins whenever allowed; discards to the lowest shanten, ties broken by the number of live
    tiles that improve the hand (for a ready hand: live waits); claims (chi / pon / kong) only when
    the claim lowers the shanten; kongs when they do not raise it; declares 报听 when ready with
    live waits."""

    def act_index(self, rnd: Round, seat: int) -> int:
        legal = rnd.legal_indices(seat)
        if WIN in legal:
            return WIN
        if len(legal) == 1:
            return legal[0]
        name = rnd.settings.ruleset
        kinds = rnd.settings.kinds
        h = rnd.hand_counts(seat)
        vis = rnd.visible_counts()
        unseen = [4 - int(h[k]) - vis[k] for k in range(34)]
        if DECLARE_READY in legal:
            return DECLARE_READY
        if PASS in legal:  # claim window
            cur = shanten(h, ruleset=name)
            t = rnd.claim_tile
            if KONG_CLAIM in legal:
                hh = h.copy()
                hh[t] -= 3
                if shanten(hh, ruleset=name) <= cur:
                    return KONG_CLAIM
            best_s: int | None   # this branch's, then the turn's below (None: no discard)
            best, best_s = PASS, cur
            opts = [PON] if PON in legal else []
            opts += [i for i in legal if CHI_LOW <= i <= CHI_HIGH]
            for i in opts:
                hh = h.copy()
                if i == PON:
                    hh[t] -= 2
                else:
                    low = t - (i - CHI_LOW)
                    for x in (low, low + 1, low + 2):
                        if x != t:
                            hh[x] -= 1
                s = shanten(hh, ruleset=name)
                if s < best_s:
                    best, best_s = i, s
            return best
        # own turn: discard choice, every candidate in one batch call
        discards = [i for i in legal if i < DISCARD_READY]
        best_i: int | None = None
        best_s = None
        if discards:
            d = np.array(discards, dtype=np.intp)
            h1 = np.repeat(h[None, :], len(d), axis=0)
            h1[np.arange(len(d)), d] -= 1
            s1 = shanten_batch(h1, ruleset=name).astype(np.int64)
            best_s = int(s1.min())
            cand = np.flatnonzero(s1 == best_s)
            kinds_arr = np.array(kinds, dtype=np.intp)
            unseen_arr = np.maximum(np.array(unseen, dtype=np.int64), 0)
            nk = len(kinds_arr)
            rows = h1[cand]                                    # (nc, 34)
            h2 = np.repeat(rows[:, None, :], nk, axis=1)       # (nc, nk, 34)
            h2[:, np.arange(nk), kinds_arr] += 1
            valid = (rows[:, kinds_arr] < 4) & (unseen_arr[kinds_arr] > 0)[None, :]
            better = np.zeros(valid.shape, dtype=bool)
            if valid.any():
                better[valid] = shanten_batch(h2[valid], ruleset=name) < best_s
            # unseen counts the discarded copy as gone already (it was in the 14-tile hand)
            w = np.repeat(unseen_arr[kinds_arr][None, :], len(cand), axis=0)
            acc = (w * better).sum(axis=1)
            # most live improving tiles, then the highest tile index (honors first)
            order = np.lexsort((-d[cand], -acc))
            best_i = int(d[cand][order[0]])
            acc_best = int(acc[order[0]])
        kongs = [i for i in legal if KONG_SELF <= i < CHI_LOW]
        for i in kongs:
            t = i - KONG_SELF
            hh = h.copy()
            hh[t] -= 4 if hh[t] == 4 else 1
            if best_s is None or shanten(hh, ruleset=name) <= best_s:
                return i
        if best_i is None:
            return legal[0]
        if DISCARD_READY + best_i in legal and best_s == 0 and acc_best > 0:
            return DISCARD_READY + best_i
        return best_i

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def play_round(rnd: Round, bots: Sequence[Any], *, max_steps: int = 10_000) -> RoundResult:
    """Let ``bots[seat]`` play ``rnd`` to the end, one public step at a time; returns its result."""
    play_steps(rnd, bots, max_steps)
    res = rnd.result
    assert res is not None
    return res
