"""Child process of the hostile-input tests (see ``conftest.run_cases``).

Usage: ``python _isolated_runner.py MODULE:FUNCTION CASES.jsonl RESULTS.json PROGRESS``.
Calls FUNCTION(case) for every JSON case in order and writes one outcome per case:
``{"outcome": "ok", "detail": <return value>}``, ``{"outcome": "refused", "error": <class>,
"message": ...}`` for a :class:`~mahjong_core.errors.MahjongError`, or
``{"outcome": "unexpected", "error": <class>, "message": ..., "traceback": ...}`` for any other
exception.  The index of the case being run is written to PROGRESS first, so that a crash (a
signal, an AddressSanitizer abort) is reported by the parent with the case that caused it.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback


def main(argv: list[str]) -> int:
    target, cases_path, results_path, progress_path = argv
    mod_name, fn_name = target.split(":")
    fn = getattr(importlib.import_module(mod_name), fn_name)
    from mahjong_core.errors import MahjongError

    with open(cases_path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f]
    out = []
    progress = os.open(progress_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    for i, case in enumerate(cases):
        os.lseek(progress, 0, os.SEEK_SET)
        os.write(progress, f"{i:>10}".encode())
        try:
            detail = fn(case)
            out.append({"outcome": "ok", "detail": detail})
        except MahjongError as exc:
            out.append({"outcome": "refused", "error": type(exc).__name__, "message": str(exc)})
        except BaseException as exc:  # noqa: BLE001 - every other exception is a finding
            out.append({"outcome": "unexpected", "error": type(exc).__name__, "message": str(exc)[:500],
                        "traceback": traceback.format_exc()[-2000:]})
    os.close(progress)
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
