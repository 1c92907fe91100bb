"""The pure functions from several threads at once (issue 15, item 2).

docs/reference/conventions.md (Threads): the hand, scoring and batch functions may be called from any thread; a ``Hand``
(like a ``Round``) belongs to one thread at a time.  Here four threads call every pure function and
the batch functions on shared, read-only inputs, each with its own ``Hand``, while the interpreter
switches threads every microsecond; each result must equal the one computed on one thread before
the threads start.  The batch loops release the GIL, so they overlap even on a GIL build; on a
free-threaded build (3.13t/3.14t) everything overlaps, and the compiled modules must not turn the
GIL back on when they are imported (``freethreading_compatible``, set in CMakeLists.txt).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import numpy as np
import pytest

import mahjong_core as mj

THREADS = 4
PASSES = 2
SEED = 15
HANDS_PER_RULESET = 60
RULESET_NAMES = ("two-player", "two-player-bamboo", "public")


def _draw(rng: np.random.Generator, kinds: tuple[int, ...], n: int) -> np.ndarray:
    """``n`` tiles of the given kinds, never a fifth copy, as 34 counts."""
    wall = np.repeat(np.array(kinds), 4)
    counts = np.zeros(34, dtype=np.uint8)
    np.add.at(counts, rng.choice(wall, size=n, replace=False), 1)
    return counts


def _winning(rng: np.random.Generator, kinds: tuple[int, ...]) -> np.ndarray:
    """14 counts forming four groups and a pair of the given kinds (a standard-form win)."""
    kind_set = set(kinds)
    while True:
        counts = np.zeros(34, dtype=np.int64)
        for _ in range(4):
            k = int(rng.choice(kinds))
            if k < 27 and k % 9 <= 6 and {k + 1, k + 2} <= kind_set and rng.random() < 0.6:
                counts[[k, k + 1, k + 2]] += 1          # a chow
            else:
                counts[k] += 3                            # a pung
        counts[int(rng.choice(kinds))] += 2
        if counts.max() <= 4:
            return counts.astype(np.uint8)


def _cases(name: str) -> dict[str, list]:
    rs = mj.get_ruleset(name)
    rng = np.random.default_rng([SEED, rs.code])
    wins = [_winning(rng, rs.kinds) for _ in range(HANDS_PER_RULESET)]
    win_tiles = [int(rng.choice(np.flatnonzero(w))) for w in wins]
    concealed = []
    for w, t in zip(wins, win_tiles):
        c = w.copy()
        c[t] -= 1
        concealed.append(c)
    return {
        "fourteen": wins + [_draw(rng, rs.kinds, 14) for _ in range(HANDS_PER_RULESET)],
        "thirteen": concealed + [_draw(rng, rs.kinds, 13) for _ in range(HANDS_PER_RULESET)],
        "concealed": concealed,
        "win_tiles": win_tiles,
    }


def _evaluate(name: str, cases: dict[str, list], order: list[int] | None = None) -> dict[str, list]:
    """Every pure function on every case of one ruleset, results as plain data in case order;
    ``order`` (a rotation of the indices) is the order the calls are made in."""
    n14, n13, nwin = len(cases["fourteen"]), len(cases["thirteen"]), len(cases["concealed"])
    out: dict[str, list] = {"is_win": [None] * n14, "shanten14": [None] * n14,
                            "waits": [None] * n13, "shanten13": [None] * n13, "score": [None] * nwin}
    for i in (order[:n14] if order else range(n14)):
        i %= n14
        h = cases["fourteen"][i]
        out["is_win"][i] = mj.is_win(h, ruleset=name)
        out["shanten14"][i] = mj.shanten(h, ruleset=name)
    for i in (order[:n13] if order else range(n13)):
        i %= n13
        h = cases["thirteen"][i]
        out["waits"][i] = mj.waits(h, ruleset=name)
        out["shanten13"][i] = mj.shanten(h, ruleset=name)
    for i in (order[:nwin] if order else range(nwin)):
        i %= nwin
        s = mj.score(cases["concealed"][i], cases["win_tiles"][i], ruleset=name, self_drawn=bool(i % 2))
        out["score"][i] = s.to_dict()
    return out


def _evaluate_batch(name: str, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    totals, non_flower, counts = mj.score_batch(arrays["concealed"], arrays["win_tiles"], ruleset=name)
    return {
        "is_win_batch": mj.is_win_batch(arrays["fourteen"], ruleset=name),
        "shanten_batch14": mj.shanten_batch(arrays["fourteen"], ruleset=name),
        "waits_batch": mj.waits_batch(arrays["thirteen"], ruleset=name),
        "shanten_batch13": mj.shanten_batch(arrays["thirteen"], ruleset=name),
        "score_batch": np.concatenate([totals, non_flower, counts.ravel().astype(np.int32)]),
    }


def _walk_hand(name: str, cases: dict[str, list], seed: int) -> list:
    """A Hand owned by one thread: add and remove tiles, asking it after each step."""
    rng = np.random.default_rng(seed)
    seen = []
    for c in cases["thirteen"][:20]:
        h = mj.Hand(c, ruleset=name)
        seen.append((h.waits(), h.shanten()))
        tile = int(rng.choice(np.flatnonzero(c)))
        h.remove(tile)
        h.add(tile)
        seen.append((h.waits(), h.shanten()))
    return seen


def test_pure_functions_agree_across_threads(fast_switching):
    cases = {name: _cases(name) for name in RULESET_NAMES}
    arrays = {name: {"fourteen": np.stack(c["fourteen"]), "thirteen": np.stack(c["thirteen"]),
                     "concealed": np.stack(c["concealed"]),
                     "win_tiles": np.array(c["win_tiles"], dtype=np.int16)}
              for name, c in cases.items()}
    for a in arrays.values():
        for arr in a.values():
            arr.setflags(write=False)          # shared input: no thread may change it
    expected = {name: _evaluate(name, cases[name]) for name in RULESET_NAMES}
    expected_batch = {name: _evaluate_batch(name, arrays[name]) for name in RULESET_NAMES}
    expected_walk = {name: _walk_hand(name, cases[name], 0) for name in RULESET_NAMES}
    # the cases are not trivial: wins and non-wins, ready and far hands, scored wins
    for name in RULESET_NAMES:
        assert 0 < sum(expected[name]["is_win"]) < len(expected[name]["is_win"])
        assert -1 in expected[name]["shanten14"] and max(expected[name]["shanten14"]) >= 2
        assert any(expected[name]["waits"]) and all(s["total"] > 0 for s in expected[name]["score"])

    barrier = threading.Barrier(THREADS)
    failures: list[str] = []
    runs = [0] * THREADS

    def worker(k: int) -> None:
        try:
            barrier.wait(timeout=60)
            for p in range(PASSES):
                for name in RULESET_NAMES:
                    n = len(cases[name]["fourteen"])
                    order = list(range(k * 7 + p, k * 7 + p + n))   # each thread starts elsewhere
                    if _evaluate(name, cases[name], order) != expected[name]:
                        failures.append(f"thread {k} pass {p} {name}: scalar results differ")
                    got = _evaluate_batch(name, arrays[name])
                    for key, want in expected_batch[name].items():
                        if not np.array_equal(got[key], want):
                            failures.append(f"thread {k} pass {p} {name}: {key} differs")
                    if _walk_hand(name, cases[name], 0) != expected_walk[name]:
                        failures.append(f"thread {k} pass {p} {name}: Hand results differ")
                runs[k] += 1
        except Exception as exc:  # noqa: BLE001 -- reported below with the thread that raised it
            failures.append(f"thread {k}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
        assert not th.is_alive(), "a thread did not finish"
    assert failures == []
    assert runs == [PASSES] * THREADS


def _compiled_modules() -> list[str]:
    pkg = Path(mj.__file__).parent
    names = {p.name.split(".")[0] for p in pkg.iterdir()
             if any(p.name.endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES)}
    return sorted(f"mahjong_core.{n}" for n in names)


def test_compiled_modules_found():
    """The GIL check below imports every compiled module of the package: make sure it finds them."""
    mods = _compiled_modules()
    assert {"mahjong_core._hand", "mahjong_core._fan", "mahjong_core._round"} <= set(mods)
    for m in mods:
        importlib.import_module(m)


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="needs a free-threaded CPython (3.13t/3.14t): the wheel tests run it there")
def test_import_keeps_the_gil_disabled():
    """Importing the package and every compiled module leaves the GIL off (each module declares
    ``freethreading_compatible``; one that did not would turn the GIL on with a RuntimeWarning,
    an error here)."""
    code = ("import importlib, sys, warnings\n"
            "warnings.simplefilter('error', RuntimeWarning)\n"
            f"for m in {['mahjong_core', *_compiled_modules()]!r}: importlib.import_module(m)\n"
            "print(sys._is_gil_enabled())\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(mj.__file__).parent.parent),
                                                    env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False", proc.stderr
