"""The learning environments: PettingZoo's API test and Gymnasium's environment checker for every
mahjong ruleset, rewards from the settlement layer, and the package importing without the
``rl`` extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[test]' installs it)")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[test]' installs it)")
from gymnasium.utils.env_checker import check_env
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.rl import RewardRule, mahjong_rulesets, observation_layout
from mahjong_core.rl.gymnasium_env import MahjongEnv
from mahjong_core.rl.pettingzoo_env import MahjongAECEnv, env
from mahjong_core.settlement import HandOutcome, Ledger, get_room, settle_hand
from mahjong_core.rl.render import view_table
from pettingzoo.test import api_test, render_test

import mahjong_core as mj

RULESETS = mahjong_rulesets()
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("reward", ["points", "fans"])
def test_pettingzoo_api_test(ruleset: str, reward: str) -> None:
    for seed in range(3):
        api_test(MahjongAECEnv(ruleset, reward=reward, seed=seed), num_cycles=200)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_render_test(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test over every declared mode ("human" prints and returns None,
    "ansi" returns the text), the ansi text being the selected agent's table."""
    made: list[MahjongAECEnv] = []
    tables: list[str] = []     # the selected agent's table at each render() of the ansi env

    def make(render_mode: str | None = None) -> MahjongAECEnv:
        e = MahjongAECEnv(ruleset, seed=len(made), render_mode=render_mode)
        made.append(e)
        if render_mode == "ansi":
            rendered = e.render

            def render() -> str | None:
                assert e.round is not None
                tables.append(view_table(e.round.view(int(e.agent_selection.split("_")[1]))))
                return rendered()

            e.render = render   # type: ignore[method-assign]
        return e

    render_test(make, custom_tests={"ansi": lambda text: text == tables.pop(0)})
    assert [e.render_mode for e in made] == ["human", "human", "ansi"] and not tables
    printed = capsys.readouterr().out
    assert printed.count(f"{ruleset}: player_") >= 5          # human: a table per reset, step and render()


@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("opponents", ["greedy", "random"])
def test_gymnasium_check_env(ruleset: str, opponents: str) -> None:
    check_env(MahjongEnv(ruleset, opponents=opponents, seat=observation_layout(ruleset).players - 1))


