"""The validated state boundary of the round engine (issue 10, items 1, 2 and the state parts of 3).

Each damaged or forged state the issue lists is a test: it must be refused with a
:class:`StateError` naming the field, by the first line of defence (``from_dict`` / ``from_json`` /
``pickle.loads`` rebuild the round from its log and compare) and by the second (the invariant
checker run on the forged state itself).  The ones that crashed the process or could reach the
compiled core run in a child interpreter (``conftest.run_cases``), so a crash fails the test.
"""

from __future__ import annotations

import copy
import json
import pickle
import re

import numpy as np
import pytest

from tests.support.isolation import run_cases
from mahjong_core.errors import IllegalActionError, MahjongError, SeatError, StateError
from mahjong_core.game import play_round
from mahjong_core.families.mahjong.api import (
    GreedyBot,
    Match,
    RandomBot,
    Round,
    flow_settings,
    redact_event,
    redact_events,
)
from mahjong_core.families.mahjong.round_invariants import check_invariants
from mahjong_core.families.mahjong.settings import max_reserved_tail_tiles
from mahjong_core.families.mahjong._ref import round as RR
from mahjong_core.families.mahjong.rulesets import MAX_MIN_FAN

RULESETS = ("two-player", "two-player-bamboo", "public")
LOADS = ("dict", "json", "pickle")


def _refusals(cases: list[dict], target: str = "hostile_ops_state:regression") -> list[dict]:
    out = run_cases(target, cases)
    for case, o in zip(cases, out):
        assert o["outcome"] == "refused", (case, o)
    return out


def _check_refused(case: dict, first: str, second: str) -> None:
    """The forged state of ``case`` is refused by every load (message matching ``first``) and by
    the invariant checker on its own (message matching ``second``), in a child interpreter."""
    cases = [dict(case, how=how) for how in LOADS + ("check",)]
    out = _refusals(cases)
    for c, o in zip(cases, out):
        assert o["error"] == "StateError", (c, o)
        pattern = second if c["how"] == "check" else first
        assert re.search(pattern, o["message"]), (c, o["message"], pattern)


# ============================================================================ item 1: memory safety
@pytest.mark.hostile
def test_deal_event_of_thousands_of_tiles_is_refused():
    """Used to overwrite memory (the deal was copied into a 16-tile array) and crash."""
    _check_refused({"name": "huge deal"}, r"^log\[2\]\.tiles: a list of 4000 entries",
                   r"^log\[2\]\.tiles: expected a list of 13-14 entries, got 4000")


@pytest.mark.hostile
def test_36_concealed_tiles_taken_from_the_wall_are_refused():
    """Kept the tile set, loaded, and the greedy bot crashed on it."""
    _check_refused({"name": "36 concealed"}, r"^(wall\.taken|hands\[0\])",
                   r"^hands\[0\]: 36 concealed tiles and 0 melds make 36; .* must hold 1[34]")


@pytest.mark.hostile
def test_core_has_no_state_loader_and_checks_its_construction():
    """State enters the compiled core only through RoundCore(...), which checks everything that
    sizes a C array; the old set_state (which trusted its caller) is gone."""
    from mahjong_core._round import RoundCore

    assert not hasattr(RoundCore, "set_state")
    cases = [
        {"key": "tiles", "value": [5] * 5000}, {"key": "tiles", "value": [0] * 72},
        {"key": "tiles+", "value": [34]}, {"key": "tiles", "value": list(range(42)) * 2},
        {"key": "tiles", "value": [-1] + [0] * 71}, {"key": "tiles", "value": [2 ** 70] * 72},
        {"key": "dice", "value": [1] * 3000}, {"key": "dice", "value": [0, 7]},
        {"key": "kong_dice", "value": [1] * 3000}, {"key": "kong_dice", "value": [9] * 34},
        {"key": "dealer", "value": 7}, {"key": "dealer", "value": -1}, {"key": "wind", "value": 99},
        {"key": "rs", "value": 7}, {"key": "rs", "value": 2}, {"key": "mask", "value": 1},
        {"key": "special", "value": 1}, {"key": "settings.players", "value": 9},
        {"key": "settings.stacks", "value": 5000}, {"key": "settings.min_fan", "value": 2 ** 31},
        {"key": "settings.min_fan", "value": -5}, {"key": "settings.reserved_tail_tiles", "value": 70},
        {"key": "settings.reserved_tail_tiles", "value": 38}, {"key": "settings.ready_mode", "value": "x"},
        {"key": "settings.rob_kong", "value": "yes"}, {"key": "settings.replacement_bloom", "value": None},
        {"key": "settings.kong_replacement", "value": 1}, {"key": "dealer", "value": 2 ** 40},
    ]
    out = run_cases("hostile_ops_state:core_direct", [dict(c, ruleset="two-player") for c in cases])
    for case, o in zip(cases, out):
        assert o["outcome"] == "ok" and o["detail"] in ("ValueError", "OverflowError", "TypeError"), (case, o)
    good = run_cases("hostile_ops_state:core_direct", [{"ruleset": r, "key": "dealer", "value": 1} for r in RULESETS])
    assert [o["detail"] for o in good] == ["accepted"] * 3


