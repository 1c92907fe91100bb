"""``mahjong-core hand`` / ``score`` with ``--ruleset changpai-ydr``."""

from __future__ import annotations

import json

import pytest

from mahjong_core import cli

X1 = ["46 46 13 16 34 25 14 14 55 55 55", "--win", "36", "--melds", "peng 11×3", "sha 44×4", "sha 66×4",
      "--ruleset", "changpai-ydr", "--jiang", "36 25"]


def test_score_x1_json(capsys):
    assert cli.main(["score", *X1, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["ruleset"], out["total"], out["tuo"]) == ("changpai-ydr", 4, 43)
    assert sum(g["declared"] for g in out["groups"]) == 3 and len(out["groups"]) == 7


def test_score_x4_text(capsys):
    assert cli.main(["score", "14 14 14 22 22 22 26 26", "--win", "26", "--melds", "tuhuo_xiang 44×5", "peng 55×3",
                     "sha 33×4", "tuhuo_xiang 56×5", "--ruleset", "changpai-ydr", "--banker", "--jiang", "13 12",
                     "--caishen", "1"]) == 0
    out = capsys.readouterr().out
    assert "50 陀 (threshold 34)" in out and "each other player pays 9 (梯坎番) / 256 (番乘番)" in out


def test_hand_waits_and_counts(capsys):
    hand = "46 46 13 16 34 25 14 14 55 55 55 66 66 66 44 44 44 11 11 11"
    assert cli.main(["hand", hand, "--ruleset", "changpai-ydr", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["waits"] == {"14": {"fan": 3, "tuo": 41}, "36": {"fan": 2, "tuo": 35}, "45": {"fan": 2, "tuo": 36}}
    assert out["qualified"] and out["threshold"] == 33
    assert (out["cards_to_win"], out["shanten"]) == (1, 0)      # ready (issue 28: the distance, shanten = d - 1)
    assert cli.main(["hand", hand + " 36", "--ruleset", "changpai-ydr", "--banker"]) == 0
    text = capsys.readouterr().out
    assert "complete yes  (2 fan, 35 陀)" in text and "shanten  -1  (0 cards to a win)" in text


@pytest.mark.parametrize("argv, fragment", [
    (["hand", "11 66", "--ruleset", "changpai-ydr"], "20 concealed cards"),
    (["hand", "77", "--ruleset", "changpai-ydr"], "cannot read"),
    (["score", "46 46", "--win", "36", "--ruleset", "changpai-ydr"], "needs 20"),
    (["score", *X1, "--self-drawn"], "--self-drawn: not an option"),
    (["score", "123m456m789m11mE", "--win", "E", "--jiang", "11 11"], "only for --ruleset changpai-ydr"),
    (["hand", "1112345678999m", "--banker"], "only for --ruleset changpai-ydr"),
])
def test_errors(argv, fragment, capsys):
    assert cli.main([*argv, "--json"]) != 0
    assert fragment in json.loads(capsys.readouterr().out)["error"]["message"]
