"""Steps per second of the learning environments (issue 16 part 2), as ratios from one run.

    python bench/bench_rl.py [--steps N] [--batch N] [--quick] [--rulesets a,b]

Per ruleset (every ruleset of :func:`~mahjong_core.rl.rl_rulesets` by default: the mahjong ones and
the long-card ``changpai-ydr``), every seat played by the same policy -- a uniformly random legal
action; for a ruleset whose observation flags the penalised actions (long cards' 包子, the
``penalised`` section) a uniformly random unpenalised one when there is one, the RandomBot's rule
(uniformly random legal actions end almost every long-card hand in 包子 within 4 steps) -- in these
loops (a step = one action applied to a round; dealing new rounds is timed too), taking
turns pass by pass:

* server: the public-API server loop over ``Round`` (as in ``bench_game.py``): per step
  ``seats_to_act()``, ``legal_indices(seat)``, the policy, ``step(seat, index)``;
* AEC: the PettingZoo environment (``MahjongAECEnv``): ``agent_iter``, ``last()`` (the
  observation dict with the mask), the policy on the mask, ``step(action)``; the dead steps at
  the end of a round are not counted as steps;
* vector: ``VectorRounds`` of ``--batch`` rounds, self-play (every seat a caller seat), the
  policy vectorised over the (N, 110) masks; steps = rounds x calls; ``copy=False``, the
  throughput mode (the default ``copy=True`` adds a copy of the output arrays per step);
* step_deal: the vector loop timing only the compiled ``RoundBatch.step_deal`` that
  ``VectorRounds.step`` calls (the state machine, the legality checks, the observations and the
  next deals, without the GIL; the rewards left out): what the engine allows at most.

Like with like: every loop runs the same policy, and the time the policy takes (per step in the
server and AEC loops, per batch in the vector loop) is measured apart.  The "env" columns exclude
it on every side (the environments' own cost: the figure the targets are judged on); the "+pol"
columns include it (what a random-policy run sees).

Where the time goes: the compiled step is measured by instruction counts, which the load of a
shared machine does not move (``tools/step_deal_workload.py`` under ``valgrind --tool=callgrind
--toggle-collect='*step_deal*'``, 40 calls of 256 rows, fixed seeds, the policy outside the count):
two-player 17.0 M -> 10.3 M instructions, two-player-bamboo 27.3 M -> 14.2 M, public 22.7 M ->
12.6 M, from the engine at the start of the last round of issue-16 work (39eae6c) to this one,
with every observation, mask, actor and done array byte-identical (the workload's SHA-1).  What
changed: each seat's melds, discards, flowers, winds and dealer kept as observation bytes written
as the events happen (one copy per observation), hand sizes kept, ``RoundCore`` final (direct
calls) with the small transitions inline, the win checks of a discard or a draw a bit test of
the cached waits before any evaluation; in ``_hand.pyx`` the 报听 discards from per-shape removal
masks (one table word per component, not a rank and a lookup per held kind), waits from one
residue-pattern lookup, ranks in five lookups; in the vector loop, a fresh deal without the
user-path checks and rewards looked up only for the rounds with a winner.  What is left (two-player-bamboo,
batch 128): the 报听 discards 22 % of the step's instructions, the observation 15 %, opening and
closing the claim window 11 %, the turn options 6 %, waits 8 %.  Before the earlier issue-16
engine work the option computation alone took 43 % of a perf profile.

Batch size: ``--batch 128`` (the default) steps fastest per core on the 2-core machine of the
figures of docs/speed.md; 64 and 256 are a few per cent slower and 512 or more clearly slower (the rows
fall out of the core's cache).  docs/speed.md gives the three.  Stepping the rows of one call on
several threads (OpenMP inside the compiled loop) was built and measured, and taken out: on that
machine it never paid at the batch sizes that step fastest (public, batch 256: 5.4 M steps/s on
two threads against 6.2 M on one), and on a loaded machine a call waited for a descheduled
thread (up to 140 times slower).

Long cards (``changpai-ydr``, issue 28): first one run on the shared 2-core machine (load 3.5,
batch 128, steps/s without the policy): server 22,357, AEC 93,379, vector 275,746 (3.0x the AEC),
``step_deal`` alone 302,052 -- the engine's own step was most of the vector loop.  Then the long-card
engine's step was made 4x cheaper (``step_deal`` over 40 calls of 128 rows, the loop of
``tools/step_deal_workload.py`` on ``VectorRounds("changpai-ydr", 128, seed=1)`` after 3,000 hands
dealt to warm the face-weight cache as a long run has it, under callgrind as above: 89.9 M -> 22.5 M
instructions,
every observation, mask, actor and done array byte-identical, ``tools/lc_round_workload.py``'s
digests unchanged): the 卯 / T_max plan of the qualification check (spec 3.11) reads its pool search
from tables built at import (the search depends on the live copies only through "is one live"),
combines the point classes only over the units that add 陀, and is kept per seat while the seat's
cards, 财神 and live faces are unchanged (half the decisions), F_theo with it; the copies in every
堂子 and group are kept as they change, so a seat's cards and dead copies are copies; the readiness
checks of the claim windows move one class's table index per discard and stop when two classes
cannot split; the batch's new hands copy the settings' ints and skip the Python checks of the stock;
a result's settlement is cached by what it reads.  Two runs back to back, the engine before and
after (load 0.3-0.8): before server 23,664, AEC 96,404, vector 320,908 = 3.3x, ``step_deal``
324,778; after server 25,205, AEC 115,401 (the AEC environment steps the same engine, so it gained
too), vector 894,905 = 7.8x the AEC (8.1x with the policy), ``step_deal`` 927,267.  The 10x is not
reached: per step the engine
still spends about 4,400 instructions -- the observation (688 bytes written at every step, a fifth),
the plan on a cache miss (a fifth), the decision and claim window, and per hand (22 steps) the deal
(NumPy's permutation drawn in C, 110 bounded draws) and the end (the result dict and settlement in
Python) -- against the AEC environment's ~9 us of Python per step.  Then (issue 28's last item)
4,475 -> 3,382 instructions per step (``tools/step_deal_workload.py changpai-ydr --batch 128 --warm
3000``, 40 calls: 22.9 M -> 17.3 M, outputs SHA-1 f566bd44... unchanged, ``lc_round_workload``'s
digests unchanged): the result built when first read (a learning run reads those with payments
only), the plan's point-class parts kept per seat and worked out again only where the cards or
live faces changed, F_theo over the faces held twice or more, the mask and 包子 flags a word at a
time, a claim's win check refused on the split before the groups are read, the 将 pairs' face
weights kept in the batch, one bit-generator lock per call, and each row stepped, dealt and
observed in one pass (the observations now with the GIL held).  docs/speed.md gives the figures
(load 3.7, batch 128: 8.7x; the loaded machine moves the ratio by a tenth from run to run).  Then
(issue 28, the next session) the time went where instruction counts weigh little (3,382 -> 3,279):
a win's fan and the 过胡 scores by the hand layer's search in C instead of the reference's scorer
through Python objects, the rewards' keys read without building the result
(``RoundCore.settle_keys``), each seat's public sections of the observation kept as they change
and copied, and the block copies and fills through the C library's loops, not inlined ``rep``
string instructions: the CPU time per call of 128 rows (load 8, the 10th percentile) 104 -> 90 us
for ``VectorRounds.step``, 101 -> 87 us for ``step_deal`` (docs/speed.md).

Targets: AEC >= 50 % of the server loop; vector >= 10x the AEC environment.  Also: two threads
each stepping their own ``VectorRounds`` against one thread (the stepping loop releases the GIL;
on a shared machine this figure moves with the load).  Every figure is the best of 3 passes.
Nothing fails on a number.
"""

