"""Optional dependencies (the package's extras, ``pip install "mahjong-core[extra]"``): the one
message for a missing one, shared by the command line (``--plot``, ``serve``, the Dask options)
and the library modules that need an extra (the learning environments)."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["missing_extra", "require_extra"]


def missing_extra(module: str, what: str, extra: str) -> ModuleNotFoundError:
    """The error to raise when ``what`` needs ``module``, installed by the extra ``extra``, and
    it is not installed: one line naming the command to run."""
    top = module.split(".")[0]
    return ModuleNotFoundError(f'{what} needs {top}, which is not installed: pip install "mahjong-core[{extra}]"',
                               name=top)


def require_extra(module: str, what: str, extra: str) -> ModuleType:
    """Import ``module``, or raise :func:`missing_extra`'s error."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise missing_extra(module, what, extra) from None
