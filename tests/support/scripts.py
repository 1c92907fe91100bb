"""Loading a script of ``tools/`` or ``bench/`` (not a package: it has no import name) as a module,
so that a test can call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(path: "str | Path", name: "str | None" = None) -> ModuleType:
    """The module of the script at ``path`` (relative to the repository's root, or absolute),
    executed under ``name`` (default: the file's stem).  It is in ``sys.modules`` while it runs
    and after (dataclasses and pickling look their module up by name); a script that raises is
    taken out again, so that a later load starts afresh."""
    path = Path(path)
    if not path.is_absolute():
        path = ROOT / path
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module
