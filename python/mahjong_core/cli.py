"""Command line: ``mahjong-core <command> ...``.

Commands
--------
``hand TILES [--ruleset R] [--json]``
    Analyse a concealed hand: tile count, whether it is complete (3k+2 tiles),
    its shanten per form and overall, and its waiting tiles (3k+1 tiles).
``score TILES --win TILE [--melds "pon CCC" ...] [--self-drawn] [flags] [--ruleset R] [--json]``
    Score a winning hand: the counted fans (Chinese and English names, points,
    count) and the total.
``simulate [--ruleset R] [--rounds N] [--bots greedy,random] [--workers W] [--out F.json] [--csv F.csv] [--plot F.png] [--scheduler tcp://host:port | --local-dask]``
    Monte Carlo simulation between bots; prints a summary, writes JSON/CSV/PNG.
``match [--ruleset R] [--room ROOM] [--rounds N] [--bots greedy,random] [--seed S]``
    A match between bots with settlement in a room: each round's fans and the ledger.
``play [--ruleset two-player] [--seed S] [--glyphs]``
    Play a round against the greedy bot in the terminal.

User errors (bad tiles, wrong sizes, unknown rulesets) print one line on
stderr and exit with status 2; there is no traceback for a user error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from . import __version__
from .errors import MahjongError
from .hand import FORMS, form_shanten, is_win, shanten, waits
from .rulesets import RULESET_NAMES, get_ruleset
from .tiles import format_tiles, parse_hand, tile_glyph, tile_name, tile_short


def _hand_report(text: str, ruleset: str) -> dict:
    rs = get_ruleset(ruleset)
    counts = parse_hand(text)
    n = int(counts.sum())
    report: dict = {
        "hand": format_tiles([i for i in range(34) for _ in range(counts[i])]),
        "ruleset": rs.name,
        "tiles": n,
        "shanten": shanten(counts, ruleset=rs),
    }
    forms = {}
    for form in FORMS:
        try:
            forms[form] = form_shanten(counts, form, ruleset=rs)
        except MahjongError:
            continue  # the ruleset has no such form, or it does not apply to this many tiles
    report["form_shanten"] = forms
    if n % 3 == 2:
        report["complete"] = is_win(counts, ruleset=rs)
    else:
        report["waits"] = waits(counts, ruleset=rs)
    return report


def _print_hand(report: dict) -> None:
    print(f"hand     {report['hand']}  ({report['tiles']} tiles, ruleset {report['ruleset']})")
    print(f"shanten  {report['shanten']}" + ("  (complete)" if report["shanten"] == -1 else
                                             "  (ready)" if report["shanten"] == 0 else ""))
    for form, value in report["form_shanten"].items():
        print(f"  {form:<18} {value}")
    if "waits" in report:
        if report["waits"]:
            shown = ", ".join(
                f"{tile_short(t)} {tile_glyph(t)} {tile_name(t, 'zh')}" for t in report["waits"]
            )
            print(f"waits    {shown}")
        else:
            print("waits    none")
    else:
        print(f"complete {'yes' if report['complete'] else 'no'}")


def _cmd_hand(args: argparse.Namespace) -> int:
    report = _hand_report(args.tiles, args.ruleset)
    if args.json:
        if "waits" in report:
            report["waits"] = [tile_short(t) for t in report["waits"]]
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_hand(report)
    return 0


_SCORE_FLAGS = (
    ("self-drawn", "self_drawn", "自摸: the winning tile was drawn by the winner"),
    ("last-tile", "last_tile", "win on the last wall tile (妙手回春) or on the discard after it (海底捞月)"),
    ("kong-replacement", "kong_replacement", "win on a kong's replacement tile (杠上开花)"),
    ("flower-replacement", "flower_replacement", "win on a flower's replacement tile"),
    ("robbing-kong", "robbing_kong", "win by robbing an added kong (抢杠和)"),
    ("last-of-kind", "last_of_kind", "the other three copies of the winning tile were visible (和绝张)"),
    ("ready", "ready", "报听 was declared"),
    ("heavenly", "heavenly", "天胡 (dealer's initial 14 tiles; no --win)"),
    ("earthly", "earthly", "地胡"),
    ("humanly", "humanly", "人胡"),
    ("heavenly-ready", "heavenly_ready", "天听"),
)


def _cmd_score(args: argparse.Namespace) -> int:
    from .scoring import score

    kwargs = {dest: getattr(args, dest) for _, dest, _ in _SCORE_FLAGS}
    flowers: object = args.flowers
    if isinstance(flowers, str) and flowers.isdigit():
        flowers = int(flowers)
    result = score(
        args.tiles, args.win, ruleset=args.ruleset, melds=args.melds or (), flowers=flowers,
        seat_wind=args.seat_wind, round_wind=args.round_wind, min_fan=args.min_fan, **kwargs,
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    print(f"ruleset {result.ruleset}, form {result.form}")
    print(f"{'points':>6}  {'×':>2}  番种    fan")
    for f in result.fans:
        pad = 8 - sum(2 if ord(ch) > 0x2E80 else 1 for ch in f.name)
        print(f"{f.total:>6}  {f.count:>2}  {f.name}{' ' * max(pad, 1)}{f.name_en}")
    print(f"{result.total:>6}      total ({result.non_flower_total} without flowers; "
          f"minimum {result.min_fan}: {'met' if result.meets_minimum else 'NOT met'})")
    return 0


def _bots(text: str) -> tuple[str, ...]:
    return tuple(b.strip() for b in text.split(",") if b.strip())


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulation import simulate
    from .simulation.plots import plot_result

    executor = None
    client = None
    if args.scheduler:
        from .simulation.dask_support import connect

        executor = client = connect(args.scheduler, timeout=args.scheduler_timeout)
    elif args.local_dask:
        executor = "dask"
    try:
        result = simulate(
            args.ruleset, args.rounds, _bots(args.bots), seed=args.seed, executor=executor,
            batch_size=args.batch_size, workers=args.workers, progress=not args.no_progress,
            min_fan=args.min_fan,
        )
    finally:
        if client is not None:
            client.close()
    print(result.summary())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(result.to_json())
        print(f"wrote {args.out}")
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            f.write(result.to_csv())
        print(f"wrote {args.csv}")
    if args.plot:
        print(f"wrote {plot_result(result, args.plot)}")
    return 0


_DEFAULT_ROOM = {"two-player": "beginner", "two-player-bamboo": "bamboo", "public": "public"}


def _cmd_match(args: argparse.Namespace) -> int:
    from .game import GreedyBot, Match, RandomBot, play_round
    from .settlement import HandOutcome, Ledger, get_room, settle_hand

    rs = get_ruleset(args.ruleset)
    room = get_room(args.room or _DEFAULT_ROOM[rs.name])
    if room.ruleset != rs.name:
        raise MahjongError(f"room {room.name!r} is a {room.ruleset} room, not {rs.name}")
    bots = _bots(args.bots)
    if len(bots) == 1:
        bots *= rs.players
    if len(bots) != rs.players or any(b not in ("greedy", "random") for b in bots):
        raise MahjongError(f"--bots needs {rs.players} names out of greedy, random; got {args.bots!r}")
    if args.rounds <= 0:
        raise MahjongError(f"--rounds must be positive, got {args.rounds}")
    balance = args.balance if args.balance is not None else max(room.entry_min * 10, 10_000)
    names = tuple(f"seat{i}-{b}" for i, b in enumerate(bots))
    ledger = Ledger()
    for name in names:
        room.check_entry(balance)
        ledger.open(name, balance)
    players = [GreedyBot() if b == "greedy" else RandomBot(args.seed + i) for i, b in enumerate(bots)]
    match = Match(rs.name, args.seed, rounds=args.rounds, min_fan=room.min_fan)
    print(f"{rs.name} match in room {room.name!r} ({room.value_per_fan} per fan), {args.rounds} rounds, "
          f"opening balance {balance:,} each")
    k = 0
    while not match.is_over:
        k += 1
        res = play_round(match.round, players)
        if res.draw:
            outcome = HandOutcome(names, round=k)
            line = "exhaustive draw (荒牌)"
        else:
            outcome = HandOutcome(names, winner=res.winner, loser=res.loser, method=res.method,
                                  hand_value=res.total, non_flower_total=res.score.non_flower_total, round=k)
            fans = ", ".join(f"{f.name}{'×' + str(f.count) if f.count > 1 else ''} {f.total}" for f in res.score.fans)
            who = f"seat {res.winner}" + ("" if res.loser is None else f" on seat {res.loser}'s tile")
            line = f"{who} ({res.method}) {res.total} fan: {fans}"
        transfers = settle_hand(ledger, room, outcome)
        moved = "; ".join(f"{t.payer} -> {t.payee} {t.amount:,} ({t.reason})" for t in transfers) or "no transfer"
        print(f"round {k} (dealer seat {res.dealer}): {line}\n    {moved}")
        match.next_round()
    print("ledger:")
    for name, value in ledger.balances.items():
        print(f"  {name:<16} {value:>10,}")
    print(f"  {'total':<16} {ledger.total:>10,}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import play_terminal

    return play_terminal(args.ruleset, args.seed, glyphs=args.glyphs, you=args.seat)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-core", description="Fast, exact rules engine for Chinese mahjong."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hand", help="shanten, waits and win check of a concealed hand")
    p.add_argument("tiles", help='tiles, e.g. "1112345678999m" or "123m456p789sEESS"')
    p.add_argument("--ruleset", default="two-player", choices=RULESET_NAMES)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_hand)

    p = sub.add_parser("score", help="score a winning hand: fans and total")
    p.add_argument("tiles", help='concealed tiles without the winning tile, e.g. "123m456m789m11mE"')
    p.add_argument("--win", help='the winning tile, e.g. "E" or "5m" (omit only with --heavenly)')
    p.add_argument("--melds", nargs="*", metavar="MELD",
                   help='declared groups: "chi 123m", "pon CCC", "kong EEEE", "ckong 9999m"')
    p.add_argument("--ruleset", default="two-player", choices=RULESET_NAMES)
    for flag, dest, text in _SCORE_FLAGS:
        p.add_argument(f"--{flag}", dest=dest, action="store_true", help=text)
    p.add_argument("--flowers", default="0", help='number of flowers, or the flower tiles ("春夏", "1f2f")')
    p.add_argument("--seat-wind", default=None, help="public: seat wind E/S/W/N (default E)")
    p.add_argument("--round-wind", default=None, help="public: prevalent wind E/S/W/N (default E)")
    p.add_argument("--min-fan", type=int, default=None, help="minimum fan (起和); default the ruleset's (8)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("simulate", help="Monte Carlo simulation between bots")
    p.add_argument("--ruleset", default="two-player", choices=RULESET_NAMES)
    p.add_argument("--rounds", type=int, default=10_000)
    p.add_argument("--bots", default="greedy", help="one bot name per seat or one for all: greedy, random")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help="local worker processes (default: all cores)")
    p.add_argument("--batch-size", type=int, default=500)
    p.add_argument("--min-fan", type=int, default=None)
    p.add_argument("--out", help="write the statistics as JSON")
    p.add_argument("--csv", help="write the fan frequencies as CSV")
    p.add_argument("--plot", help="write PNG charts")
    p.add_argument("--scheduler", help="run on a Dask cluster: tcp://host:port")
    p.add_argument("--scheduler-timeout", type=float, default=10.0, help="seconds to reach the scheduler")
    p.add_argument("--local-dask", action="store_true", help="start a local Dask cluster of --workers processes")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("match", help="a match between bots with settlement in a room")
    p.add_argument("--ruleset", default="two-player", choices=RULESET_NAMES)
    p.add_argument("--room", default=None, help="room name (default: the ruleset's seed room)")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--bots", default="greedy,random")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--balance", type=int, default=None, help="opening balance of every player")
    p.set_defaults(func=_cmd_match)

    p = sub.add_parser("play", help="play a two-player round against the greedy bot")
    p.add_argument("--ruleset", default="two-player", choices=("two-player", "two-player-bamboo"))
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seat", type=int, default=0, choices=(0, 1), help="your seat (0 deals first)")
    p.add_argument("--glyphs", action="store_true", help="show tiles as Unicode glyphs")
    p.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except MahjongError as exc:
        print(f"mahjong-core: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