# ============================================================================ item 2: impossible states
@pytest.mark.hostile
def test_both_hands_empty_is_refused():
    _check_refused({"name": "empty hands"}, r"^(wall\.taken|hands\[0\])",
                   r"^hands\[0\]: 0 concealed tiles and 0 melds make 0")


@pytest.mark.hostile
@pytest.mark.parametrize("name,second", [
    ("chi of honours", r"^melds\[\d\]\[0\]: a chow starting at E is not three consecutive tiles of one suit"),
    ("chi across suits", r"^melds\[\d\]\[0\]: a chow starting at 8m is not three consecutive tiles"),
    ("meld seat 99", r"^melds\[\d\]\[0\]\[2\]: expected an integer -1-33, got 99"),
])
def test_impossible_melds_are_refused(name, second):
    _check_refused({"name": name}, r"^(wall\.taken|melds\[\d\]|hands\[\d\])", second)


@pytest.mark.hostile
def test_drawn_tile_not_in_hand_is_refused():
    _check_refused({"name": "drawn not in hand"}, r"^drawn: \d+ differs from the round rebuilt",
                   r"^drawn: the drawn tile \w+ is not in the hand of seat \d")


@pytest.mark.hostile
def test_claim_tile_that_is_not_the_last_discard_is_refused():
    _check_refused({"name": "claim tile"}, r"^claim\.tile: \d+ differs from the round rebuilt",
                   r"^claim\.tile: \w+ is not the last discard of seat \d")


@pytest.mark.hostile
@pytest.mark.parametrize("field,value,second", [
    ("earthly_seat", 99, r"^earthly_seat: expected an integer -1-1, got 99"),
    ("must_discard", 7, r"^must_discard: expected an integer 0-1, got 7"),
    ("kong_dice_used", 34, r"^kong_dice_used: 34, but 0 kong dice were thrown"),
])
def test_impossible_phase_fields_are_refused(field, value, second):
    _check_refused({"name": "field", "field": field, "value": value},
                   rf"^{field}: {value} differs from the round rebuilt from its log", second)


@pytest.mark.hostile
def test_deal_seat_minus_one_is_refused():
    _check_refused({"name": "deal seat"}, r"^log\[2\]\.seat: -1 differs from the event its actions produce",
                   r"^log\[2\]\.seat: expected an integer 0-1, got -1")


@pytest.mark.hostile
def test_log_header_of_another_ruleset_is_refused():
    _check_refused({"name": "log header ruleset"},
                   r"^header\.ruleset: 'two-player' differs from the log's header, log\[0\]",
                   r"^log\[0\]\.ruleset: 'two-player-bamboo' differs from the state's header")


@pytest.mark.hostile
def test_finished_round_with_forged_result_is_refused():
    """Winner changed and a total of 10**9: was taken verbatim into r.result and view()."""
    _check_refused({"name": "forged result"}, r"^result\.winners\[0\]\.seat: \d differs from the round rebuilt",
                   r"^result\.winners\[0\]\.total: expected an integer 0-100000, got 1000000000")


