"""The ``changpai-ydr`` side of ``mahjong-core hand``, ``score``, ``match``, ``play`` and ``advise``: the
family's command-line hooks (``run_*``, registered as ``Family.cli`` in :mod:`.family`), which
:mod:`mahjong_core.cli` runs when ``--ruleset changpai-ydr`` is given; the terminal game is
:mod:`.play`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ... import cli as shared
from ...errors import HandSizeError
from ..._validate import counted
from .cards import face_name, format_cards, to_counts
from .counting import counting_summary
from .. import registry
from .options import RULESET

if TYPE_CHECKING:
    from ...settlement import Room

__all__ = ["cmd_hand", "cmd_match", "cmd_score", "describe_result", "display_name", "hand_report", "match_report",
           "run_advise", "run_hand", "run_match", "run_play", "run_score"]


def hand_report(text: str, banker: bool = False) -> dict[str, Any]:
    """21 concealed cards: complete or not (with the best score); 20: waits with (fan, 陀) and the
    qualification counts (卯, T_max); both: the cards-to-a-win distance and shanten (distance - 1,
    :mod:`.distance`).  No declared groups."""
    from . import is_win, score, wait_scores

    counts = to_counts(text)
    n = int(counts.sum())
    report: dict[str, Any] = {"hand": format_cards(counts, counts=True), "ruleset": RULESET, "cards": n,
                              "banker": banker}
    if n == 21:
        report["complete"] = bool(is_win(counts, banker=banker))
        if report["complete"]:
            s = score(counts, None, banker=banker)
            report["fan"], report["tuo"] = s.total, s.tuo
    elif n == 20:
        report["waits"] = {face_name(f, "pips"): {"fan": fan, "tuo": tuo}
                           for f, (fan, tuo) in wait_scores(counts, banker=banker).items()}
        c = counting_summary(counts, banker=banker)
        report.update(mao=c.mao, t_max=c.t_max, threshold=c.threshold, qualified=c.qualified)
    else:
        raise HandSizeError(f"{n} cards: the changpai-ydr hand command takes 20 concealed cards (waits) "
                            "or 21 (win check)")
    from .distance import cards_to_win
    report["cards_to_win"] = d = cards_to_win(counts, banker=banker)   # no declared group: always reachable
    report["shanten"] = None if d is None else d - 1
    return report


def cmd_hand(tiles: str, banker: bool, as_json: bool) -> int:
    report = hand_report(tiles, banker)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"hand     {report['hand']}  ({report['cards']} cards, ruleset {RULESET}"
          f"{', banker' if banker else ''})")
    print(f"shanten  {report['shanten']}  ({report['cards_to_win']} cards to a win)")
    if "complete" in report:
        extra = f"  ({report['fan']} fan, {report['tuo']} 陀)" if report["complete"] else ""
        print(f"complete {'yes' if report['complete'] else 'no'}{extra}")
    else:
        print(f"卯 {report['mao']}, T_max {report['t_max']} / {report['threshold']}: "
              f"{'qualified' if report['qualified'] else 'not qualified'}")
        if report["waits"]:
            print("waits    " + ", ".join(f"{k} ({v['fan']} fan, {v['tuo']} 陀)" for k, v in report["waits"].items()))
        else:
            print("waits    none")
    return 0


def cmd_score(tiles: str, win: str | None, declared: Any, banker: bool, jiang: str | None, caishen: int,
              as_json: bool) -> int:
    from . import score

    s = score(tiles, win, declared=declared or (), banker=banker, jiang=jiang, caishen=caishen)
    if as_json:
        print(json.dumps(s.to_dict(), ensure_ascii=False))
        return 0
    print(f"ruleset {RULESET}, {s.tuo} 陀 (threshold {s.threshold})")
    print("groups  " + "  ".join(f"{'(' if i < len(s.declared) else '['}{format_cards(g.cards)}"
                                 f"{')' if i < len(s.declared) else ']'}" for i, g in enumerate(s.groups)))
    print(f"{'fan':>6}  {'×':>2}  source")
    for f in s.fans:
        print(f"{f.total:>6}  {f.count:>2}  {f.name}  {f.name_en}")
    capped = f" (capped from {s.fan})" if s.total != s.fan else ""
    print(f"{s.total:>6}      total{capped}; each other player pays {s.points()} (梯坎番) / "
          f"{s.points('fan_cheng_fan')} (番乘番)")
    return 0



# ------------------------------------------------------------------ match
_END_WORDS: dict[tuple[str, str | None], str] = {
    # (end, why) of a hand that ended without a winner or offender (spec 3.14): say how it ended
    ("huangzhuang", "stock_empty"): "黄庄: the stock ran out with no winner",
    ("huangzhuang", "all_folded"): "黄庄: every seat folded (扣牌)",
    ("void", "no_qi"): "void hand: nobody 起 (the cards are redealt)",
}


def display_name(face: int, names: Sequence[str] | None = None) -> str:
    """The display name of ``face``: ``names[face]`` (the ``face_names`` option, CP-50) or the name
    of spec 1.1."""
    return names[face] if names else face_name(face)


def describe_result(res: dict[str, Any], you: int | None = None, names: Sequence[str] | None = None) -> str:
    """One line for a finished hand's result (its ``end`` and how, winner or offender, fan); ``you``
    names that seat "you"; ``names``: the display names of the faces (the ``face_names`` option)."""
    def who(seat: int) -> str:
        return "you" if seat == you else f"seat {seat}"

    end = res["end"]
    if end == "win":
        card = res.get("card")
        how = ("with own cards (自摸 on a replacement draw, or 天胡)" if card is None
               else f"on {face_name(card, 'pips')} {display_name(card, names)}")
        fans = ", ".join(f"{f['name']}{'×' + str(f['count']) if f['count'] > 1 else ''} {f['points'] * f['count']}"
                         for f in res["score"]["fans"]) or "平胡 0"
        return f"{who(res['winner'])} won (胡) {how}, {res['fan']} fan, {res['score']['tuo']} 陀: {fans}"
    if end == "baozi":
        from ._ref.round import BAOZI_CAUSES

        return (f"包子 by {who(res['offender'])}: {res['cause']} {BAOZI_CAUSES[res['cause']]}, "
                f"{res['fan']} fan paid to each other seat")
    return _END_WORDS.get((end, res.get("why")), "黄庄: no winner" if end == "huangzhuang" else f"{end} hand")


def match_report(seed: int, rounds: int, bots: Sequence[str], balance: int, options: dict[str, Any] | None = None,
                 room: "str | Room | None" = None) -> dict[str, Any]:
    """Play ``rounds`` hands between ``bots`` (names per seat: greedy, random) from ``seed`` in
    ``room`` (a long-card room; default the ruleset's ``default_room``) and settle every hand
    through the shared settlement layer (:func:`~mahjong_core.settlement.settle_hand`, the room's
    profile: spec 5) on a :class:`~mahjong_core.settlement.Ledger` opened with ``balance`` per
    player.  The hands are played under the room's settlement mode and base, so each hand's own
    ``deltas`` are what the ledger moves.  The record ``mahjong-core match --ruleset changpai-ydr
    --json`` prints."""
    from ...game.bots import play_steps
    from ...settlement import HandOutcome, Ledger, get_room, settle_hand
    from .family import FAMILY, new_match

    rs = registry.get_ruleset(RULESET)
    room = get_room(room if room is not None else (rs.default_room or ""))
    if room.ruleset != RULESET:
        raise shared.UsageError(f"--room: room {room.name!r} is a {room.ruleset} room, not {RULESET}")
    room.check_entry(balance)
    names = [f"seat{i}-{b}" for i, b in enumerate(bots)]
    players = [FAMILY.bots[b](seed + i) for i, b in enumerate(bots)]
    # the room decides how a hand is paid (its profile is a settlement mode, its unit the base)
    options = dict(options or {}, settlement_mode=room.profile, base=room.value_per_fan)
    match = new_match(ruleset=RULESET, seed=seed, rounds=rounds, options=options)
    settings = match.round.settings.hand
    ledger = Ledger(dict.fromkeys(names, balance))
    records = []
    k = 0
    while not match.is_over:
        k += 1
        play_steps(match.round, players)
        result = match.round.result
        res = result.to_dict()
        transfers = settle_hand(ledger, room, HandOutcome.from_result(result, names, round=k))
        rec: dict[str, Any] = {"round": k, "dealer": res["dealer"], "end": res["end"]}
        for key in ("winner", "card", "offender", "cause", "fan"):
            if key in res:
                rec[key] = res[key]
        if "score" in res:
            rec.update(tuo=res["score"]["tuo"], fans=res["score"]["fans"])
        rec.update(deltas=res["deltas"], next_dealer=result.next_dealer,
                   text=describe_result(res, names=settings.face_names),
                   transfers=[t.to_dict() for t in transfers])
        records.append(rec)
        match.next_round()
    return {"ruleset": RULESET, "room": room.name, "seed": seed, "settlement_mode": settings.settlement_mode,
            "base": settings.base, "players": names, "opening_balance": balance, "rounds": records,
            "balances": dict(ledger.balances), "total": ledger.total}


def cmd_match(seed: int, rounds: int, bots: Sequence[str], balance: int, as_json: bool,
              write_out: Any, quiet: bool, room: "str | Room | None" = None) -> int:
    """``mahjong-core match --ruleset changpai-ydr``: each hand's end and payments, then the ledger;
    ``write_out(text)`` writes the JSON record where ``--out`` asks (returns the path or None)."""
    record = match_report(seed, rounds, bots, balance, room=room)
    text = json.dumps(record, ensure_ascii=False)
    written = write_out(text + "\n")
    if as_json:
        print(text)
        return 0
    mode = {"tikan": "梯坎番 N+1", "fan_cheng_fan": "番乘番 2^N"}[record["settlement_mode"]]
    print(f"{RULESET} match in room {record['room']!r}, {counted(rounds, 'hand')}, settlement {mode} x {record['base']}, "
          f"opening balance {balance:,} each")
    for rec in record["rounds"]:
        print(f"hand {rec['round']} (banker seat {rec['dealer']}): {rec['text']}")
        moved = "; ".join(f"{t['payer']} -> {t['payee']} {t['amount']:,} ({t['reason']})" for t in rec["transfers"])
        print(f"    {moved or 'no payment'}")
    print("ledger:")
    for name, value in record["balances"].items():
        print(f"  {name:<16} {value:>10,}")
    print(f"  {'total':<16} {record['total']:>10,}")
    if written and not quiet:
        print(f"wrote {written}")
    return 0


# ------------------------------------------------------------------ the command line's hooks
# (Family.cli: mahjong_core.cli runs these for --ruleset changpai-ydr; the options, help and
# examples are data in .family)
def _refuse(foreign: Sequence[Any]) -> None:
    """An option of another family: the first one given is not an option of this ruleset."""
    if foreign:
        raise shared.UsageError(f"{foreign[0].option}: not an option of --ruleset {RULESET}")


def run_hand(args: Any, foreign: Sequence[Any]) -> int:
    _refuse(foreign)
    return cmd_hand(args.tiles, args.banker, args.json)


def run_score(args: Any, foreign: Sequence[Any]) -> int:
    _refuse(foreign)
    return cmd_score(args.tiles, args.win, args.melds, args.banker, args.jiang, args.caishen, args.json)


def run_match(args: Any, foreign: Sequence[Any]) -> int:
    _refuse(foreign)
    bots = shared._seat_bots(args.bots or "greedy,random,random", registry.get_ruleset(args.ruleset))
    outputs = shared._Outputs([("--out", args.out)])

    def write_out(text: str) -> str | None:
        path = outputs.write("--out", shared._write_text(text))
        return shared._shown(path) if path else None

    return cmd_match(args.seed, args.rounds, bots, 10_000 if args.balance is None else args.balance,
                     args.json or outputs.stdout == "--out", write_out, args.quiet, room=args.room)


def run_advise(args: Any, foreign: Sequence[Any]) -> int:
    """``mahjong-core advise --ruleset changpai-ydr`` (:mod:`.advise_cli`)."""
    _refuse(foreign)
    from .advise_cli import run
    return run(args)


def run_play(args: Any, foreign: Sequence[Any]) -> int:
    from .play import play_terminal

    _refuse(foreign)
    return play_terminal(args.seed, you=args.seat, glyphs=args.glyphs)
