"""The mahjong side of ``mahjong-core hand``, ``score``, ``match`` and ``play``, and its own
``advise`` command (:mod:`.advise_cli`): the family's command-line hooks (``Family.cli``,
:class:`~mahjong_core.families.hooks.CliHooks`), which :mod:`mahjong_core.cli` runs for a mahjong
``--ruleset``.  The options, help fragments and examples are data in :mod:`.family`."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Sequence

from ... import cli as shared
from ..._validate import counted
from ...errors import MahjongError
from ..hooks import Foreign, int_in
from ._constants import FLAGS
from .hand import FORMS, form_shanten, is_win, shanten, waits
from .rulesets import get_ruleset
from .tiles import format_tiles, parse_hand, tile_glyph, tile_name, tile_short

if TYPE_CHECKING:
    from ...settlement.ledger import Transfer
    from .round import RoundResult

__all__ = ["SCORE_FLAGS", "FLAG_UNSET", "score_options", "run_hand", "run_score", "run_match", "run_play"]


def _refuse(foreign: Sequence[Foreign]) -> None:
    """Options of another family: all of them named, with the rulesets that take them."""
    if foreign:
        first = foreign[0]
        names = first.family_options
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        raise shared.UsageError(f"{listed}: only for --ruleset {', '.join(first.rulesets)}")


# ------------------------------------------------------------------ hand
def _hand_report(text: str, ruleset: str) -> dict[str, Any]:
    rs = get_ruleset(ruleset)
    counts = parse_hand(text)
    n = int(counts.sum())
    report: dict[str, Any] = {
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


def _print_hand(report: dict[str, Any]) -> None:
    print(f"hand     {report['hand']}  ({counted(report['tiles'], 'tile')}, ruleset {report['ruleset']})")
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


def run_hand(args: argparse.Namespace, foreign: Sequence[Foreign]) -> int:
    _refuse(foreign)
    report = _hand_report(args.tiles, args.ruleset)
    if args.json:
        if "waits" in report:
            report["waits"] = [tile_short(t) for t in report["waits"]]
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_hand(report)
    return shared.EXIT_OK


# ------------------------------------------------------------------ score
_FLAG_HELP = {
    "self_drawn": "自摸: the winning tile was drawn by the winner",
    "last_tile": "win on the last wall tile (妙手回春) or on the discard after it (海底捞月)",
    "kong_replacement": "win on a kong's replacement tile (杠上开花)",
    "flower_replacement": "win on a flower's replacement tile",
    "robbing_kong": "win by robbing an added kong (抢杠和)",
    "last_of_kind": "the other three copies of the winning tile were visible (和绝张)",
    "ready": "报听 was declared",
    "ready_concealed": "with --ready: the hand was concealed when 报听 was declared (立直 in two-player-bamboo); "
                       "default: it has no exposed meld now",
    "heavenly": "天胡 (dealer's initial 14 tiles; no --win)",
    "earthly": "地胡",
    "humanly": "人胡",
    "heavenly_ready": "天听",
}
"""Help of each situational flag of ``score`` (the generated FLAGS, one bit each)."""
FLAG_UNSET = {"ready_concealed": None}
"""The flags whose ``score`` default is "not said" (None): ``--x`` / ``--no-x``, None if neither."""

# (option, keyword, help) of every score flag, in the generated order: a flag without help fails here
SCORE_FLAGS = tuple((name.replace("_", "-"), name, _FLAG_HELP[name]) for name in FLAGS)


def score_options() -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """The options mahjong adds to ``score``: the situational flags, flowers, winds, minimum."""
    from ...limits import MAX_MIN_FAN

    out: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    for flag, dest, text in SCORE_FLAGS:
        if dest in FLAG_UNSET:
            out.append(((f"--{flag}",), dict(dest=dest, action=argparse.BooleanOptionalAction,
                                              default=FLAG_UNSET[dest], help=text)))
        else:
            out.append(((f"--{flag}",), dict(dest=dest, action="store_true", help=text)))
    out += [
        (("--flowers",), dict(default="0", help='number of flowers, or the flower tiles ("春夏", "1f2f")')),
        (("--seat-wind",), dict(default=None, help="public: seat wind E/S/W/N (default: E)")),
        (("--round-wind",), dict(default=None, help="public: prevalent wind E/S/W/N (default: E)")),
        (("--min-fan",), dict(type=int_in(0, MAX_MIN_FAN), default=None,
                              help=f"minimum fan (起和), 0-{MAX_MIN_FAN}; default the ruleset's (8)")),
    ]
    return out


def _flowers(text: str) -> "int | str":
    """``--flowers``: a number of flowers (ASCII digits) or the flower tiles, for ``score``."""
    if not (text.isascii() and text.isdigit()):
        return text  # flower tiles ("春夏", "1f2f"); the library parses them
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (4300): no such number of flowers
        raise shared.UsageError(f"--flowers: {text!r} is not a number of flowers") from None


def run_score(args: argparse.Namespace, foreign: Sequence[Foreign]) -> int:
    _refuse(foreign)
    from .scoring import score

    kwargs = {dest: getattr(args, dest) for _, dest, _ in SCORE_FLAGS}
    result = score(
        args.tiles, args.win, ruleset=args.ruleset, melds=args.melds or (), flowers=_flowers(args.flowers),
        seat_wind=args.seat_wind, round_wind=args.round_wind, min_fan=args.min_fan, **kwargs,
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return shared.EXIT_OK
    print(f"ruleset {result.ruleset}, form {result.form}")
    print(f"{'points':>6}  {'×':>2}  番种    fan")
    for f in result.fans:
        pad = 8 - sum(2 if ord(ch) > 0x2E80 else 1 for ch in f.name)
        print(f"{f.total:>6}  {f.count:>2}  {f.zh}{' ' * max(pad, 1)}{f.en}")
    print(f"{result.total:>6}      total ({result.non_flower_total} without flowers; "
          f"minimum {result.min_fan}: {'met' if result.meets_minimum else 'NOT met'})")
    return shared.EXIT_OK


# ------------------------------------------------------------------ match
def _round_record(k: int, res: RoundResult, transfers: Sequence[Transfer]) -> dict[str, Any]:
    rec: dict[str, Any] = {"round": k, "dealer": res.dealer, "draw": bool(res.draw)}
    if not res.draw:
        assert res.score is not None   # a won round has its score
        rec.update(winner=res.winner, loser=res.loser, method=res.method, total=res.total,
                   non_flower_total=res.score.non_flower_total, fans=res.score.to_dict()["fans"])
    rec["transfers"] = [t.to_dict() for t in transfers]
    return rec


def _round_line(k: int, res: RoundResult, transfers: Sequence[Transfer]) -> str:
    if res.draw:
        line = "exhaustive draw (荒牌)"
    else:
        assert res.score is not None   # a won round has its score
        fans = ", ".join(f"{f.name}{'×' + str(f.count) if f.count > 1 else ''} {f.total}" for f in res.score.fans)
        who = f"seat {res.winner}" + ("" if res.loser is None else f" on seat {res.loser}'s tile")
        line = f"{who} ({res.method}) {res.total} fan: {fans}"
    moved = "; ".join(f"{t.payer} -> {t.payee} {t.amount:,} ({t.reason})" for t in transfers) or "no transfer"
    return f"round {k} (dealer seat {res.dealer}): {line}\n    {moved}"


def run_match(args: argparse.Namespace, foreign: Sequence[Foreign]) -> int:
    _refuse(foreign)
    from ...game.bots import play_round
    from ...settlement import HandOutcome, Ledger, get_room, settle_hand
    from .bots import GreedyBot, RandomBot
    from .match import Match

    rs = get_ruleset(args.ruleset)
    room = get_room(rs.default_room if args.room is None else args.room)
    if room.ruleset != rs.name:
        raise shared.UsageError(f"--room: room {room.name!r} is a {room.ruleset} room, not {rs.name}")
    bots = shared._seat_bots(args.bots or "greedy,random", rs)
    outputs = shared._Outputs([("--out", args.out)])
    as_json = args.json or outputs.stdout == "--out"  # the JSON record goes to standard output
    balance = args.balance if args.balance is not None else max(room.entry_min * 10, 10_000)
    room.check_entry(balance)
    names = tuple(f"seat{i}-{b}" for i, b in enumerate(bots))
    ledger = Ledger()
    for name in names:
        ledger.open(name, balance)
    players = [GreedyBot() if b == "greedy" else RandomBot(args.seed + i) for i, b in enumerate(bots)]
    match = Match(rs.name, args.seed, rounds=args.rounds, min_fan=room.min_fan)
    if not as_json:
        print(f"{rs.name} match in room {room.name!r} ({room.value_per_fan} per fan), {counted(args.rounds, 'round')}, "
              f"opening balance {balance:,} each")
    records = []
    k = 0
    while not match.is_over:
        k += 1
        res = play_round(match.round, players)
        # the outcome carries the minimum the round was played under (one source of truth)
        outcome = HandOutcome.from_result(res, names, round=k)
        transfers = settle_hand(ledger, room, outcome)
        records.append(_round_record(k, res, transfers))
        if not as_json:
            print(_round_line(k, res, transfers))
        match.next_round()
    record = json.dumps({"ruleset": rs.name, "room": room.name, "value_per_fan": room.value_per_fan,
                         "seed": args.seed, "players": list(names), "opening_balance": balance,
                         "rounds": records, "balances": dict(ledger.balances), "total": ledger.total},
                        ensure_ascii=False)
    written = outputs.write("--out", shared._write_text(record + "\n"))
    if as_json:
        print(record)
        return shared.EXIT_OK
    print("ledger:")
    for name, value in ledger.balances.items():
        print(f"  {name:<16} {value:>10,}")
    print(f"  {'total':<16} {ledger.total:>10,}")
    if written and not args.quiet:
        print(f"wrote {shared._shown(written)}")
    return shared.EXIT_OK


# ------------------------------------------------------------------ play
def run_play(args: argparse.Namespace, foreign: Sequence[Foreign]) -> int:
    _refuse(foreign)
    from ...play import play_terminal

    if args.seat > 1:
        raise shared.UsageError(f"--seat {args.seat}: {args.ruleset} has two seats, 0 and 1")
    return play_terminal(args.ruleset, args.seed, glyphs=args.glyphs, you=args.seat)