def test_result_is_recomputed_not_read():
    """The result of a loaded finished round is the engine's; a subtly forged score (the fans
    raised with the total) is refused by both lines."""
    r = Round("public", 5)
    play_round(r, [GreedyBot()] * 4)
    assert r.result is not None and not r.result.draw
    d = json.loads(r.to_json())
    w = d["result"]["winners"][0]
    w["total"] += 8
    w["score"]["total"] += 8
    w["score"]["fans"][0]["points"] += 8
    with pytest.raises(StateError, match=r"^result\.winners\[0\]\.total: \d+ differs from the round rebuilt"):
        Round.from_dict(d)
    with pytest.raises(StateError, match=r"^result\.winners\[0\]\.score\.total: \d+ differs from the score of its"):
        check_invariants(d)
    loaded = Round.from_json(r.to_json())
    assert loaded.result.to_dict() == r.result.to_dict() and loaded.view(0)["result"] == r.view(0)["result"]


# ============================================================================ item 3: error types
@pytest.mark.hostile
def test_state_parts_of_item_3_are_state_errors():
    cases = [
        {"name": "missing result", "how": "dict"},
        {"name": "huge int", "field": "turn", "value": 2 ** 70, "how": "json"},
        {"name": "huge int", "field": "n_steps", "value": -(2 ** 80), "how": "pickle"},
        {"name": "non-dict log entry", "value": 5, "how": "dict"},
        {"name": "non-dict log entry", "value": [1, 2], "how": "json"},
        {"name": "non-dict log entry", "value": "{\"type\": \"draw\"}", "how": "dict"},
        {"name": "text", "text": "{not json"},
        {"name": "text", "text": "", "deep": 100_000},
        {"name": "text", "text": "{\"schema_version\": 1, \"log\": [" + "9" * 5000 + "]}"},
        {"name": "text", "text": "\xff\xfe", "bytes": True},
        {"name": "text", "text": "[1, 2, 3]"},
        {"name": "text", "text": "null"},
        {"name": "replay", "damage": "non-dict event", "value": 5},
        {"name": "replay", "damage": "non-dict event", "value": None, "verify": False},
        {"name": "replay", "damage": "missing action"},
        {"name": "replay", "damage": "missing action", "verify": False},
    ]
    out = _refusals(cases)
    want = [r"^result: missing", r"^turn: an integer of 71 bits differs", r"^n_steps: an integer of 81 bits",
            r"^log\[3\]: an event must be an object, got 5", r"^log\[3\]: an event must be an object, got a list",
            r"^log\[3\]: an event must be an object, got '\{", r"^the round state: not valid JSON",
            r"^the round state: JSON nested too deeply", r"^the round state: not valid JSON \(Exceeds the limit",
            r"^the round state: not UTF-8 text", r"^a round state must be an object, got a list of 3",
            r"^a round state must be an object, got null", r"^log\[\d+\]: an event must be an object, got 5",
            r"^log\[\d+\]: an event must be an object, got null", r"^log\[\d+\]\.action: missing",
            r"^log\[\d+\]\.action: missing"]
    for case, o, pattern in zip(cases, out, want):
        assert o["error"] == "StateError" and re.search(pattern, o["message"]), (case, o["message"], pattern)


def test_pickle_and_deepcopy_of_a_forged_state_are_refused():
    import copy as copy_module

    from tests.support.hostile_ops_state import forged_pickle

    r = Round("two-player", 3)
    play_round(r, [RandomBot(1), RandomBot(2)])
    d = json.loads(r.to_json())
    d["result"]["next_dealer"] = 1 - d["result"]["next_dealer"]
    d["result"]["dealer_continues"] = not d["result"]["dealer_continues"]
    with pytest.raises(StateError, match=r"^result\.next_dealer"):
        pickle.loads(forged_pickle(Round, d))
    twin = copy_module.deepcopy(r)
    assert twin.to_json() == r.to_json()


