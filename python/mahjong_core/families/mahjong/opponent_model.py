"""A learned model of the opponent's hidden hand in a two-player round, from one seat's view.

For each tile kind in play it gives the probability that the opponent holds at least one copy
and the probability that his concealed hand waits on it (by shape, :func:`mahjong_core.waits_batch`),
and a distribution of his shanten (0, 1, 2, 3, 4 or more).  It is a one-hidden-layer perceptron
trained on greedy-vs-greedy rounds by ``tools/train_opponent_model.py`` (seeded, numpy only);
its weights ship beside this module (``opponent_model.npz``) and its forward pass is numpy.

The features are read from :meth:`Round.view` of the seat only (what the seat may see: its hand,
every pool in order, the shown melds, the 报听 flags, the wall left), so a model fed the same
view gives the same answer whatever the hidden tiles are.  docs/guide/search-bots.md has what it
measured against the search bot's samplers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import MahjongError

__all__ = ["RULESETS", "SHANTEN_CLASSES", "WEIGHTS_FILE", "OpponentModel", "features", "load_model", "pool_features", "pool_waits", "resample_pool", "sample_pool", "tilt_weights"]

WEIGHTS_FILE = Path(__file__).with_name("opponent_model.npz")
"""The shipped weights, one model per two-player ruleset (keys prefixed by the ruleset's name)."""

RULESETS = ("two-player", "two-player-bamboo")
"""The rulesets a model is trained and shipped for (two players: one opponent)."""

SHANTEN_CLASSES = 5
"""His shanten as a class: 0 (ready) to 3, and 4 for four or more."""

KIND_CHANNELS = 12
"""Features per tile kind in play (:func:`features`)."""

SCALARS = 9
"""Features of the round as a whole (:func:`features`)."""


def _meld_tiles(melds: list[dict[str, Any]]) -> list[int]:
    return [t for m in melds if m.get("tiles") for t in m["tiles"]]


def features(view: Mapping[str, Any], kinds: "tuple[int, ...]") -> np.ndarray:
    """The model's input from ``view`` (a two-player seat's :meth:`Round.view`), for the tile
    ``kinds`` in play: per kind (in ``kinds``' order) his pool count, whether it is his last,
    second-last or third-last discard, its count among his first three discards, how late in his
    pool its first copy lies (0: none), the copies in his shown melds, in the seat's hand, in the
    seat's pool (he passed on them), whether it is the seat's last discard, the copies the seat
    has not seen, and his discards of it since his 报听 (if he declared it, else 0: a declared
    hand throws what it draws); then the wall left, both pools' sizes, his hand size, both 报听
    flags, his melds, his concealed kongs and whether he deals."""
    seat = int(view["seat"])
    opp = 1 - seat
    n = len(kinds)
    index = np.full(34, -1, dtype=np.int64)
    index[list(kinds)] = np.arange(n)
    x = np.zeros((KIND_CHANNELS, n), dtype=np.float32)
    pool = [t for t in view["discards"][opp] if t < 34]
    mine = [t for t in view["discards"][seat] if t < 34]
    L = len(pool)
    for i, t in enumerate(pool):
        k = index[t]
        if k < 0:
            continue
        x[0, k] += 1
        if i < 3:
            x[4, k] += 1
        if x[5, k] == 0:
            x[5, k] = (i + 1) / L
    for back, ch in ((1, 1), (2, 2), (3, 3)):
        if L >= back and index[pool[-back]] >= 0:
            x[ch, index[pool[-back]]] = 1
    his_melds = view["melds"][opp]
    for t in _meld_tiles(his_melds):
        if index[t] >= 0:
            x[6, index[t]] += 1
    for t in view["hand"]:
        if t < 34 and index[t] >= 0:
            x[7, index[t]] += 1
    for t in mine:
        if index[t] >= 0:
            x[8, index[t]] += 1
    if mine and index[mine[-1]] >= 0:
        x[9, index[mine[-1]]] = 1
    seen = np.zeros(34, dtype=np.float32)
    for t in list(view["hand"]) + pool + mine + _meld_tiles(his_melds) + _meld_tiles(view["melds"][seat]):
        if t < 34:
            seen[t] += 1
    x[10] = 4 - seen[list(kinds)]
    ready = view.get("ready") or [False, False]
    if ready[opp]:
        # the tiles he threw after declaring: those of his pool after the last one that changed
        # his hand are not known, so the latest three stand for them
        for t in pool[-3:]:
            if index[t] >= 0:
                x[11, index[t]] += 1
    s = np.array([view["wall_remaining"] / 100.0, L / 20.0, len(mine) / 20.0,
                  view["hand_sizes"][opp] / 13.0, float(ready[opp]), float(ready[seat]),
                  len(his_melds), sum(1 for m in his_melds if m["kind"] == "ckong"),
                  float(view["dealer"] == opp)], dtype=np.float32)
    return np.concatenate([x.ravel(), s])


def pool_waits(hands: np.ndarray, kinds: "tuple[int, ...]", ruleset: str) -> tuple[np.ndarray, np.ndarray]:
    """For a pool of his hands (rows of 34 counts): whether each hand waits on each of ``kinds``
    (hands x kinds booleans, by shape) and each hand's shanten class."""
    from .hand import shanten_batch, waits_batch

    ks = np.asarray(kinds, dtype=np.uint64)
    waits = ((waits_batch(hands, ruleset=ruleset)[:, None] >> ks[None, :]) & np.uint64(1)).astype(bool)
    sh = np.clip(np.asarray(shanten_batch(hands, ruleset=ruleset), dtype=np.int64), 0, SHANTEN_CLASSES - 1)
    return waits, sh


def pool_features(hands: np.ndarray, kinds: "tuple[int, ...]", ruleset: str,
                  waits: "tuple[np.ndarray, np.ndarray] | None" = None) -> np.ndarray:
    """The model's extra input from a pool of his hands sampled by the search bot's sampler from
    the seat's view (``sample_hidden_hands``, rows of 34 counts): per kind in play the share of
    the hands that wait on it and the share that hold it, then the shares of the shanten classes
    (``waits``: :func:`pool_waits` of the pool, when the caller has it)."""
    w, sh = waits if waits is not None else pool_waits(hands, kinds, ruleset)
    h = (hands[:, list(kinds)] > 0).mean(axis=0)
    return np.concatenate([w.mean(axis=0), h, np.bincount(sh, minlength=SHANTEN_CLASSES) / len(hands)]).astype(np.float32)


def sample_pool(core: Any, seat: int, n: int, bit_generator: Any) -> np.ndarray:
    """``n`` hands of the opponent of ``seat`` dealt by the search bot's default sampler
    (``"history"`` with its weights, from the seat's view only), rows of 34 counts."""
    from ..._round import sample_hidden_hands
    from .search_bot import (
        LAST_WEIGHT,
        PASS_DEPTH,
        PASS_WEIGHT,
        PAST_WEIGHT,
        READY_WEIGHT,
    )

    return sample_hidden_hands(core, seat, n, bit_generator, True, None, READY_WEIGHT, LAST_WEIGHT,
                               PAST_WEIGHT, PASS_WEIGHT, PASS_DEPTH)[:, 1 - seat]


TILT_PASSES = 3
"""Passes of :func:`tilt_weights` over the kinds and the shanten classes."""

TILT_FACTOR = 5.0
"""The most one step of :func:`tilt_weights` multiplies or divides a hand's weight by: a model's
probability far from the pool's moves the weights gradually, so that a few hands do not take all."""


def tilt_weights(waits: np.ndarray, shanten: np.ndarray, p_wait: np.ndarray, p_shanten: np.ndarray) -> np.ndarray:
    """Weights (summing to 1) of a pool of his sampled hands such that, as far as the pool allows,
    the weighted share of the hands that wait on each kind is the model's ``p_wait`` and the
    weighted share of each shanten class is ``p_shanten`` (raking: each pass scales, kind by kind
    and then over the classes, the hands in and out of the class to the target share).
    ``waits``: (hands, kinds) booleans; ``shanten``: each hand's class."""
    m = len(waits)
    w = np.full(m, 1.0 / m)
    # one column per kind, then one per shanten class: the same step for each (floats, no masks:
    # a decision tilts its pool once, and this is most of what the model costs a decision)
    cols = np.concatenate([waits.astype(np.float64), np.arange(len(p_shanten))[None, :] == shanten[:, None]],
                          axis=1).astype(np.float64).T.copy()
    target = np.concatenate([np.asarray(p_wait, dtype=np.float64), np.asarray(p_shanten, dtype=np.float64)])
    lo, hi = 1 / TILT_FACTOR, TILT_FACTOR
    for _ in range(TILT_PASSES):
        for k, col in enumerate(cols):
            share = float(w @ col)
            if 0.0 < share < 1.0:
                f_in = min(max(target[k] / share, lo), hi)
                f_out = min(max((1 - target[k]) / (1 - share), lo), hi)
                w *= f_out + (f_in - f_out) * col
                w /= w.sum()
    return w


def resample_pool(model: "OpponentModel", view: Mapping[str, Any], ruleset: str,
                  pool: np.ndarray) -> np.ndarray:
    """The weights of :func:`tilt_weights` for ``pool`` (his hands sampled by the search bot's
    sampler from the seat's view), toward the model's prediction from that view."""
    waits, sh = found = pool_waits(pool, model.kinds, ruleset)   # once: the model's input and the tilt
    _, p_wait, p_sh = model.predict(view, ruleset, pool, found)
    return tilt_weights(waits, sh, p_wait[list(model.kinds)], p_sh)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    return out


class OpponentModel:
    """One ruleset's model: ``predict(view)`` gives (P(he holds a kind), P(he waits on a kind),
    P(his shanten class)), the first two over all 34 kinds (0 for a kind not in play)."""

    def __init__(self, params: Mapping[str, np.ndarray]) -> None:
        self.kinds = tuple(int(k) for k in params["kinds"])
        self.mean = np.asarray(params["mean"], dtype=np.float32)
        self.scale = np.asarray(params["scale"], dtype=np.float32)
        self.w1 = np.asarray(params["w1"], dtype=np.float32)
        self.b1 = np.asarray(params["b1"], dtype=np.float32)
        self.w2 = np.asarray(params["w2"], dtype=np.float32)
        self.b2 = np.asarray(params["b2"], dtype=np.float32)
        self.pool_worlds = int(params.get("pool_worlds", 0))
        """How many of his hands sampled by the search bot's sampler the model reads (0: none)."""
        n = len(self.kinds)
        size = KIND_CHANNELS * n + SCALARS + (2 * n + SHANTEN_CLASSES if self.pool_worlds else 0)
        if self.w1.shape != (size, self.b1.size) or self.w2.shape != (self.b1.size, 2 * n + SHANTEN_CLASSES):
            raise MahjongError("opponent model: weights of the wrong shape for its kinds")

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The raw outputs for a batch of feature rows (:func:`features`)."""
        h = np.maximum((x - self.mean) / self.scale @ self.w1 + self.b1, 0.0)
        return h @ self.w2 + self.b2

    def predict_features(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hold, wait, shanten) for a batch of feature rows: hold and wait over the model's kinds."""
        z = self.logits(np.atleast_2d(x))
        n = len(self.kinds)
        e = np.exp(z[:, 2 * n:] - z[:, 2 * n:].max(axis=1, keepdims=True))
        return _sigmoid(z[:, :n]), _sigmoid(z[:, n:2 * n]), e / e.sum(axis=1, keepdims=True)

    def inputs(self, view: Mapping[str, Any], ruleset: str, pool: "np.ndarray | None" = None,
               waits: "tuple[np.ndarray, np.ndarray] | None" = None) -> np.ndarray:
        """The feature row of a seat's view, with :func:`pool_features` of ``pool`` (his sampled
        hands; ``waits``: its :func:`pool_waits` when known) where the model reads them."""
        x = features(view, self.kinds)
        if not self.pool_worlds:
            return x
        if pool is None or len(pool) == 0:
            raise MahjongError("opponent model: this model reads a pool of his sampled hands; none given")
        return np.concatenate([x, pool_features(pool, self.kinds, ruleset, waits)])

    def predict(self, view: Mapping[str, Any], ruleset: str, pool: "np.ndarray | None" = None,
                waits: "tuple[np.ndarray, np.ndarray] | None" = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(P(he holds the kind), P(he waits on it), P(his shanten class)) from a seat's view (and
        the pool of his sampled hands where the model reads one: :meth:`inputs`); the first two
        indexed by kind 0-33."""
        hold, wait, sh = self.predict_features(self.inputs(view, ruleset, pool, waits))
        h = np.zeros(34)
        w = np.zeros(34)
        h[list(self.kinds)] = hold[0]
        w[list(self.kinds)] = wait[0]
        return h, w, sh[0]


_LOADED: dict[tuple[str, "str | None"], OpponentModel] = {}
"""The models loaded so far (a search bot asks for its ruleset's at every decision)."""


def load_model(ruleset: str, path: "str | None" = None) -> OpponentModel:
    """The shipped model of ``ruleset`` (one of :data:`RULESETS`), or that of the weights at ``path``."""
    if ruleset not in RULESETS:
        raise MahjongError(f"opponent model: no model for ruleset {ruleset!r} (one of {', '.join(RULESETS)})")
    key = (ruleset, path)
    if key not in _LOADED:
        with np.load(path or WEIGHTS_FILE) as z:
            params = {k.split("/", 1)[1]: z[k] for k in z.files if k.startswith(ruleset + "/")}
        missing = sorted({"kinds", "mean", "scale", "w1", "b1", "w2", "b2"} - params.keys())
        if missing:   # a file of other weights: named, not a KeyError from the constructor
            raise MahjongError(f"opponent model: {path or WEIGHTS_FILE} has no {', '.join(ruleset + '/' + k for k in missing)}")
        _LOADED[key] = OpponentModel(params)
    return _LOADED[key]
