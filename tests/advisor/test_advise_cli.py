"""``mahjong-core advise``: text in English and Chinese, JSON, usage errors."""

from __future__ import annotations

import json

import mahjong_core as mj
from mahjong_core import cli


def test_english_text(capsys):
    assert cli.main(["advise", "55789m678p345sSCC", "--ruleset", "public"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hand 55789m678p345sSCC  (public, minimum 8 fans, 122 tiles unseen)"
    assert out[1].split()[:3] == ["discard", "fan-shanten", "shanten"]
    assert out[2].split() == ["5m", "1", "1", "5", "18", "0.12%", "S×3", "C×2"]
    assert out[3].split()[:3] == ["S", "2", "0"]       # ready, but not with enough fans
    assert any(line.startswith("after discarding 5m") for line in out)


def test_chinese_text(capsys):
    assert cli.main(["advise", "55789m678p345sSCC", "--ruleset", "public", "--lang", "zh", "--top", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("手牌 五万 五万 七万") and "起和 8 番" in out[0] and "未见 122 张" in out[0]
    assert out[1].split()[:3] == ["打出", "番向听", "向听"]
    assert out[2].split() == ["五万", "1", "1", "5", "18", "0.12%", "南×3", "中×2"]
    assert out[3].split()[0] == "南"
    assert out[4].startswith("打出五万后")       # --top 2: two rows only
    assert "清一色" in out[5]


def test_json_matches_the_api(capsys):
    argv = ["advise", "1112345678999m5m", "--visible", "1m9m", "--melds", "--json"]
    assert cli.main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == mj.advise("1112345678999m5m", visible="1m9m").to_json()
    assert data["options"][0]["live_total"] == 20
    assert cli.main(["advise", "1112345678999m5m", "--json", "--top", "1"]) == 0
    assert len(json.loads(capsys.readouterr().out)["options"]) == 1


def test_options_reach_the_advisor(capsys):
    argv = ["advise", "34789sCC", "--ruleset", "public", "--melds", "pon 555m", "chi 234p", "--win", "self_drawn",
            "--seat-wind", "S", "--round-wind", "W", "--min-fan", "8", "--max-draws", "5", "--json"]
    # 11 tiles with two melds is 14 with the 14th tile: add one
    argv[1] = "34789sCCN"
    assert cli.main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    want = mj.advise("34789sCCN", ruleset="public", melds=["pon 555m", "chi 234p"], win="self_drawn",
                     seat_wind="S", round_wind="W", max_draws=5).to_json()
    assert data == want and data["melds"] == ["pon 555m", "chi 234p"]


def test_errors_are_usage_errors(capsys):
    assert cli.main(["advise", "1112345678999m", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["type"] == "HandSizeError" and "must discard" in error["message"]
    assert cli.main(["advise", "1112345678999m5m", "--visible", "5m5m5m"]) == 2
    assert "a tile has only 4" in capsys.readouterr().err
    assert cli.main(["advise", "1112345678999m5m", "--top", "0"]) == 2
    assert cli.main(["advise", "1112345678999m5m", "--lang", "fr"]) == 2
    assert cli.main(["advise", "1112345678999m5m", "--max-draws", "15"]) == 2


# The examples of docs/guide/advisor-and-bots.md (once the README's) run in tests/packaging/test_docs_examples.py,
# with every page's: test_every_pycon_block_runs.