def test_min_fan_and_options_are_checked():
    for bad in (2 ** 31, MAX_MIN_FAN + 1, -1, True, 2.0, "8", [8]):
        with pytest.raises(MahjongError, match="min_fan must be an integer from 0 to 1,000"):
            Round("two-player", 1, min_fan=bad)
        with pytest.raises(MahjongError, match="min_fan must be an integer from 0 to 1,000"):
            Match("public", 1, min_fan=bad)
    assert Round("two-player", 1, min_fan=1).settings.min_fan == 1
    with pytest.raises(MahjongError, match="min_fan"):  # a cached 1 does not let True through
        Round("two-player", 1, min_fan=True)
    bad_options = [
        ({"rob_kong": "yes"}, "rob_kong must be True or False"),
        ({"multiple_winners": 2}, "multiple_winners must be True or False"),
        ({"reserved_tail_tiles": 38}, "reserved_tail_tiles must be an integer 0-37"),
        ({"reserved_tail_tiles": 2.5}, "reserved_tail_tiles must be an integer"),
        ({"replacement_bloom": "x"}, "replacement_bloom must be one of"),
        ({"kong_replacement": ["die"]}, "kong_replacement must be one of"),
        ({1: True}, "unknown game option"),
        ({"min_fan": [8]}, "min_fan must be an integer"),
    ]
    for opts, msg in bad_options:
        with pytest.raises(MahjongError, match=msg):
            Round("two-player", 1, options=opts)
    with pytest.raises(MahjongError, match="game options must be a dict"):
        Round("two-player", 1, options=[("min_fan", 1)])
    assert max_reserved_tail_tiles(2, 72) == 37 and max_reserved_tail_tiles(4, 144) == 40
    # the header records the checked options as plain JSON (a NumPy min_fan used to break to_json)
    r = Round("public", 2, min_fan=np.int64(3), options={"rob_kong": 0})
    assert r.header["options"] == {"rob_kong": False, "min_fan": 3}
    assert Round.from_json(r.to_json()).to_json() == r.to_json()


def test_a_dead_wall_too_large_for_the_deal_is_refused():
    """reserved_tail_tiles 38-40 with a two-player wall left a negative live wall after the deal,
    and the round drew past the reserve (towards the end of the wall array)."""
    with pytest.raises(MahjongError, match="reserved_tail_tiles must be an integer 0-37, got 40"):
        Round("two-player", 29, options={"reserved_tail_tiles": 40})
    r = Round("two-player", 29, options={"reserved_tail_tiles": 37})
    play_round(r, [RandomBot(29), RandomBot(30)])
    assert r.live_remaining >= 0 and r.wall_remaining >= 37
    check_invariants(r)


# ============================================================================ load = replay + compare
def test_load_rebuilds_every_phase_and_both_engines_load_alike():
    for ruleset in RULESETS:
        r = Round(ruleset, 17)
        bots = [RandomBot(k) for k in range(r.players)]
        phases = set()
        while True:
            j = r.to_json()
            a, b = Round.from_json(j), RR.Round.from_json(j)
            assert a.to_json() == j == b.to_json()
            phases.add(r.phase_name)
            if r.is_over:
                break
            s = r.seats_to_act()[0]
            r.step(s, bots[s].act_index(r, s))
        assert {"turn", "claim", "over"} <= phases


def test_key_order_does_not_matter_but_types_do():
    r = Round("two-player", 4)
    play_round(r, [GreedyBot(), GreedyBot()])
    d = json.loads(r.to_json())
    reordered = json.loads(json.dumps(d, sort_keys=True))
    assert Round.from_dict(reordered).to_json() == r.to_json()
    for path, value in ((("turn",), bool(d["turn"]) if d["turn"] in (0, 1) else d["turn"]),
                        (("hands", 0, 0), float(d["hands"][0][0])), (("ready", 0), bool(d["ready"][0])),
                        (("claim", "last"), bool(d["claim"]["last"]))):
        bad = copy.deepcopy(d)
        target = bad
        for p in path[:-1]:
            target = target[p]
        target[path[-1]] = value
        with pytest.raises(StateError, match=r"expected an integer, got"):
            Round.from_dict(bad)
    extra = dict(copy.deepcopy(d), note="junk")
    with pytest.raises(StateError, match=r"^note: unknown key"):
        Round.from_dict(extra)


