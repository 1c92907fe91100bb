"""Issue 28 item 2: the learning environments play the long-card ruleset -- PettingZoo's API test
and render test, Gymnasium's environment checker, rewards from the settlement layer (spec 5), and a
family without learning hooks refused with the documented error."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[test]' installs it)")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[test]' installs it)")
from gymnasium.utils.env_checker import check_env
from mahjong_core.errors import IllegalActionError, MahjongError, UnsupportedError
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.rl import RewardRule, VectorRounds, observation_layout
from mahjong_core.rl.gymnasium_env import MahjongEnv
from mahjong_core.rl.pettingzoo_env import MahjongAECEnv
from mahjong_core.rl.render import view_table
from mahjong_core.settlement import HandOutcome, Ledger, get_room, settle_hand
from pettingzoo.test import api_test, render_test

from tests.support.toy import RULESET as TOY, registered

RULESET = "changpai-ydr"


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("reward", ["points", "fans"])
def test_pettingzoo_api_test(reward: str) -> None:
    for seed in range(3):
        api_test(MahjongAECEnv(RULESET, reward=reward, seed=seed), num_cycles=300)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    made: list[MahjongAECEnv] = []
    tables: list[str] = []

    def make(render_mode: str | None = None) -> MahjongAECEnv:
        e = MahjongAECEnv(RULESET, seed=len(made), render_mode=render_mode)
        made.append(e)
        if render_mode == "ansi":
            rendered = e.render

            def render() -> str | None:
                tables.append(view_table(e.round.view(int(e.agent_selection.split("_")[1]))))
                return rendered()

            e.render = render   # type: ignore[method-assign]
        return e

    render_test(make, custom_tests={"ansi": lambda text: text == tables.pop(0)})
    assert [e.render_mode for e in made] == ["human", "human", "ansi"] and not tables
    assert capsys.readouterr().out.count(f"{RULESET}: player_") >= 5


@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")
@pytest.mark.parametrize("opponents", ["greedy", "random"])
@pytest.mark.parametrize("seat", [0, 2])
def test_gymnasium_check_env(opponents: str, seat: int) -> None:
    check_env(MahjongEnv(RULESET, opponents=opponents, seat=seat))


def _rule_play(e: MahjongAECEnv) -> dict[str, float]:
    """One hand, every agent playing the RuleBot's choice (spec 8.5); the final rewards."""
    final: dict[str, float] = {}
    bot = RuleBot()
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        seat = int(agent.split("_")[1])
        choice = bot.act(e.round.hand, seat).id
        assert obs["action_mask"][choice] == 1 and obs["observation"][-1] == 1
        e.step(choice)
    return final


def test_rewards_are_the_settlement() -> None:
    """Points: each seat's balance change when the hand is settled in the ruleset's room
    (settle_hand, spec 5); fans: the winner's fan (minus the 包子 fan for an offender)."""
    room = get_room(RewardRule(RULESET).room)
    ends = set()
    for seed in range(30):
        e = MahjongAECEnv(RULESET, seed=seed)
        e.reset()
        final = _rule_play(e)
        res = e.round.result
        assert e.round.is_over and res is not None
        names = ["p0", "p1", "p2"]
        ledger = Ledger({n: 10 ** 6 for n in names})
        if res.end in ("win", "baozi"):
            settle_hand(ledger, room, HandOutcome.from_result(res, names))
        assert [final[f"player_{k}"] for k in range(3)] == [ledger.balance(n) - 10 ** 6 for n in names]
        fans = RewardRule(RULESET, "fans")(e.round.hand.core)
        want = [float(res.fan) if k == res.winner else 0.0 for k in range(3)] if res.end == "win" else [0.0] * 3
        assert fans == want
        ends.add(res.end)
    assert "win" in ends
    baozi = RewardRule(RULESET, "fans").of_keys((("baozi", 1, 4),))
    assert baozi.tolist() == [0.0, -4.0, 0.0]
    assert RewardRule(RULESET).of_keys((("baozi", 1, 4),)).tolist() == [5.0, -10.0, 5.0]    # 梯坎番: 4 + 1 each
    for bad in ((("win", 3, 4),), (("draw", 0, 1),), (("win", 0, -1),), ((0, 1, "discard", 8, 8, 8),)):
        with pytest.raises(MahjongError):
            RewardRule(RULESET).of_keys(bad)


def test_aec_env_seeding_and_illegal_actions() -> None:
    a, b = MahjongAECEnv(RULESET, seed=3), MahjongAECEnv(RULESET, seed=3)
    a.reset()
    b.reset()
    assert a.round.to_json() == b.round.to_json() and a.agent_selection == b.agent_selection
    obs = a.observe(a.agent_selection)
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = a.round.to_json()
    for bad in (masked, -1, 259, 3.0, True, None, "256", np.array([256])):
        with pytest.raises(IllegalActionError):
            a.step(bad)
    assert a.round.to_json() == before
    a.step(np.int16(int(np.flatnonzero(obs["action_mask"])[0])))
    assert len(a.round.hand.log) == 1


def test_gym_env_plays_hands() -> None:
    e = MahjongEnv(RULESET, opponents="greedy", seat=1)
    rng = np.random.default_rng(2)
    lay = observation_layout(RULESET)
    ends = 0
    obs, _ = e.reset(seed=7)
    for _ in range(600):
        mask = obs["action_mask"]
        pen = lay.decode(obs["observation"])["penalised"]
        ok = np.flatnonzero(mask & (pen == 0)) if (mask & (pen == 0)).any() else np.flatnonzero(mask)
        obs, reward, term, trunc, info = e.step(int(ok[rng.integers(ok.size)]))
        if term:
            assert reward == RewardRule(RULESET)(e.round.hand.core)[1] and not obs["action_mask"].any()
            ends += 1
            obs, _ = e.reset()
        else:
            assert reward == 0.0 and lay.decode(obs["observation"])["flags"][0] == 1
    assert ends >= 10


def test_a_family_without_learning_hooks_is_refused() -> None:
    with registered():
        for make in (lambda: MahjongAECEnv(TOY), lambda: MahjongEnv(TOY), lambda: VectorRounds(TOY, 2),
                     lambda: RewardRule(TOY)):
            with pytest.raises(UnsupportedError, match="offers no learning environment"):
                make()