from __future__ import annotations

import argparse
import os
import platform
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from mahjong_core.rl import VectorRounds, observation_layout, rl_rulesets
from mahjong_core.rl.pettingzoo_env import MahjongAECEnv

import mahjong_core as mj

REPEAT = 3


Pass = tuple[float, float, int]
"""(seconds in all, of them in the policy, steps)"""


def _penalised(ruleset: str) -> slice | None:
    """The observation's ``penalised`` section of a ruleset that has one (the policy avoids it)."""
    return observation_layout(ruleset).slices.get("penalised")


def server_pass(ruleset: str, steps: int, seed: int) -> Pass:
    rng = np.random.default_rng(seed)
    clock = time.perf_counter
    avoid = _penalised(ruleset) is not None
    n = 0
    k = 0
    pol = 0.0
    t = clock()
    while n < steps:
        r = mj.Round(ruleset, seed=seed + k)
        k += 1
        while not r.is_over:
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            pen = r.penalised_mask(seat) if avoid else None
            t0 = clock()
            if pen is not None:
                legal = [i for i in legal if not pen[i]] or legal
            a = legal[int(rng.integers(len(legal)))]
            pol += clock() - t0
            r.step(seat, a)
            n += 1
    return clock() - t, pol, n


def aec_pass(ruleset: str, steps: int, seed: int) -> Pass:
    rng = np.random.default_rng(seed)
    env = MahjongAECEnv(ruleset, seed=seed)
    pen = _penalised(ruleset)
    clock = time.perf_counter
    n = 0
    pol = 0.0
    t = clock()
    while n < steps:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            t0 = clock()
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask if pen is None else mask & (obs["observation"][pen] == 0))
            if not legal.size:
                legal = np.flatnonzero(mask)
            a = int(legal[rng.integers(len(legal))])
            pol += clock() - t0
            env.step(a)
            n += 1
    return clock() - t, pol, n