def test_replay_checks_every_event_and_names_it():
    r = Round("public", 8)
    play_round(r, [GreedyBot()] * 4)
    log = json.loads(json.dumps(r.log))
    assert Round.replay(log).to_json() == r.to_json()
    k = next(i for i, e in enumerate(log) if e["type"] == "action" and i > 20)
    illegal = copy.deepcopy(log)
    illegal[k]["action"] = {"type": "declare_ready"}
    with pytest.raises(StateError, match=rf"^log\[{k}\]: "):
        Round.replay(illegal)
    with pytest.raises(StateError, match=rf"^log\[{k}\]: "):
        Round.replay(illegal, verify=False)
    short = log[:k + 1]
    with pytest.raises(StateError, match=r"^log: ends after \d+ events, before all the events of the action"):
        Round.replay(short)
    extra = log + [copy.deepcopy(log[k])]
    with pytest.raises(StateError, match=rf"^log\[{len(log)}\]: the round is over|^log\[{len(log)}\]: "):
        Round.replay(extra)
    for bad in (None, 5, "abc", {"type": "header"}, []):
        with pytest.raises(StateError):
            Round.replay(bad)
    header = dict(log[0], seed=-1)
    with pytest.raises(StateError, match=r"^log\[0\]\.seed: expected an integer"):
        Round.replay([header] + log[1:])
    with pytest.raises(StateError, match=r"^header\.dealer: expected an integer"):
        Round.from_header(dict(log[0], dealer="0"))
    with pytest.raises(StateError, match=r"^header: dealer"):
        Round.from_header(dict(log[0], ruleset="two-player", dealer=3))
    with pytest.raises(StateError, match=r"^header\.type: the first event of a log must be its header"):
        Round.from_header(log[1])


# ============================================================================ match states
def test_match_state_replays_every_round_and_refuses_forged_results():
    m = Match("two-player", 5, rounds=3)
    bots = [GreedyBot(), GreedyBot()]
    play_round(m.round, bots)
    m.next_round()
    play_round(m.round, bots)
    m.next_round()
    d = json.loads(m.to_json())
    assert len(d["actions"]) == 2 and all(len(a) == 2 for a in d["actions"][0])
    assert Match.from_dict(d).to_json() == m.to_json()
    forged = copy.deepcopy(d)
    w = next((res for res in forged["results"] if res["winners"]), None)
    if w is not None:
        w["winners"][0]["total"] = 10 ** 9
        with pytest.raises(StateError, match=r"^results\[\d\]\.winners\[0\]\.total"):
            Match.from_dict(forged)
    forged = copy.deepcopy(d)
    forged["actions"][0][3][1] = (forged["actions"][0][3][1] + 1) % 110
    with pytest.raises(StateError, match=r"^actions\[0\]\[3\]: "):
        Match.from_dict(forged)
    old = {k: v for k, v in d.items() if k != "actions"}
    with pytest.raises(StateError, match=r"^actions: missing"):
        Match.from_dict(old)
    forged = copy.deepcopy(d)
    forged["round"]["log"][0]["seed"] += 1
    with pytest.raises(StateError, match=r"^round\.log\[0\]\.seed"):
        Match.from_dict(forged)
    for bad in ("{", b"\xff", "[" * 100_000, 5):
        with pytest.raises(StateError):
            Match.from_json(bad)
    with pytest.raises(MahjongError, match="rounds"):
        Match("two-player", 1, rounds=True)
    with pytest.raises(MahjongError, match="first_dealer"):
        Match("two-player", 1, first_dealer=2)


@pytest.mark.hostile
@pytest.mark.parametrize("ruleset", RULESETS)
def test_mutated_match_states(ruleset):
    out = run_cases("hostile_ops_state:mutate_matches", [{"ruleset": ruleset, "seed": s, "n": 40} for s in range(3)])
    refused = sum(o["detail"].get("refused", 0) for o in out)
    loaded = sum(o["detail"].get("loaded", 0) for o in out)
    print(f"\nmatch states {ruleset}: {refused + loaded} mutations, {refused} refused, {loaded} loaded")
    assert refused > 0.5 * (refused + loaded)


