"""Shared driver of the atheris fuzz targets in this directory (see tools/test_checked_build.sh).

A target calls :func:`run` with its one-input function and its seed inputs.  The command line is
libFuzzer's (``-max_total_time=30 -seed=1 CORPUS_DIR ...``); an empty or missing corpus directory
is filled with the seeds first, so a run needs no committed corpus.  Run against the bounds-checked,
sanitized build, a memory error in the compiled core aborts with the report and libFuzzer saves the
input (``-artifact_prefix``); so does any exception that is not a ``MahjongError``.
"""

from __future__ import annotations

import hashlib
import os
import sys
from typing import Callable, Iterable

import atheris


def _corpus_dir(argv: list[str]) -> "str | None":
    dirs = [a for a in argv[1:] if not a.startswith("-")]
    return dirs[0] if dirs else None


def _write_seeds(path: str, seeds: Iterable[bytes]) -> None:
    os.makedirs(path, exist_ok=True)
    if os.listdir(path):
        return
    for s in seeds:
        with open(os.path.join(path, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)


def run(test_one_input: Callable[[bytes], None], seeds: Iterable[bytes],
        custom_mutator: "Callable[[bytes, int, int], bytes] | None" = None,
        default_options: Iterable[str] = ()) -> None:
    """Fuzz ``test_one_input``; ``default_options`` (``-name=value``) apply unless the command line
    sets the same option."""
    argv = list(sys.argv)
    given = {a.split("=")[0] for a in argv[1:] if a.startswith("-")}
    argv[1:1] = [o for o in default_options if o.split("=")[0] not in given]
    corpus = _corpus_dir(argv)
    if corpus is not None:
        _write_seeds(corpus, seeds)
    kwargs = {"custom_mutator": custom_mutator} if custom_mutator else {}
    atheris.Setup(argv, test_one_input, **kwargs)
    atheris.Fuzz()
