"""The search bot against the greedy bot on duplicate deals: win rate, points, CPU per decision.

    python bench/bench_search_bot.py [--ruleset two-player] [--deals N] [--budget STEPS]
                                     [--seed S] [--objective net|win] [--candidates K] [--bot search]
                                     [--split] [--sampler] [--ready-weight W] [--last-weight W]
                                     [--past-weight W] [--pass-weight W] [--pass-depth N] [--models M,...]

Each deal (a seeded wall, ``Round(ruleset, seed)``) is played once by greedy bots in every seat,
then once per seat with the search bot in that seat and greedy bots elsewhere: every wall is seen
from every chair, by the search bot and by the greedy bot, so the luck of the deal cancels.
Per deal the paired difference is the mean over the seats of (search seat's result - greedy's
result in that seat on the same wall); the figures are the means over the deals with 95 %
normal intervals (1.96 standard errors of the per-deal differences: the deals are independent).

Printed: the win rate of the bot's seat and of greedy in the same seats, their difference with
its 95 % interval; points per round (the round's ``deltas``, the ruleset's default settlement)
the same way; the bot's CPU time per decision (``time.process_time``; mean over all decisions,
mean and 95th percentile and maximum over the decisions it searched); the load average.  One
process, one core.

``--split`` also prints where the difference comes from: on a wall, the bot's game is greedy's
game until its first decision that is not the greedy bot's action, so each seat-round's
difference is credited to the kind of that decision (a discard, a 报听, a kong, a claim or pass;
none: the same game); and how the rounds ended, greedy's against the bot's.  ``--sampler`` plays
no bot: it scores the search bot's opponent models against the real hands (:func:`sampler_study`:
the log loss of his waits and of his shanten, how often his very hand is among the worlds, and the
share of the worlds with exactly his waits when he is ready), and with ``--past-weight``,
``--pass-weight`` or ``--pass-depth`` also ``"history"`` with those; ``--models`` scores only the
models named.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any

import numpy as np

import mahjong_core as mj
from mahjong_core.families.mahjong._constants import (A_DECLARE_READY, A_DISCARD_READY, A_KONG_SELF, PH_CLAIM,
                                                      PH_READY_WINDOW, PH_ROB, PH_TURN)
from mahjong_core.families.mahjong.advise_bot import AdvisorBot
from mahjong_core.families.mahjong.search_bot import (ANCHORS, DEFAULT_STEPS, DISCARD_WEIGHTS, LAST_WEIGHT, OBJECTIVES,
                                                       OPPONENT_MODELS, PASS_DEPTH, PASS_WEIGHT, PAST_WEIGHT,
                                                       READY_WEIGHT, SearchBot)
from mahjong_core.game.bots import play_round, play_steps


class _Timed:
    """A bot whose decisions are timed (CPU) one by one; ``first``: the round's first decision
    where it did not play the greedy bot's action, as (its kind, the greedy action, its own), or
    None (set by :meth:`new_round`)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu_ms: list[float] = []
        self.searched: list[float] = []
        self.greedy = mj.GreedyBot()
        self.first: "tuple[str, int, int] | None" = None

    def new_round(self) -> None:
        self.first = None

    def act_index(self, rnd: Any, seat: int) -> int:
        g = int(self.greedy.act_index(rnd, seat)) if self.first is None else -1   # outside the timing
        t = time.process_time()
        i = int(self.bot.act_index(rnd, seat))
        ms = (time.process_time() - t) * 1000
        self.cpu_ms.append(ms)
        if getattr(self.bot, "last", {}).get("playouts", 1):
            self.searched.append(ms)
        if self.first is None and i != g:
            self.first = (decision_kind(rnd.phase, g, i), g, i)
        return i

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


KINDS = ("discard", "ready", "kong", "claim", "other")
"""The kinds of a decision where the bot left the greedy bot's action (:func:`decision_kind`)."""

ENDINGS = ("won on a discard", "won by self-draw", "dealt in", "paid a self-draw", "other paid", "draw")
"""How a round ended for a seat (:func:`ending`)."""