# ============================================================================ item 7: views and streams
def test_log_for_view_and_redaction_refuse_bad_seats_and_events():
    r = Round("two-player", 3)
    play_round(r, [RandomBot(1), RandomBot(2)])
    for seat in (-1, 2, True, "0", None, 1.0, 2 ** 70, [0]):
        with pytest.raises(MahjongError, match="seat must be 0-1"):
            r.log_for(seat)
        with pytest.raises(MahjongError, match="seat must be 0-1"):
            r.view(seat)
    assert r.log_for(np.int64(1)) == r.log_for(1)
    ev = r.log[2]
    for seat in (-1, 4, "x", True):
        with pytest.raises(MahjongError, match="seat must be an integer 0-3"):
            redact_event(ev, seat)
    bad_events = [
        (None, r"^event: event must be an object"), (5, r"^event: event must be an object"),
        ({"type": "deal", "seat": 0}, r"^event\.tiles: missing"),
        ({"type": "draw", "seat": 0, "tile": 99, "from": "head"}, r"^event\.tile: expected an integer 0-41"),
        ({"type": "teleport", "seat": 0}, r"^event\.type: unknown event type"),
        ({"seat": 1}, r"^event\.type: missing"),
        ({"type": "action", "seat": 1, "action": "pass"}, r"^event\.action: action must be an object"),
        ({"type": "deal", "seat": -1, "tiles": [0] * 13}, r"^event\.seat: expected an integer 0-3"),
    ]
    for bad, msg in bad_events:
        with pytest.raises(StateError, match=msg):
            redact_event(bad, 0)
    with pytest.raises(StateError, match=r"^events: expected a list of events"):
        redact_events("abc", 0)
    with pytest.raises(StateError, match=r"^events\[1\]: event must be an object"):
        redact_events([r.log[0], 7], 0)
    assert redact_events(r.log, 1) == r.log_for(1)


def test_read_only_queries_refuse_non_seats():
    for cls in (Round, RR.Round):
        r = cls("public", 3)
        for bad in ("0", None, 1.5, True, [1]):
            for query in (r.legal_indices, r.legal_actions, r.legal_mask, r.hand, r.hand_counts,
                          r.concealed_size, r.seat_wind):
                with pytest.raises(MahjongError, match="seat must be 0-3"):
                    query(bad)
        for bad in (2 ** 70, -1, 4):        # one rule for a bad seat: out of range too (issue 25)
            for query in (r.legal_indices, r.legal_actions, r.legal_mask):
                with pytest.raises(SeatError, match="seat must be 0-3"):
                    query(bad)
        for query in (r.hand, r.hand_counts, r.concealed_size, r.seat_wind):
            with pytest.raises(MahjongError, match="seat must be 0-3, got -1"):
                query(-1)


# ============================================================================ client actions
def test_action_dicts_are_strict():
    r = Round("public", 8)
    s = r.seats_to_act()[0]
    legal = r.legal_actions(s)[0].to_dict()
    before = r.to_json()
    for bad, msg in (
        (dict(legal, junk=1), "has no key"), ({"type": ["pass"]}, "unknown action type"),
        (dict(legal, ready="yes"), "ready must be True or False"), ({"type": "discard", "tile": 2 ** 70},
                                                                   "tile index 0-33"),
        ({"type": "chi", "tiles": 5}, "chi needs three tiles"), ({"type": "kong", "tile": 3, "kind": [1]},
                                                                 "kong kind"),
    ):
        with pytest.raises(IllegalActionError, match=msg):
            r.step(s, bad)
        assert r.to_json() == before
    from mahjong_core.families.mahjong.api import Chi, Discard, Kong

    for obj, msg in ((Discard(legal["tile"], "yes"), "ready must be True or False"), (Chi(5), "chi needs three"),
                     (Kong(3, ["added"]), "unknown kong kind")):
        with pytest.raises(IllegalActionError, match=msg):
            r.step(s, obj)
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(IllegalActionError, match="not an action"):
        r.step(s, deep)
    with pytest.raises(IllegalActionError, match="seat must be 0-3"):
        r.step(deep, 0)
    assert r.to_json() == before
    assert r.step(s, dict(legal, ready=0))[0]["action"] == legal  # a flag may be 0 / 1


# ============================================================================ the invariant checker
def test_invariant_checker_takes_rounds_and_states():
    for ruleset in RULESETS:
        r = Round(ruleset, 12)
        play_round(r, [GreedyBot()] * r.players)
        check_invariants(r)
        check_invariants(r.to_dict())
        check_invariants(RR.Round.from_json(r.to_json()))
    for bad, msg in ((5, "needs a round or a state dict"), ({}, r"^header: missing"),
                     ({"header": 3}, r"^header: expected an object"), ([], "needs a round or a state dict")):
        with pytest.raises(StateError, match=msg):
            check_invariants(bad)


def test_flow_settings_reserved_bound_matches_the_core():
    s = flow_settings("two-player", {"reserved_tail_tiles": 37})
    r = Round("two-player", 3, options={"reserved_tail_tiles": 37})
    assert r.settings == s and r._core.reserved == 37


