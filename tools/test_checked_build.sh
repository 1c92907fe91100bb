#!/usr/bin/env bash
# Test the compiled core with its safety nets on: build the Cython modules with bounds checks
# (-DMAHJONG_CORE_CHECKED=ON) and, where the compiler has the runtime, AddressSanitizer +
# UndefinedBehaviorSanitizer (-DMAHJONG_CORE_SANITIZE=ON) in build/checked; assemble an importable
# package (build/checked-pkg/mahjong_core: the Python sources plus those modules); run the hostile
# input suite (pytest -m hostile) and the engine tests against it.  The child interpreters of the
# hostile tests (tests/support/isolation.py) inherit this environment and import the same package.
#
# Usage: tools/test_checked_build.sh [pytest arguments]     (default: the selection below)
# Environment:
#   PYTHON              interpreter to build for and test with (default: python3)
#   MAHJONG_SANITIZE    auto (default: on when the compiler has libasan) | on | off
#   MAHJONG_PYTHONMALLOC  allocator of the sanitized runs (default malloc: see below)
#   MAHJONG_TEST_WORKERS  pytest-xdist workers (default 2)
#   MAHJONG_FUZZ_SECONDS  seconds per fuzz target (tools/fuzz/fuzz_*.py, atheris) after the tests
#                       (default 0: no fuzzing; .ci/run sets it); installs atheris with pip if
#                       missing, skipped with a notice if it does not install
# A failing test, a sanitizer report or a failed build exits non-zero.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
py=${PYTHON:-python3}
build="$here/build/checked"
pkg_root="$here/build/checked-pkg"
sanitize=${MAHJONG_SANITIZE:-auto}
fuzz_seconds=${MAHJONG_FUZZ_SECONDS:-0}
say() { echo "test_checked_build: $*" >&2; }

