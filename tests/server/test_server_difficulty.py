"""Issue 30 item 4: the seats a room's tables fill with bots play at the room's difficulty level
(beginner: the random bot, normal: greedy, hard: the advisor, expert: the search bot), a level whose
bot the family lacks falls back to the nearest easier one, and an unknown level or room is refused
when the settings are made (so a server never starts with it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("httpx", reason="the server extra")

from mahjong_core import cli
from mahjong_core.errors import MahjongError
from mahjong_core.families.registry import family_of
from mahjong_core.server import ServerSettings
from mahjong_core.server.difficulty import DIFFICULTIES, DIFFICULTY_BOTS, check_difficulty, difficulty_bot
from mahjong_core.server.games import table_bot
from mahjong_core.server.lobby import Lobby

from .harness import FAST, choose


def _lobby(tmp_path: Path, **kw: Any) -> Lobby:
    return Lobby(ServerSettings(db=str(tmp_path / "d.sqlite3"), init=True, bots=True, rounds=2, seed=5,
                                **{**FAST, **kw}))


def _made_by(ruleset: str, name: str) -> type:
    return type(family_of(ruleset).bots[name](1))


def test_the_levels_and_their_bots():
    assert DIFFICULTIES == ("beginner", "normal", "hard", "expert")
    assert [DIFFICULTY_BOTS[d] for d in DIFFICULTIES] == ["random", "greedy", "advisor", "search"]


@pytest.mark.parametrize("bots, level, name", [
    ({"random": 1, "greedy": 1}, "beginner", "random"),
    ({"random": 1, "greedy": 1}, "normal", "greedy"),
    ({"random": 1, "greedy": 1}, "expert", "greedy"),                       # nearest easier level
    ({"random": 1, "greedy": 1, "search": 1}, "hard", "greedy"),            # never a stronger bot
    ({"random": 1, "greedy": 1, "advisor": 1, "search": 1}, "expert", "search"),
    ({"random": 1, "advisor": 1}, "normal", "random"),
    ({"first": 1, "other": 1}, "hard", "first"),                             # none of the levels' bots
])
def test_a_missing_bot_falls_back_to_the_nearest_easier_level(bots, level, name):
    assert difficulty_bot(bots, level) == name


def test_table_bot_of_a_level_is_the_familys_bot_of_that_name():
    for ruleset in ("two-player", "changpai-ydr"):
        assert type(table_bot(ruleset, difficulty="beginner")) is _made_by(ruleset, "random")
        assert type(table_bot(ruleset, difficulty="normal")) is _made_by(ruleset, "greedy")
        assert type(table_bot(ruleset)) is _made_by(ruleset, "greedy")      # the stand-in, as before


def test_a_room_fills_its_seats_at_its_level_and_the_others_at_the_default(tmp_path):
    lobby = _lobby(tmp_path, difficulty="normal", room_difficulty={"coins": "beginner"})
    try:
        coins = lobby.tables[lobby.join("ann", "coins")["table"]]
        bamboo = lobby.tables[lobby.join("bea", "bamboo")["table"]]
        assert type(coins._bot) is _made_by(coins.room.ruleset, "random")
        assert type(bamboo._bot) is _made_by(bamboo.room.ruleset, "greedy")
        # a seat whose time is up is played by the table's stand-in (托管), whatever the level
        assert type(coins._stand_in) is _made_by(coins.room.ruleset, "greedy")
    finally:
        lobby.close()


def test_a_beginner_table_plays_its_match_to_the_end(tmp_path):
    lobby = _lobby(tmp_path, difficulty="beginner")
    try:
        joined = lobby.join("cy", "coins")
        table, me = lobby.tables[joined["table"]], joined["seat"]
        assert type(table._bot) is _made_by(table.room.ruleset, "random")
        for _ in range(2000):
            if table.status != "playing" or table.match is None or table.match.is_over:
                break
            if me in table.match.seats_to_act():
                assert table.act(me, choose(table.match.round.view(me))) is None
            else:
                lobby.tick()
        assert table.match is not None and table.match.is_over and len(table.match.results) == 2
    finally:
        lobby.close()


@pytest.mark.parametrize("kw, words", [
    ({"difficulty": "godlike"}, "difficulty must be one of beginner, normal, hard, expert, got 'godlike'"),
    ({"room_difficulty": {"coins": "hardest"}}, "the difficulty of room 'coins' must be one of"),
    ({"room_difficulty": {"no-such-room": "hard"}}, "unknown room 'no-such-room'"),
    ({"room_difficulty": "coins=hard"}, "room_difficulty must be (room, level) pairs"),
])
def test_an_unknown_level_or_room_is_refused_when_the_settings_are_made(kw, words):
    with pytest.raises(MahjongError) as e:
        ServerSettings(**kw)
    assert words in str(e.value)
    with pytest.raises(MahjongError):
        check_difficulty(None)


@pytest.mark.parametrize("argv, words", [
    (["--difficulty", "godlike"], "difficulty must be one of"),
    (["--room-difficulty", "coins"], "--room-difficulty must be ROOM=LEVEL"),
    (["--room-difficulty", "coins=godlike"], "the difficulty of room 'coins'"),
])
def test_serve_refuses_an_unknown_level_at_start_with_exit_2(argv, words, tmp_path, capsys):
    assert cli.main(["serve", "--db", str(tmp_path / "x.sqlite3"), "--init", *argv]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()