def _turn_state(ruleset: str = "two-player", seed: int = 4, min_steps: int = 6) -> dict:
    """A mid-round state in the turn phase, as plain data."""
    r = Round(ruleset, seed)
    bots = [GreedyBot() for _ in range(r.players)]
    k = 0
    while k < min_steps or r.phase_name != "turn" or r.drawn < 0:
        s = r.seats_to_act()[0]
        r.step(s, bots[s].act_index(r, s))
        k += 1
    assert not r.is_over and r.drawn >= 0
    return json.loads(r.to_json())


@pytest.mark.parametrize("edit,path", [
    (lambda d: d.__setitem__("calls_made", 1 - d["calls_made"]), r"^calls_made: "),
    (lambda d: d.__setitem__("dealer_first", 1 - d["dealer_first"]), r"^dealer_first: "),
    (lambda d: d.__setitem__("n_steps", d["n_steps"] + 1), r"^n_steps: \d+, but the log holds \d+ actions"),
    (lambda d: d["ready_concealed"].__setitem__(0, 1) if not d["ready"][0] else d["ready"].__setitem__(0, 0),
     r"^ready\[0\]: ready_concealed / heavenly_ready without 报听"),
    (lambda d: d.__setitem__("drawn_src", "none"), r"^drawn_src: 'none' with drawn tile"),
    (lambda d: d["claim"].__setitem__("pending", [0]), r"^claim\.pending: nobody answers a claim in phase turn"),
    (lambda d: d["claim"].__setitem__("responses", [105, -1]), r"^claim\.responses: no claim answers in phase turn"),
    (lambda d: d.__setitem__("result", {"draw": True, "winners": [], "dealer": 0, "next_dealer": 0,
                                        "dealer_continues": True, "wall_remaining": 0}),
     r"^result: present exactly when the round is over"),
    (lambda d: d.__setitem__("phase", "over"), r"^result: present exactly when the round is over"),
    (lambda d: d.__setitem__("kong_dice_used", 1), r"^kong_dice_used: 1, but 0 kong dice were thrown"),
    (lambda d: d["discards"][0].append(d["discards"][0][0]), r"^tiles: \w+ is in 5 places"),
    (lambda d: d["wall"]["tiles"].__setitem__(0, 33), r"^wall\.tiles: must hold exactly the 72 tiles"),
    (lambda d: d.__setitem__("turn", 1 - d["turn"]), r"^(hands\[\d\]|drawn)"),
    (lambda d: d.__setitem__("earthly_seat", d["header"]["dealer"]), r"^earthly_seat: seat \d: only a non-dealer"),
    (lambda d: d.__setitem__("must_discard", 1), r"^must_discard: set only on the turn right after claiming"),
    (lambda d: d["log"].append({"type": "round_end", "draw": True, "winners": [], "next_dealer": 0}),
     r"^log\[\d+\]: the log ends with round_end exactly when the round is over"),
    (lambda d: d["log"][1].__setitem__("dice", [d["log"][1]["dice"][1] % 6 + 1, d["log"][1]["dice"][0]]),
     r"^log\[1\]\.dice: are not the round's dice"),
    (lambda d: d["wall"].__setitem__("taken", d["wall"]["taken"][:-1] + "2"), r"^wall\.taken: must be a string"),
])
def test_invariant_checker_names_each_broken_invariant(edit, path):
    """The second line on its own: each invariant of the checker fires, naming its field."""
    d = _turn_state()
    check_invariants(d)
    edit(d)
    with pytest.raises(StateError, match=path):
        check_invariants(d)
    with pytest.raises(StateError):
        Round.from_dict(d)  # and the first line refuses it too


@pytest.mark.parametrize("doc", ["[1,2,3]", "null", "3", '"x"', "true", "1.5", b"[1]"])
def test_load_state_of_a_document_that_is_not_an_object(doc):
    """Issue 25, item 8: load_state of valid JSON whose top level is not an object raised
    AttributeError ('list' object has no attribute 'get'), for every family."""
    from mahjong_core.game import load_state

    with pytest.raises(StateError, match=r"^the state: expected a JSON object \(a saved round or match\), got "):
        load_state(doc)
    value = json.loads(doc)
    if not isinstance(value, str):    # a decoded string is JSON text again (and not valid JSON)
        with pytest.raises(StateError, match=r"^the state: expected a JSON object"):
            load_state(value)
