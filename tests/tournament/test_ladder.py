"""tools/ladder.py (issue 30 item 3): every pair of bots in every ruleset, from duplicate-deal
tournaments, as a Markdown table; smoke-run here with tiny deals (the real run is documented in
docs/guide/tournaments.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("_ladder_tool", ROOT / "tools" / "ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_the_tables_give_every_pair(ladder):
    assert ladder.tables(2, ["random", "greedy", "advisor"]) == [
        ("random", "greedy"), ("random", "advisor"), ("greedy", "advisor")]
    assert ladder.tables(4, ["random", "greedy", "advisor", "search"]) == [("random", "greedy", "advisor", "search")]
    three = ladder.tables(3, ["random", "greedy", "advisor", "search"])
    assert len(three) == 4 and all(len(t) == 3 for t in three)
    pairs = {frozenset(p) for t in three for p in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2]))}
    assert len(pairs) == 6


def test_a_tiny_ladder_prints_every_pair_with_intervals_and_cpu(ladder):
    lines: list[str] = []
    bots = ["random", "greedy", "advisor", "search"]
    rows = ladder.run(["two-player", "public"], bots, {"two-player": 2, "public": 1}, seed=3, out=lines.append)
    assert lines[0].startswith("| ruleset | table | a vs b |") and lines[1].startswith("| --- |")
    assert len(rows) == len(lines) - 2 == 6 + 6      # six pairs in two-player, six at the public table
    pairs = {(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]}
    assert {(r["a"], r["b"]) for r in rows if r["ruleset"] == "public"} == pairs
    assert {(r["a"], r["b"]) for r in rows if r["ruleset"] == "two-player"} == pairs
    for r in rows:
        assert r["cpu_a"] and r["cpu_b"]               # every bot decided and was timed
    two = [line for line in lines if line.startswith("| `two-player` |")]
    assert len(two) == 6 and all(" [" in line for line in two)    # two deals: an interval


def test_the_command_line_refuses_a_bot_the_family_lacks(ladder, capsys):
    with pytest.raises(SystemExit) as info:
        ladder.main(["--rulesets", "two-player", "--bots", "greedy,oracle", "--deals", "1"])
    assert info.value.code == 2 and "oracle" in capsys.readouterr().err


@pytest.mark.parametrize("argv, word", [
    (["--rulesets", "nosuch", "--deals", "1"], "unknown ruleset 'nosuch'"),
    (["--rulesets", "two-player", "--deals", "0"], "--deals 0"),
    (["--rulesets", "two-player", "--deals", "-3"], "--deals -3"),
    (["--rulesets", "two-player", "--deals-for", "two-player=x"], "--deals-for"),
])
def test_the_command_line_refuses_bad_rulesets_and_deals_as_usage_errors(ladder, capsys, argv, word):
    with pytest.raises(SystemExit) as info:
        ladder.main(argv)
    assert info.value.code == 2 and word in capsys.readouterr().err