# ---- build tools: a CI machine has only what `pip install ".[test]"` installed ---------------------
# pip puts console scripts (cmake, ninja) next to the interpreter, which need not be on PATH
scripts=$("$py" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
user_scripts=$("$py" -c 'import os, sysconfig; print(sysconfig.get_path("scripts", f"{os.name}_user"))')
export PATH="$scripts:$user_scripts:$PATH"
# the Cython requirement of the release build ([build-system] requires), so both builds use one
cython_req=$(grep -o '"Cython[^"]*"' pyproject.toml | head -1 | tr -d '"')
missing=()
"$py" - "$cython_req" 2>/dev/null <<'EOF' || missing+=("$cython_req")
import re, sys
want = tuple(int(x) for x in re.findall(r"\d+", sys.argv[1].split(">=")[1])[:3])
import Cython
have = tuple(int(x) for x in re.findall(r"\d+", Cython.__version__)[:3])
sys.exit(0 if have >= want else 1)
EOF
cmake_version=$(cmake --version 2>/dev/null | head -1 | grep -oE '[0-9]+\.[0-9]+' | head -1 || true)
"$py" -c 'import sys; v = tuple(map(int, sys.argv[1].split("."))) if sys.argv[1] else (); sys.exit(v < (3, 21))' \
      "$cmake_version" || missing+=("cmake>=3.21")
command -v ninja >/dev/null || missing+=("ninja")
if ((${#missing[@]})); then
  say "installing build tools with pip: ${missing[*]}"
  "$py" -m pip install --quiet "${missing[@]}"
  hash -r
fi

# ---- sanitizer runtime -----------------------------------------------------------------------------
cc=${CC:-cc}
libasan=$("$cc" -print-file-name=libasan.so 2>/dev/null || true)
[[ "$libasan" == /* && -e "$libasan" ]] || libasan=""
case "$sanitize" in
  on)   [[ -n "$libasan" ]] || { say "MAHJONG_SANITIZE=on but $cc has no libasan.so"; exit 1; } ;;
  off)  libasan="" ;;
  auto) [[ -n "$libasan" ]] || say "NOTICE: $cc has no libasan.so: building with bounds checks only (no sanitizers)" ;;
  *)    say "MAHJONG_SANITIZE must be auto, on or off, got '$sanitize'"; exit 2 ;;
esac
san_flag=$([[ -n "$libasan" ]] && echo ON || echo OFF)

# ---- build -----------------------------------------------------------------------------------------
t0=$SECONDS
cmake -S "$here" -B "$build" -G Ninja -DSKBUILD_PROJECT_NAME=mahjong_core -DCMAKE_BUILD_TYPE=Release \
      -DPython_EXECUTABLE="$(command -v "$py")" -DMAHJONG_CORE_CHECKED=ON -DMAHJONG_CORE_SANITIZE="$san_flag" \
      >/dev/null
cmake --build "$build"
say "build (sanitizers $san_flag): $((SECONDS - t0)) s"

# ---- package tree: the Python sources (no compiled modules, no caches) + the checked modules ------
rm -rf "$pkg_root"
mkdir -p "$pkg_root"
cp -R "$here/python/mahjong_core" "$pkg_root/"
find "$pkg_root" \( -name '*.so' -o -name '*.pyd' -o -name '.*.tmp' \) -delete
find "$pkg_root" -name __pycache__ -type d -prune -exec rm -rf {} +
cp "$build"/_*.so "$pkg_root/mahjong_core/"

# ---- environment: every interpreter started from here on (pytest, its children) uses it --------------
user_preload=${LD_PRELOAD:-}
# the tree first; what was on PYTHONPATH stays after it (atheris or plugins installed elsewhere)
export PYTHONPATH="$pkg_root${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1   # keep the assembled tree clean
if [[ -n "$libasan" ]]; then
  # Python itself is not instrumented: its runtime must be loaded first
  export LD_PRELOAD="$libasan${LD_PRELOAD:+:$LD_PRELOAD}"
  # detect_leaks=0: CPython keeps memory alive until exit by design; allocator_may_return_null=1:
  # a huge allocation stays a Python MemoryError (what the release build does) instead of an abort;
  # abort_on_error=1: every report ends in SIGABRT, which the hostile harness reports as a crash
  export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:${UBSAN_OPTIONS:-}"
  # objects from malloc, not from pymalloc's arenas: ASan's redzones then surround every small
  # object too (a cdef-class instance, a bytes buffer), so a write past its end is reported.  It
  # costs time (the hostile suite: ~1.8x); MAHJONG_PYTHONMALLOC=pymalloc trades that coverage away
  export PYTHONMALLOC=${MAHJONG_PYTHONMALLOC:-malloc}
fi

# ---- the interpreter must import this tree, with the checked modules ----------------------------------
"$py" - "$pkg_root" <<'EOF'
import os, sys
import mahjong_core
from mahjong_core import _fan, _hand, _round
root = os.path.realpath(sys.argv[1])
for m in (mahjong_core, _fan, _hand, _round):
    if not os.path.realpath(m.__file__).startswith(root + os.sep):
        sys.exit(f"test_checked_build: {m.__name__} imported from {m.__file__}, not from {root}")
print(f"test_checked_build: testing {os.path.dirname(mahjong_core.__file__)}", file=sys.stderr)
EOF

# ---- tests -----------------------------------------------------------------------------------------
workers=()
"$py" -c 'import xdist' 2>/dev/null && workers=(-n "${MAHJONG_TEST_WORKERS:-2}")
failures=()   # every stage runs; the script fails at the end if any stage failed
t0=$SECONDS
if (($#)); then
  "$py" -m pytest -p no:cacheprovider "${workers[@]}" "$@" || failures+=("pytest $*")
else
  # every test marked hostile (wherever it is), then the tests that drive each compiled module
  # through ordinary use (round engine and bots, its vectorised stepping and observations, the long-card
  # engine, the advisor's search, hand kernels, fan evaluator and scoring), where
  # the sanitizers find what valid data breaks.  (The parity suites are 10x slower under ASan.)
  # (only the files that mention the marker are collected: collecting every test module under
  # ASan costs more than the hostile tests of this tree)
  mapfile -t hostile_files < <(grep -rl --include='test_*.py' 'mark\.hostile' tests | sort)
  ((${#hostile_files[@]})) || { say "no test file uses the hostile marker"; exit 1; }
  "$py" -m pytest -p no:cacheprovider -q "${workers[@]}" -m hostile "${hostile_files[@]}" \
    || failures+=("hostile tests")
  "$py" -m pytest -p no:cacheprovider -q "${workers[@]}" -m "not slow" \
      tests/game/test_round_core.py tests/hand/test_hand.py tests/fan/test_fan_cases.py tests/fan/test_score.py \
      tests/rl/test_vector.py tests/rl/test_encoding.py \
      tests/longcard/test_lc_compiled_hostile.py tests/longcard/test_lc_compiled_steps.py \
      tests/advisor/test_compiled_search.py \
    || failures+=("compiled-module tests")
fi
say "tests: $((SECONDS - t0)) s"

# ---- optional: coverage-guided fuzzing (atheris) ------------------------------------------------------
# The same checked modules, but without preloading ASan: atheris's libFuzzer and GCC's ASan runtime
# both define the coverage callbacks, and a preloaded libasan wins, which leaves libFuzzer blind.
# Loaded late, the runtime still checks stack and global arrays; UBSan (bounds of fixed-size arrays,
# the memory errors of this code base) and Cython's checks work as in the tests.  Heap errors are
# the test run's job (full ASan above).
if ((fuzz_seconds > 0)); then
  if ! "$py" -c 'import atheris' 2>/dev/null; then
    "$py" -m pip install --quiet atheris 2>/dev/null || say "NOTICE: atheris does not install here: fuzzing skipped"
  fi
  if "$py" -c 'import atheris' 2>/dev/null; then
    mkdir -p "$here/build/fuzz"
    failed=()
    for target in "$here"/tools/fuzz/fuzz_*.py; do
      name=$(basename "$target" .py)
      say "fuzzing $name for ${fuzz_seconds} s"
      rm -f "$here/build/fuzz/$name"-crash-* "$here/build/fuzz/$name"-timeout-*
      env -u PYTHONMALLOC LD_PRELOAD="$user_preload" \
          ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=0:abort_on_error=1" \
          "$py" "$target" -max_total_time="$fuzz_seconds" -seed=1 -timeout=60 -print_final_stats=1 \
          -artifact_prefix="$here/build/fuzz/$name-" "$here/build/fuzz/corpus-$name" && continue
      failed+=("$name")
      for f in "$here/build/fuzz/$name"-crash-* "$here/build/fuzz/$name"-timeout-*; do
        [[ -e "$f" ]] && { say "$name: failing input $f ($(wc -c <"$f") bytes; the first 4000):"
                           head -c 4000 "$f" >&2; echo >&2; }
      done
    done
    ((${#failed[@]} == 0)) || failures+=("fuzzing: ${failed[*]}")
  fi
fi

if ((${#failures[@]})); then
  say "FAILED: $(IFS=';'; echo "${failures[*]}")"
  exit 1
fi
say "passed"
