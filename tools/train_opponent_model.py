"""Train the learned opponent model (python/mahjong_core/families/mahjong/opponent_model.py).

    python tools/train_opponent_model.py [--rounds 40000] [--epochs 12] [--hidden 256] [--seed 0]
                                         [--pool N] [--rulesets two-player,two-player-bamboo]
                                         [--out python/mahjong_core/families/mahjong/opponent_model.npz]

The shipped weights are those of the defaults (``--rounds 40000 --epochs 12``: about 8 minutes
of one core per ruleset, most of it the training).
For each two-player ruleset: greedy bots play ``--rounds`` rounds on the walls of seeds
1 000 000 on (far from the walls the benches score: 1-300 and 9001-9300); at every turn where the
seat to act has a choice of discards (the turns ``bench/bench_search_bot.py --sampler`` scores)
the seat's view gives the features (:func:`~mahjong_core.families.mahjong.opponent_model.features`)
and the opponent's real hand the labels: per kind in play whether he holds it and whether his
hand waits on it, and his shanten class.  The real hand is read here, by the data generator
only; the model sees the view.  The last tenth of the rounds is held out: each epoch prints the
held-out losses, and the epoch with the lowest held-out waits loss is kept.

The model: inputs standardised, one hidden layer of ``--hidden`` ReLU units, outputs the hold and
wait logits (sigmoid, binary cross-entropy) and the shanten class (softmax, cross-entropy), the
three losses added; trained by Adam (rate 0.001, halved every four epochs) in minibatches of 512, in numpy, seeded (``--seed``): the same
command gives the same weights on the same numpy.  ``--pool N``: the model also reads N of his hands dealt by the search bot's sampler
(:func:`~mahjong_core.families.mahjong.opponent_model.pool_features`; measured, not shipped).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("mahjong_core") is None and str(ROOT / "python") not in sys.path:
    # run from a source tree without the package installed (never ahead of an installed one:
    # tests/packaging/test_tools_keep_the_path.py)
    sys.path.insert(0, str(ROOT / "python"))

from mahjong_core.families.mahjong._constants import A_KONG_SELF, PH_TURN
from mahjong_core.families.mahjong.opponent_model import (
    RULESETS,
    SHANTEN_CLASSES,
    WEIGHTS_FILE,
    OpponentModel,
    features,
    pool_features,
    sample_pool,
)

import mahjong_core as mj

FIRST_SEED = 1_000_000
"""The first wall's seed of the training rounds."""


def dataset(ruleset: str, rounds: int, first: int = FIRST_SEED,
            pool: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, ...]]:
    """(features, the opponent's hand counts (rows of 34), the round of each row, the kinds in
    play); with ``pool`` the features of that many of his hands sampled by the search bot's
    sampler too (:func:`pool_features`; its generator seeded by the round and the turn)."""
    kinds = tuple(mj.get_ruleset(ruleset).kinds)
    greedy = mj.GreedyBot()
    xs: list[np.ndarray] = []
    hands: list[np.ndarray] = []
    which: list[int] = []
    for s in range(first, first + rounds):
        rnd = mj.Round(ruleset=ruleset, seed=s)
        while not rnd.is_over:
            seat = rnd.seats_to_act()[0]
            if rnd.phase == PH_TURN and sum(1 for i in rnd.legal_indices(seat) if i < A_KONG_SELF) > 1:
                x = features(rnd.view(seat), kinds)
                if pool:
                    hands_ = sample_pool(rnd._core, seat, pool, np.random.PCG64([s, len(xs)]))
                    x = np.concatenate([x, pool_features(hands_, kinds, ruleset)])
                xs.append(x)
                hands.append(np.asarray(rnd.hand_counts(1 - seat), dtype=np.int8)[:34])
                which.append(s)
            rnd.step(seat, greedy.act_index(rnd, seat))
    return np.stack(xs), np.stack(hands), np.asarray(which), kinds


def labels(ruleset: str, hands: np.ndarray, kinds: tuple[int, ...]) -> np.ndarray:
    """Per row: holds (per kind), waits (per kind), the shanten class as one-hot."""
    waits = mj.waits_batch(hands, ruleset=ruleset)
    sh = np.minimum(np.asarray(mj.shanten_batch(hands, ruleset=ruleset), dtype=np.int64), SHANTEN_CLASSES - 1)
    ks = np.asarray(kinds, dtype=np.uint64)
    w = ((waits[:, None] >> ks[None, :]) & np.uint64(1)).astype(np.float32)
    h = (hands[:, list(kinds)] > 0).astype(np.float32)
    return np.concatenate([h, w, np.eye(SHANTEN_CLASSES, dtype=np.float32)[np.maximum(sh, 0)]], axis=1)