@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")
@pytest.mark.parametrize("mode", ["human", "ansi"])
def test_gymnasium_render_modes(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The render modes of the AEC environment, with Gymnasium's conventions: check_env passes
    with each; "ansi" returns the learner seat's table, "human" prints it after every reset and
    step and render() returns None."""
    e = MahjongEnv("public", seat=2, render_mode=mode)
    assert e.metadata["render_modes"] == MahjongAECEnv.metadata["render_modes"] == ["human", "ansi"]
    check_env(e)
    capsys.readouterr()
    obs, _ = e.reset(seed=4)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.round is not None
    table = view_table(e.round.view(2))
    if mode == "ansi":
        assert e.render() == table and capsys.readouterr().out == ""
    else:
        assert e.render() is None
        out = capsys.readouterr().out
        assert out.count("public: player_2's view") == 3 and out.endswith(table + "\n" + table + "\n")
    with pytest.raises(MahjongError, match="reset"):
        MahjongEnv("public", render_mode=mode).render()


def _play_aec(e: MahjongAECEnv) -> dict[str, float]:
    """One round, every agent playing the built-in greedy bot's choice; the final rewards."""
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        assert e.round is not None
        choice = e.round.builtin_bot_choice(int(agent.split("_")[1]), 0)
        assert obs["action_mask"][choice] == 1
        e.step(choice)
    return final


@pytest.mark.parametrize("ruleset", RULESETS)
def test_aec_rewards_are_the_settlement(ruleset: str) -> None:
    """Points: each seat's reward is its balance change when the hand is settled in the room
    (settle_hand with a Ledger), fees left out; fans: the winner's hand value."""
    room = get_room(RewardRule(ruleset).room)   # the ruleset's default room
    wins = 0
    for seed in range(12):
        e = MahjongAECEnv(ruleset, seed=seed)
        e.reset()
        final = _play_aec(e)
        assert e.round is not None and e.round.is_over
        res = e.round.result
        assert res is not None
        names = [f"p{k}" for k in range(len(final))]
        ledger = Ledger({n: 10 ** 9 for n in names})
        settle_hand(ledger, room, HandOutcome.from_result(res, names))
        fees = room.table_fee + room.service_fee
        expected = [ledger.balance(n) - 10 ** 9 + fees for n in names]
        assert [final[f"player_{k}"] for k in range(len(names))] == expected
        fans = RewardRule(ruleset, "fans")(e.round._core)
        assert fans == [float(res.total) if k == res.winner else 0.0 for k in range(len(names))]
        wins += res.winner is not None
    assert wins >= 3


def test_reward_rule_refuses_bad_settings() -> None:
    with pytest.raises(MahjongError, match="reward must be one of"):
        RewardRule("public", "money")
    with pytest.raises(MahjongError, match="plays two-player"):
        RewardRule("public", "points", "beginner")
    with pytest.raises(MahjongError, match="reward='points' only"):
        RewardRule("public", "fans", "public")
    assert RewardRule("two-player", room="coins").room.name == "coins"


def test_aec_env_seeding_and_illegal_action() -> None:
    a, b = env("public", seed=3), env("public", seed=3)
    a.reset()
    b.reset()
    assert a.round is not None and b.round is not None and a.round.seed == b.round.seed
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.round.seed == b.round.seed and a.agent_selection == b.agent_selection
    obs = a.observe(a.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    n = a.round.n_steps
    with pytest.raises(IllegalActionError):
        a.step(illegal)
    with pytest.raises(IllegalActionError):
        a.step("0")
    assert a.round.n_steps == n
    with pytest.raises(MahjongError):
        MahjongAECEnv("no-such-ruleset")
    for bad in ("rgb_array", "ANSI", 1):
        with pytest.raises(MahjongError, match="render_mode must be None, 'human' or 'ansi'"):
            MahjongAECEnv("public", render_mode=bad)   # type: ignore[arg-type]
    text = MahjongAECEnv("public", render_mode="ansi", seed=1)
    text.reset()
    assert text.round is not None
    seat = int(text.agent_selection.split("_")[1])
    assert text.render() == view_table(text.round.view(seat))
    assert MahjongAECEnv("public").render() is None     # no render mode: nothing, even before reset


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gym_env_plays_rounds(ruleset: str) -> None:
    e = MahjongEnv(ruleset, opponents="greedy", seat=1)
    rng = np.random.default_rng(2)
    ends = 0
    obs, _ = e.reset(seed=7)
    for _ in range(1500):
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size and obs["observation"][observation_layout(ruleset).slices["flags"]][0] == 1
        obs, reward, term, trunc, info = e.step(int(legal[rng.integers(legal.size)]))
        assert not trunc and info == {}
        if term:
            assert e.round is not None and e.round.is_over
            assert reward == RewardRule(ruleset)(e.round._core)[1]
            assert not obs["action_mask"].any()
            with pytest.raises(MahjongError, match="reset"):
                e.step(0)
            ends += 1
            obs, _ = e.reset()
        else:
            assert reward == 0.0
    assert ends >= 5


def test_gym_env_illegal_action_and_settings() -> None:
    e = MahjongEnv("public")
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = e.step(illegal)
    assert (reward, term, info) == (-1.0, True, {"illegal_action": True})
    strict = MahjongEnv("public", illegal_action="raise", illegal_reward=-5)
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    strict.step(legal)   # the refused action changed nothing
    for kwargs in ({"seat": 4}, {"opponents": ["greedy"]}, {"opponents": ["greedy", "x", "random"]},
                   {"illegal_action": "ignore"}, {"render_mode": "rgb_array"}, {"reward": "money"}):
        with pytest.raises(MahjongError):
            MahjongEnv("public", **kwargs)   # type: ignore[arg-type]
    with pytest.raises(MahjongError, match="reset"):
        MahjongEnv("public").step(0)
    mixed = MahjongEnv("public", seat=2, opponents=["random", "greedy", "random"], render_mode="ansi")
    mixed.reset(seed=3)
    assert (mixed.render() or "").startswith("public: player_2's view")


def _not_actions(legal: int, masked: int) -> list[object]:
    """Every kind of illegal action (issue 25 item 15: one rule for all of them)."""
    return [masked, -1, 110, 2 ** 70, np.uint64(2 ** 63), np.int8(-3), float(legal), np.float64(legal),
            np.float32(legal), np.array(float(legal)), True, False, np.bool_(True), None, str(legal),
            [legal], (legal,), np.array([legal]), np.array([[legal]]), np.array(legal, dtype=object), object()]


def test_gym_env_one_rule_for_illegal_actions() -> None:
    for mode in ("terminate", "raise"):
        e = MahjongEnv("public", illegal_action=mode, illegal_reward=-3.0)
        obs, _ = e.reset(seed=2)
        legal, masked = int(np.flatnonzero(obs["action_mask"])[0]), int(np.flatnonzero(obs["action_mask"] == 0)[0])
        for bad in _not_actions(legal, masked):
            obs, _ = e.reset(seed=2)
            assert e.round is not None
            before = e.round.to_json()
            if mode == "raise":
                with pytest.raises(IllegalActionError):
                    e.step(bad)
            else:
                out, reward, term, trunc, info = e.step(bad)
                assert (reward, term, trunc, info) == (-3.0, True, False, {"illegal_action": True}), repr(bad)
                np.testing.assert_array_equal(out["observation"], obs["observation"])
                with pytest.raises(MahjongError, match="reset"):
                    e.step(legal)         # the episode is over
            assert e.round.to_json() == before, repr(bad)
        for ok in (legal, np.int8(legal), np.uint64(legal), np.array(legal), np.array(legal, dtype=np.int16)):
            e.reset(seed=2)
            assert e.round is not None
            n = e.round.n_steps
            assert e.step(ok)[4] == {} and e.round.n_steps > n


def test_aec_env_one_rule_for_illegal_actions() -> None:
    e = MahjongAECEnv("two-player", seed=5)
    with pytest.raises(MahjongError, match="reset"):
        e.step(0)
    e.reset()
    assert e.round is not None
    obs = e.observe(e.agent_selection)
    legal, masked = int(np.flatnonzero(obs["action_mask"])[0]), int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.round.to_json()
    for bad in _not_actions(legal, masked):
        with pytest.raises(IllegalActionError):
            e.step(bad)
        assert e.round.to_json() == before, repr(bad)
    e.step(np.array(legal))
    assert e.round.n_steps == 1
    final = _play_aec(e)        # every agent terminated, then each stepped with None
    assert len(final) == 2 and not e.agents
    with pytest.raises(MahjongError, match="reset"):
        e.step(None)
    e.reset()
    assert e.round is not None
    while not e.round.is_over:
        e.step(e.round.builtin_bot_choice(int(e.agent_selection.split("_")[1]), 0))
    with pytest.raises(IllegalActionError, match="only action is None"):
        e.step(0)               # a terminated agent's action is None


_BLOCKED = (
    "import importlib.abc, sys\n"
    "class Refuse(importlib.abc.MetaPathFinder):\n"
    "    # as if the rl and plot extras were not installed\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('pettingzoo', 'gymnasium', 'matplotlib'):\n"
    "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
    "sys.meta_path.insert(0, Refuse())\n"
)


def _run_blocked(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    import mahjong_core as mjc
    env_path = str(Path(mjc.__file__).resolve().parents[1])
    return subprocess.run([sys.executable, "-c", _BLOCKED + code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": env_path, "PATH": ""}, cwd=cwd, check=False)


def test_import_without_the_rl_extra(tmp_path: Path) -> None:
    """``import mahjong_core`` and ``mahjong_core.rl`` need neither pettingzoo nor gymnasium; every
    way in to the environments then raises ModuleNotFoundError with the one-line install hint of
    the command line's ``--plot`` (the same helper, ``mahjong_core._extras``)."""
    code = (
        "import mahjong_core, mahjong_core.rl as rl\n"
        "assert 'pettingzoo' not in sys.modules and 'gymnasium' not in sys.modules\n"
        "vec = rl.VectorRounds('two-player', 2, seed=1)\n"
        "vec.reset()\n"
        "for stmt in ('import mahjong_core.rl.gymnasium_env', 'import mahjong_core.rl.pettingzoo_env',\n"
        "             'import mahjong_core.rl.env_common', 'from mahjong_core.rl import MahjongEnv',\n"
        "             'from mahjong_core.rl import MahjongAECEnv', 'rl.MahjongAECEnv'):\n"
        "    try:\n"
        "        exec(stmt)\n"
        "    except ModuleNotFoundError as exc:\n"
        "        print(exc.name, '|', exc)\n"
        "    else:\n"
        "        raise AssertionError(stmt)\n"
        "from mahjong_core import cli\n"
        "sys.exit(cli.main(['simulate', '-n', '1', '--plot', 'never-written.png']))\n"
    )
    proc = _run_blocked(code, tmp_path)
    lines = proc.stdout.splitlines()
    hint = 'needs gymnasium, which is not installed: pip install "mahjong-core[rl]"'
    assert lines == [f"gymnasium | mahjong_core.rl.{m} {hint}" for m in (
        "gymnasium_env", "pettingzoo_env", "env_common", "gymnasium_env", "pettingzoo_env", "pettingzoo_env")], \
        proc.stderr
    assert proc.stderr.strip() == ('mahjong-core: error: --plot needs matplotlib, which is not installed: '
                                   'pip install "mahjong-core[plot]"')
    assert proc.returncode == 2
    assert mj.__name__ == "mahjong_core"
