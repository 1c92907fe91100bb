"""Issue 27, item 4: the shared layers name no game family, families never import each other, and
the package imports without circles (``tools/import_graph.py`` builds the import graph with ast;
``python tools/import_graph.py`` prints what these tests check)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import mahjong_core
from mahjong_core.families import registry
from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "mahjong_core"
SHARED = [PACKAGE / "game", PACKAGE / "simulation", PACKAGE / "settlement", PACKAGE / "cli.py", PACKAGE / "testing",
          PACKAGE / "server", PACKAGE / "rl", PACKAGE / "tournament"]
"""The shared layers: they reach a family through the registry only (the conformance suite,
``testing/``, the reference server, ``server/`` (issue 28: its tables played mahjong's match
and bot, imported from the family), and the learning environments, ``rl/``, too)."""


def _graph_tool():
    return load_script("tools/import_graph.py")


def _shared_files() -> list[Path]:
    return sorted(p for base in SHARED for p in ([base] if base.is_file() else base.rglob("*.py")))


def _named_families() -> dict[str, re.Pattern[str]]:
    """Family -> the words that name it: its name and its rulesets' names.  The mahjong family is
    left out here (its name is the package's, ``mahjong_core``); its modules are checked as imports
    below."""
    return {f.name: re.compile("|".join(re.escape(w) for w in (f.name, *registry.ruleset_names(f.name))), re.I)
            for f in registry.families() if f.name not in PACKAGE.name}


def test_the_shared_layers_name_no_family():
    """``grep -rniE "longcard|changpai" game simulation settlement cli.py`` printed 66 lines: the
    command line, the plots and the simulation runner knew the long-card family by name.  Comments
    and docstrings count too."""
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in _shared_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for family, words in _named_families().items() if words.search(line)]
    assert not found, "\n".join(found)


def test_the_shared_layers_import_no_family_module_but_through_the_registry():
    """game/, cli.py, simulation/, settlement/, testing/ and server/ import no module of a family, at
    module level or in a function (settlement imported mahjong's RoundResult; the runner played mahjong
    rounds itself; cli.py imported both families' command modules; game/ re-exported mahjong's
    round names, now lent to it by the family with a deprecation warning)."""
    tool = _graph_tool()
    offending = []
    for path in _shared_files():
        module = tool.module_name(path)
        for target, line in tool.imports(path, module, everywhere=True):
            family = tool.family_of(target)
            if family is not None and target not in (f"mahjong_core.families.{family}.constants",
                                                    f"mahjong_core.families.{family}.rulesetdef"):
                offending.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not offending, "\n".join(offending)


def test_no_family_imports_another():
    """Not at module level, not in a function, not for type checking (long-card imported mahjong's
    ``Fan``, now :mod:`mahjong_core.fan`; mahjong's ``score`` typed its result with long-card's)."""
    cross = _graph_tool().cross_family_imports()
    assert not cross, "\n".join(f"{m}:{line} imports {target}" for m, line, target in cross)


def test_the_module_level_import_graph_has_no_cycle():
    """No import circle among the package's modules (each module's own packages aside, which are
    in ``sys.modules`` while it runs)."""
    tool = _graph_tool()
    assert tool.cycles(tool.graph(everywhere=False)) == []


def test_import_mahjong_core_loads_no_command_line_or_simulation_of_a_family():
    """The families register hooks that import their command-line and simulation modules when
    used: ``import mahjong_core`` (a fresh interpreter) loads none of them, nor the command line."""
    code = ("import sys, mahjong_core; print(sorted(m for m in sys.modules if m == 'mahjong_core.cli' or "
            "m.startswith('mahjong_core.families.') and m.endswith(('.cli', '.simulation', '.simulation_plots'))))")
    # the package this session imports (built in place or installed: the source tree has no
    # compiled modules when the package is installed, as in CI)
    env = {"PYTHONPATH": str(Path(mahjong_core.__file__).resolve().parents[1]), "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize("family", [f.name for f in registry.families()])
def test_every_family_registers_its_command_line_and_simulation(family):
    """Mahjong registers like any other family: no shared layer falls back to it by name."""
    f = registry.get_family(family)
    assert f.cli is not None and f.simulation is not None
    shared = {"hand", "score", "match", "play"}
    # besides the shared commands, a family may run its side of another family's own command (the
    # long-card advisor behind mahjong's advise, issue 28)
    extra = {name for g in registry.families() if g.cli is not None for name in g.cli.extra_commands}
    assert shared <= set(f.cli.commands) <= shared | extra
    assert callable(f.simulation.play_batch) and callable(f.simulation.plot)


def test_the_old_mahjong_names_of_game_warn_and_name_their_home():
    """``mahjong_core.game.Round`` (and the other mahjong names game/ used to export) still work,
    with a DeprecationWarning naming the module that holds them; unknown names are AttributeErrors."""
    import mahjong_core.game as game
    from mahjong_core.families.mahjong import api

    for name in api.__all__:
        with pytest.warns(DeprecationWarning, match=f"mahjong_core.game.{name} is deprecated: import {name} from "
                                                     "mahjong_core.families.mahjong.api"):
            assert getattr(game, name) is getattr(api, name)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        game.Nope  # noqa: B018