def _pick(rng: np.random.Generator, mask: np.ndarray, obs: np.ndarray | None = None,
          pen: slice | None = None) -> np.ndarray:
    """A random legal action per row: the legal entry with the largest random byte (ties, rare,
    go to the lowest index); with ``pen`` (the observation's penalised section) an unpenalised one
    when the row has one."""
    noise = np.frombuffer(rng.bytes(mask.size), dtype=np.uint8).reshape(mask.shape) | 1
    ok = mask.view(np.uint8)
    if pen is not None and obs is not None:
        free = ok & (obs[:, pen] == 0)
        ok = np.where(free.any(axis=1)[:, None], free, ok)
    return (noise * ok).argmax(axis=1)


def vector_pass(ruleset: str, steps: int, seed: int, batch: int) -> Pass:
    rng = np.random.default_rng(seed)
    vec = VectorRounds(ruleset, batch, seed=seed, copy=False)   # the throughput mode (docs/guide/learning-environments.md)
    pen = _penalised(ruleset)
    clock = time.perf_counter
    n = 0
    pol = 0.0
    t = clock()
    obs, mask, _ = vec.reset()
    while n < steps:
        t0 = clock()
        actions = _pick(rng, mask, obs, pen)
        pol += clock() - t0
        obs, mask, _, _, _ = vec.step(actions)
        n += batch
    return clock() - t, pol, n


def batch_pass(ruleset: str, steps: int, seed: int, batch: int) -> Pass:
    """Only the time inside the compiled ``RoundBatch.step_deal`` that ``VectorRounds.step``
    calls (the stepping, the observations and the next deals; the policy and the rewards
    untimed): the ceiling of the vectorised loop on this engine."""
    rng = np.random.default_rng(seed)
    vec = VectorRounds(ruleset, batch, seed=seed, copy=False)   # the throughput mode (docs/guide/learning-environments.md)
    pen = _penalised(ruleset)
    obs, mask, _ = vec.reset()
    b = vec._live_batch()
    bits = np.random.PCG64(seed)
    n = 0
    dt = 0.0
    while n < steps:
        actions = _pick(rng, mask, obs, pen)
        t = time.perf_counter()
        obs, mask, _, _, _ = b.step_deal(actions, bits)
        dt += time.perf_counter() - t
        n += batch
    return dt, 0.0, n