def _losses(z: np.ndarray, y: np.ndarray, n: int) -> tuple[np.ndarray, tuple[float, float, float]]:
    """The gradient of the summed losses by the logits (per row), and the mean hold, wait and
    shanten losses (per kind for the first two)."""
    p = 1.0 / (1.0 + np.exp(-np.clip(z[:, :2 * n], -40, 40)))
    zs = z[:, 2 * n:] - z[:, 2 * n:].max(axis=1, keepdims=True)
    e = np.exp(zs)
    q = e / e.sum(axis=1, keepdims=True)
    g = np.concatenate([p - y[:, :2 * n], q - y[:, 2 * n:]], axis=1)
    eps = 1e-7
    bce = -(y[:, :2 * n] * np.log(p + eps) + (1 - y[:, :2 * n]) * np.log(1 - p + eps))
    ce = -np.sum(y[:, 2 * n:] * (zs - np.log(e.sum(axis=1, keepdims=True))), axis=1)
    return g, (float(bce[:, :n].mean()), float(bce[:, n:].mean()), float(ce.mean()))


def train(x: np.ndarray, y: np.ndarray, vx: np.ndarray, vy: np.ndarray, n: int, hidden: int, epochs: int,
          seed: int, lr: float = 1e-3, l2: float = 1e-5) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xn = ((x - mean) / scale).astype(np.float32)
    vxn = ((vx - mean) / scale).astype(np.float32)
    d, o = x.shape[1], y.shape[1]
    params = {"w1": (rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d)).astype(np.float32),
              "b1": np.zeros(hidden, np.float32),
              "w2": (rng.standard_normal((hidden, o)) * np.sqrt(1.0 / hidden)).astype(np.float32),
              "b2": np.zeros(o, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    b1_, b2_ = 0.9, 0.999
    t = 0
    best: "tuple[float, dict[str, np.ndarray]] | None" = None
    for ep in range(epochs):
        order = rng.permutation(len(xn))
        rate = lr * (0.5 ** (ep // 4))           # halved every four epochs
        for i in range(0, len(order), 512):
            idx = order[i:i + 512]
            xb, yb = xn[idx], y[idx]
            a = xb @ params["w1"] + params["b1"]
            h = np.maximum(a, 0)
            z = h @ params["w2"] + params["b2"]
            g, _ = _losses(z, yb, n)
            g /= len(idx)
            grads = {"w2": h.T @ g + l2 * params["w2"], "b2": g.sum(axis=0)}
            gh = (g @ params["w2"].T) * (a > 0)
            grads["w1"] = xb.T @ gh + l2 * params["w1"]
            grads["b1"] = gh.sum(axis=0)
            t += 1
            for k in params:
                m[k] = b1_ * m[k] + (1 - b1_) * grads[k]
                v2[k] = b2_ * v2[k] + (1 - b2_) * grads[k] ** 2
                mh = m[k] / (1 - b1_ ** t)
                vh = v2[k] / (1 - b2_ ** t)
                params[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        z = np.maximum(vxn @ params["w1"] + params["b1"], 0) @ params["w2"] + params["b2"]
        _, (lh, lw, ls) = _losses(z, vy, n)
        print(f"    epoch {ep + 1}: held-out loss hold {lh:.4f}, waits {lw:.4f}, shanten {ls:.4f}", flush=True)
        if best is None or lw < best[0]:
            best = (lw, {k: v.copy() for k, v in params.items()})
    assert best is not None
    return {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32), **best[1]}


def main(argv: "list[str] | None" = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40_000, help="training rounds per ruleset (a tenth held out)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0, help="the initial weights' and the minibatches' seed")
    ap.add_argument("--pool", type=int, default=0,
                    help="also read that many of his hands sampled by the search bot's sampler (0: the view alone)")
    ap.add_argument("--rulesets", default=",".join(RULESETS))
    ap.add_argument("--out", default=str(WEIGHTS_FILE))
    a = ap.parse_args(argv)
    out: dict[str, np.ndarray] = {}
    for ruleset in a.rulesets.split(","):
        t0 = time.process_time()
        x, hands, which, kinds = dataset(ruleset, a.rounds, pool=a.pool)
        y = labels(ruleset, hands, kinds)
        held = which >= FIRST_SEED + a.rounds - a.rounds // 10
        print(f"{ruleset}: {len(x)} turns of {a.rounds} rounds ({int(held.sum())} held out), "
              f"{x.shape[1]} features, {time.process_time() - t0:.0f} s CPU", flush=True)
        params = train(x[~held], y[~held], x[held], y[held], len(kinds), a.hidden, a.epochs, a.seed)
        params["kinds"] = np.asarray(kinds, dtype=np.int64)
        params["pool_worlds"] = np.asarray(a.pool, dtype=np.int64)
        OpponentModel(params)                       # the shapes check
        out.update({f"{ruleset}/{k}": v for k, v in params.items()})
        print(f"  trained in {time.process_time() - t0:.0f} s CPU", flush=True)
    np.savez_compressed(a.out, **out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