def decision_kind(phase: int, greedy: int, chosen: int) -> str:
    """What the bot changed by playing ``chosen`` where greedy plays ``greedy``: ``"discard"``
    (another tile, 报听 or not alike), ``"ready"`` (the same tile, with or without 报听, or the 天听
    window's answer), ``"kong"`` (a kong on its turn, or not), ``"claim"`` (a chi, pon, kong or
    pass on another's discard) or ``"other"``."""
    if phase in (PH_CLAIM, PH_ROB):
        return "claim"
    if phase == PH_READY_WINDOW or A_DECLARE_READY in (greedy, chosen):
        return "ready"
    if greedy >= A_KONG_SELF or chosen >= A_KONG_SELF:
        return "kong" if A_KONG_SELF in (greedy // 34 * 34, chosen // 34 * 34) else "other"
    if greedy % A_DISCARD_READY == chosen % A_DISCARD_READY:
        return "ready"
    return "discard"


def ending(rnd: Any, seat: int) -> str:
    """How a finished round ended for ``seat`` (one of :data:`ENDINGS`)."""
    res = rnd.result.to_dict()
    if res.get("draw") or not res.get("winners"):
        return "draw"
    for w in res["winners"]:
        if w["seat"] == seat:
            return "won by self-draw" if w["method"] == "self_drawn" else "won on a discard"
    w = res["winners"][0]
    if w["method"] == "self_drawn":
        return "paid a self-draw"
    return "dealt in" if w.get("loser") == seat else "other paid"


def _outcome(rnd: Any, seat: int) -> tuple[int, float]:
    """(the seat won, its points) of a finished round."""
    res = rnd.result
    winners = {w["seat"] for w in res.to_dict().get("winners", [])}
    return int(seat in winners), float(res.deltas[seat])


def interval(diffs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    a = np.asarray(diffs, dtype=np.float64)
    if a.size < 2:
        return float(a.mean()) if a.size else 0.0, math.inf
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / math.sqrt(a.size)


def run(ruleset: str, deals: int, budget: "int | None", seed: int = 1, objective: str = "net", candidates: int = 3,
        bot_name: str = "search", progress: int = 0, opponents: "str | None" = None,
        anchor: str = "auto", z: float = 2.0, ready_weight: "float | None" = None,
        last_weight: "float | None" = None, past_weight: "float | None" = None,
        pass_weight: "float | None" = None, pass_depth: "int | None" = None) -> dict[str, Any]:
    """Play the duplicate deals; returns the figures (what :func:`main` prints)."""
    if bot_name == "search":
        search = SearchBot(seed, steps=budget, objective=objective, candidates=candidates,
                           opponents=opponents, anchor=anchor, z=z)
        if ready_weight is not None:
            search.ready_weight = ready_weight
        if last_weight is not None:
            search.last_weight = last_weight
        if past_weight is not None:
            search.past_weight = past_weight
        if pass_weight is not None:
            search.pass_weight = pass_weight
        if pass_depth is not None:
            search.pass_depth = pass_depth
        timed = _Timed(search)
    else:
        timed = _Timed(AdvisorBot())
    players = mj.get_ruleset(ruleset).players
    win_d: list[float] = []
    pts_d: list[float] = []
    bot_wins = greedy_wins = 0.0
    bot_pts = greedy_pts = 0.0
    split: dict[str, list[float]] = {}           # kind of the first departure: [rounds, win diff, points diff]
    endings: dict[tuple[str, str], int] = {}     # (greedy's ending, the bot's) in the same seat: rounds
    t0 = time.process_time()
    for k in range(deals):
        s = seed + k
        base = mj.Round(ruleset=ruleset, seed=s)
        play_round(base, ["greedy"] * players)              # in the engine
        wd = pd = 0.0
        for seat in range(players):
            rnd = mj.Round(ruleset=ruleset, seed=s)
            bots: list[Any] = [mj.GreedyBot() for _ in range(players)]
            bots[seat] = timed
            timed.new_round()
            play_steps(rnd, bots, 10_000)
            bw, bp = _outcome(rnd, seat)
            gw, gp = _outcome(base, seat)
            kind = timed.first[0] if timed.first is not None else "none"
            row = split.setdefault(kind, [0, 0.0, 0.0])
            row[0] += 1
            row[1] += bw - gw
            row[2] += bp - gp
            key = (ending(base, seat), ending(rnd, seat))
            endings[key] = endings.get(key, 0) + 1
            bot_wins += bw
            greedy_wins += gw
            bot_pts += bp
            greedy_pts += gp
            wd += bw - gw
            pd += bp - gp
        win_d.append(wd / players)
        pts_d.append(pd / players)
        if progress and (k + 1) % progress == 0:
            m, h = interval(win_d)
            print(f"  {k + 1} deals: win rate difference {m:+.3f} ± {h:.3f}", flush=True)
    n = deals * players
    searched = np.asarray(timed.searched or [0.0])
    return {
        "ruleset": ruleset, "deals": deals, "rounds": n + deals, "budget": budget, "objective": objective,
        "bot": bot_name, "bot_win_rate": bot_wins / n, "greedy_win_rate": greedy_wins / n,
        "win_rate_diff": interval(win_d), "bot_points": bot_pts / n, "greedy_points": greedy_pts / n,
        "points_diff": interval(pts_d), "decisions": len(timed.cpu_ms),
        "cpu_ms_mean": float(np.mean(timed.cpu_ms)) if timed.cpu_ms else 0.0,
        "searched": len(timed.searched), "cpu_ms_searched_mean": float(searched.mean()),
        "cpu_ms_p95": float(np.percentile(searched, 95)), "cpu_ms_max": float(searched.max()),
        "cpu_s": time.process_time() - t0, "load_average": os.getloadavg(),
        "split": split, "endings": endings,
    }


SAMPLERS = {
    "uniform": (False, None, 1.0, 1.0, 1.0, 1.0, 0),
    "history, ready and last weights 1": (True, None, 1.0, 1.0, 1.0, 1.0, 0),
    "history": (True, None, READY_WEIGHT, LAST_WEIGHT, PAST_WEIGHT, PASS_WEIGHT, PASS_DEPTH),
    "discards": (True, DISCARD_WEIGHTS, READY_WEIGHT, LAST_WEIGHT, PAST_WEIGHT, PASS_WEIGHT, PASS_DEPTH),
}
"""The opponent models :func:`sampler_study` compares: ``sample_hidden_hands``'s arguments (history,
discard weights, ready weight, last weight, past weight, pass weight, pass depth); ``"history"``
and ``"discards"`` as the bot uses them."""

LEARNED = "learned"
"""The name in :func:`sampler_study` of the learned model (``opponent_model.py``), which gives the
probabilities of his waits and of his shanten directly instead of sampled hands."""

RESAMPLED = "learned-resampled"
"""The name in :func:`sampler_study` of the search bot's ``opponents="learned"``: a pool of hands
of ``"history"`` reweighted toward the learned model's prediction
(:func:`~mahjong_core.families.mahjong.opponent_model.resample_pool`), the worlds drawn from it."""

MODELS = (*SAMPLERS, LEARNED, RESAMPLED)
"""Every model :func:`sampler_study` can score (``--models``)."""


def sampler_study(ruleset: str, deals: int, seed: int = 1, worlds: int = 200,
                  extra: "dict[str, tuple[Any, ...]] | None" = None,
                  only: "list[str] | None" = None, model_path: "str | None" = None) -> dict[str, Any]:
    """How well each opponent model of :data:`SAMPLERS` predicts the real opponent's hand, at every
    turn of a two-player round of greedy bots where the seat has a choice of discards: the log loss
    per kind the seat holds of "the opponent wins on that kind" (shape waits: the deal-in risk of
    discarding it) and the log loss of his shanten (how near he is), from ``worlds`` sampled hands
    (a study: the real hand is read to score the models, never by a bot).  ``extra``: more models,
    named, with the arguments of :data:`SAMPLERS`; ``only``: those of :data:`MODELS` to score (None: all).
    The learned model (:data:`LEARNED`; its weights at ``model_path``, None: the shipped ones)
    gives the probabilities itself, from the seat's view; its hand and same-waits shares are not
    defined (NaN)."""
    from mahjong_core._round import sample_hidden_hands
    from mahjong_core.families.mahjong.opponent_model import SHANTEN_CLASSES, load_model, resample_pool, sample_pool
    from mahjong_core.families.mahjong.search_bot import LEARNED_POOL
    models: dict[str, Any] = {**{m: a for m, a in SAMPLERS.items() if only is None or m in only}, **(extra or {})}
    for name in (LEARNED, RESAMPLED):
        if only is None or name in only:
            models[name] = load_model(ruleset, model_path)
    waits = {m: 0.0 for m in models}
    shanten = {m: 0.0 for m in models}
    found = {m: 0 for m in models}          # turns where a world dealt him his very hand
    same_waits = {m: 0.0 for m in models}   # share of the worlds with his waits, over the turns he is ready
    kinds_n = points = ready_points = 0
    greedy = mj.GreedyBot()
    for s in range(seed, seed + deals):
        rnd = mj.Round(ruleset=ruleset, seed=s)
        if rnd.players != 2:
            raise SystemExit("--sampler is a study of two-player rounds")
        while not rnd.is_over:
            seat = rnd.seats_to_act()[0]
            if rnd.phase == PH_TURN and sum(1 for i in rnd.legal_indices(seat) if i < A_KONG_SELF) > 1:
                opp = 1 - seat
                true = np.asarray(rnd.hand_counts(opp), dtype=np.int8)[None, :34]
                tw = int(mj.waits_batch(true, ruleset=ruleset)[0])
                ts = int(mj.shanten_batch(true, ruleset=ruleset)[0])
                kinds = [k for k in range(34) if rnd.hand_counts(seat)[k]]
                hit = np.array([(tw >> k) & 1 for k in kinds], dtype=np.float64)
                for m, args in models.items():
                    if m == LEARNED:
                        pool = sample_pool(rnd._core, seat, args.pool_worlds, np.random.PCG64(s)) if args.pool_worlds else None
                        _, pw, psh = args.predict(rnd.view(seat), ruleset, pool)
                        p = np.clip(pw[kinds], 1e-3, 1 - 1e-3)
                        waits[m] -= float(np.sum(hit * np.log(p) + (1 - hit) * np.log(1 - p)))
                        shanten[m] -= math.log(max(float(psh[min(max(ts, 0), SHANTEN_CLASSES - 1)]), 1e-3))
                        found[m] = same_waits[m] = math.nan
                        continue
                    if m == RESAMPLED:
                        pool = sample_pool(rnd._core, seat, LEARNED_POOL, np.random.PCG64(s))
                        weights = resample_pool(args, rnd.view(seat), ruleset, pool)
                        h = pool[np.random.default_rng(s).choice(len(pool), worlds, p=weights)]
                    else:
                        h = sample_hidden_hands(rnd._core, seat, worlds, np.random.PCG64(s), *args)[:, opp]
                    ws = mj.waits_batch(h, ruleset=ruleset)
                    found[m] += int((h == true).all(axis=1).any())
                    if tw:
                        same_waits[m] += float((ws == np.uint64(tw)).mean())
                    p = np.array([float(((ws >> np.uint64(k)) & np.uint64(1)).mean()) for k in kinds])
                    p = np.clip(p, 1e-3, 1 - 1e-3)
                    waits[m] -= float(np.sum(hit * np.log(p) + (1 - hit) * np.log(1 - p)))
                    sh = mj.shanten_batch(h, ruleset=ruleset)
                    shanten[m] -= math.log((float(np.sum(sh == ts)) + 0.5) / (worlds + 4))
                kinds_n += len(kinds)
                points += 1
                ready_points += int(tw != 0)
            rnd.step(seat, greedy.act_index(rnd, seat))
    return {"ruleset": ruleset, "deals": deals, "points": points, "kinds": kinds_n, "models": list(models),
            "waits_log_loss": {m: v / max(kinds_n, 1) for m, v in waits.items()},
            "shanten_log_loss": {m: v / max(points, 1) for m, v in shanten.items()},
            "hand_found": {m: v / max(points, 1) for m, v in found.items()}, "ready_points": ready_points,
            "same_waits": {m: v / max(ready_points, 1) for m, v in same_waits.items()}}


def main(argv: "list[str] | None" = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="two-player")
    ap.add_argument("--deals", type=int, default=200, help="seeded walls, each played from every seat")
    ap.add_argument("--budget", type=int, default=None,
                    help=f"engine steps of play-outs per decision (SearchBot(steps=...); default by players: {DEFAULT_STEPS})")
    ap.add_argument("--seed", type=int, default=1, help="first wall's seed (and the bot's seed)")
    ap.add_argument("--objective", default="net", choices=OBJECTIVES)
    ap.add_argument("--candidates", type=int, default=3, help="advisor's discards weighed")
    ap.add_argument("--opponents", default=None, choices=OPPONENT_MODELS,
                    help="SearchBot(opponents=...); default: by players (DEFAULT_OPPONENTS)")
    ap.add_argument("--anchor", default="auto", choices=ANCHORS, help="SearchBot(anchor=...)")
    ap.add_argument("--z", type=float, default=2.0, help="SearchBot(z=...)")
    ap.add_argument("--bot", default="search", choices=("search", "advisor"))
    ap.add_argument("--progress", type=int, default=0, help="print the running difference every N deals (0: never)")
    ap.add_argument("--ready-weight", type=float, default=None,
                    help="the bot's ready_weight (default: READY_WEIGHT of search_bot.py)")
    ap.add_argument("--last-weight", type=float, default=None,
                    help="the bot's last_weight (default: LAST_WEIGHT of search_bot.py)")
    ap.add_argument("--past-weight", type=float, default=None,
                    help="the bot's past_weight (default: PAST_WEIGHT of search_bot.py)")
    ap.add_argument("--pass-weight", type=float, default=None,
                    help="the bot's pass_weight (default: PASS_WEIGHT of search_bot.py)")
    ap.add_argument("--pass-depth", type=int, default=None,
                    help="the bot's pass_depth (default: PASS_DEPTH of search_bot.py)")
    ap.add_argument("--sampler", action="store_true",
                    help="instead of playing: how well each opponent model predicts the real hands (two players)")
    ap.add_argument("--models", default=None,
                    help=f"with --sampler: the models to score, comma-separated, among {', '.join(MODELS)} (default: all)")
    ap.add_argument("--model-path", default=None,
                    help="with --sampler: the learned model's weights (default: the shipped opponent_model.npz)")
    ap.add_argument("--split", action="store_true",
                    help="also print the gain by the kind of the bot's first departure from greedy's action, and the endings")
    a = ap.parse_args(argv)
    if a.models and not set(a.models.split(",")) <= set(MODELS):
        ap.error(f"--models: choose among {', '.join(MODELS)}, got {a.models!r}")
    if a.sampler:
        extra = {}
        if a.past_weight is not None or a.pass_weight is not None or a.pass_depth is not None:
            extra["history, the weights given"] = (True, None, READY_WEIGHT, LAST_WEIGHT,
                                                   PAST_WEIGHT if a.past_weight is None else a.past_weight,
                                                   PASS_WEIGHT if a.pass_weight is None else a.pass_weight,
                                                   PASS_DEPTH if a.pass_depth is None else a.pass_depth)
        st = sampler_study(a.ruleset, a.deals, a.seed, extra=extra, only=a.models.split(",") if a.models else None,
                            model_path=a.model_path)
        print(f"{st['ruleset']}: opponent models against the real hands, {st['points']} turns of {st['deals']} rounds "
              f"of greedy bots (seeds {a.seed}..{a.seed + a.deals - 1}); log loss, lower is better")
        for m in st["models"]:
            print(f"  {m:34s} waits (per kind held, {st['kinds']}) {st['waits_log_loss'][m]:.4f}   "
                  f"shanten {st['shanten_log_loss'][m]:.4f}   his hand among the worlds {st['hand_found'][m]:.3f} "
                  f"of the turns; worlds with his waits {st['same_waits'][m]:.3f} (over {st['ready_points']} turns ready)")
        return
    f = run(a.ruleset, a.deals, a.budget, a.seed, a.objective, a.candidates, a.bot, a.progress, a.opponents, a.anchor, a.z, a.ready_weight,
            a.last_weight, a.past_weight, a.pass_weight, a.pass_depth)
    n_seat = f["rounds"] - f["deals"]
    wm, wh = f["win_rate_diff"]
    pm, ph = f["points_diff"]
    print(f"{f['ruleset']}: {f['deals']} deals (seeds {a.seed}..{a.seed + a.deals - 1}) x {f['rounds'] // f['deals'] - 1} "
          f"seats, {f['bot']} (budget {f['budget'] or 'default'} steps, objective {f['objective']}) vs greedy, "
          f"opponents {a.opponents or 'default'}, anchor {a.anchor}, z {a.z}, ready weight "
          f"{a.ready_weight if a.ready_weight is not None else 'default'}, last weight "
          f"{a.last_weight if a.last_weight is not None else 'default'}, {f['cpu_s']:.0f} s CPU")
    print(f"win rate: {f['bot']} {f['bot_win_rate']:.3f}, greedy in the same seats {f['greedy_win_rate']:.3f}, "
          f"difference {wm:+.3f} ± {wh:.3f} (95 %)")
    print(f"points per round: {f['bot']} {f['bot_points']:+.3f}, greedy {f['greedy_points']:+.3f}, "
          f"difference {pm:+.3f} ± {ph:.3f} (95 %)")
    print(f"CPU per decision: {f['cpu_ms_mean']:.1f} ms mean over {f['decisions']} decisions; "
          f"searched {f['searched']}: mean {f['cpu_ms_searched_mean']:.1f} ms, p95 {f['cpu_ms_p95']:.1f} ms, "
          f"max {f['cpu_ms_max']:.1f} ms")
    if a.split:
        print("first departure from greedy's action, by kind: rounds, win-rate and points gained per seat-round")
        for kind in ("none",) + KINDS:
            if kind in f["split"]:
                c, w, p = f["split"][kind]
                print(f"  {kind:8s} {int(c):5d} rounds  win {w / n_seat:+.4f}  points {p / n_seat:+.3f}  "
                      f"(per such round: win {w / c:+.3f}, points {p / c:+.2f})")
        print("endings, greedy's (rows) against the bot's (columns), same seat and wall:")
        print(" " * 18 + "".join(f"{e[:10]:>11s}" for e in ENDINGS))
        for g in ENDINGS:
            print(f"  {g:16s}" + "".join(f"{f['endings'].get((g, b), 0):11d}" for b in ENDINGS))
    la = f["load_average"]
    print(f"load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