def threads_pass(ruleset: str, steps: int, seed: int, batch: int, threads: int) -> Pass:
    done = [0] * threads

    def work(k: int) -> None:
        done[k] = vector_pass(ruleset, steps // threads, seed + k, batch)[2]

    ts = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    t = time.perf_counter()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    return time.perf_counter() - t, 0.0, sum(done)


def best_rates(passes: dict[str, Callable[[], Pass]]) -> dict[str, tuple[float, float]]:
    """(steps/s without the policy, steps/s with it) of each loop, the best of REPEAT passes each;
    the loops take turns pass by pass, so that a change in the machine's load falls on all of
    them alike."""
    best = dict.fromkeys(passes, (0.0, 0.0))
    for _ in range(REPEAT):
        for name, fn in passes.items():
            dt, pol, n = fn()
            env, full = best[name]
            best[name] = (max(env, n / (dt - pol)), max(full, n / dt))
    return best


def main(argv: Any = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=30_000, help="steps per pass of the server and AEC loops")
    ap.add_argument("--batch", type=int, default=128, help="rounds of the vectorised batch (default 128)")
    ap.add_argument("--quick", action="store_true", help="5 000 steps, batch 64 (a smoke run)")
    ap.add_argument("--rulesets", default=",".join(rl_rulesets()), help="comma-separated rulesets")
    args = ap.parse_args(argv)
    steps, batch = (5_000, 64) if args.quick else (args.steps, args.batch)
    vsteps = 20 * steps
    print(f"mahjong-core {mj.__version__}, Python {platform.python_version()}, {platform.machine()}, "
          f"load {os.getloadavg()[0]:.2f}; random legal policy, best of {REPEAT}; server/AEC {steps:,} steps "
          f"per pass, vector batch {batch} x {vsteps:,} steps")
    print("steps/s; env = the policy's time excluded on every side, +pol = included on every side")
    head = (f"{'ruleset':<18} {'server env':>11} {'AEC env':>9} {'vector env':>11} {'vec/AEC env':>12} "
            f"{'AEC +pol':>9} {'vector +pol':>12} {'vec/AEC +pol':>13} {'AEC/server':>11} "
            f"{'step_deal':>11} {'2 thr/1 thr':>12}")
    print(head)
    print("-" * len(head))
    figures: dict[str, float] = {}
    for rs in args.rulesets.split(","):
        server_pass(rs, steps // 10, 1)
        aec_pass(rs, steps // 10, 1)
        rate = best_rates({
            "server": lambda rs=rs: server_pass(rs, steps, 1),
            "aec": lambda rs=rs: aec_pass(rs, steps, 1),
            "vector": lambda rs=rs: vector_pass(rs, vsteps, 1, batch),
            "engine": lambda rs=rs: batch_pass(rs, vsteps, 1, batch),
            "one": lambda rs=rs: threads_pass(rs, vsteps, 1, batch, 1),
            "two": lambda rs=rs: threads_pass(rs, vsteps, 1, batch, 2),
        })
        (server, server_p), (aec, aec_p), (vector, vector_p) = rate["server"], rate["aec"], rate["vector"]
        engine, one, two = rate["engine"][1], rate["one"][1], rate["two"][1]
        print(f"{rs:<18} {server:>11,.0f} {aec:>9,.0f} {vector:>11,.0f} {vector / aec:>11.1f}x "
              f"{aec_p:>9,.0f} {vector_p:>12,.0f} {vector_p / aec_p:>12.1f}x {aec_p / server_p:>10.0%} "
              f"{engine:>11,.0f} {two / one:>11.2f}x")
        figures.update({f"{rs} | server": server, f"{rs} | aec": aec, f"{rs} | vector": vector,
                        f"{rs} | vector/aec": vector / aec, f"{rs} | aec +policy": aec_p,
                        f"{rs} | vector +policy": vector_p, f"{rs} | vector/aec +policy": vector_p / aec_p,
                        f"{rs} | aec/server": aec_p / server_p, f"{rs} | threads 2/1": two / one,
                        f"{rs} | step_deal": engine})
    print("targets: AEC/server >= 50 % (both with the policy, as the issue's server loop), vector/AEC >= 10x "
          "(env); step_deal = the time inside the compiled RoundBatch.step_deal only (no policy, no rewards)")
    return figures


if __name__ == "__main__":
    main()
