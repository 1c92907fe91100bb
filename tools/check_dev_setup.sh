#!/usr/bin/env bash
# CONTRIBUTING.md's development set-up, run as written: the fenced bash block after its
# `<!-- dev-setup` marker runs verbatim, line after line (bash -e: the first failure fails), in a
# fresh clone of this repository's committed HEAD with a fresh virtual environment.  .ci/run calls
# it; tests/packaging/test_docs_site.py checks that the block and this script agree.
# PYTHON: the interpreter that plays `python` for the block (default: python, else python3).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
  git clone --quiet --no-hardlinks "$here" "$work/clone"
else   # not a git checkout (an unpacked sdist): the files as they are, without build outputs
  mkdir "$work/clone"
  tar -C "$here" --exclude=./build --exclude=./site --exclude='*.so' --exclude=./.venv -cf - . | tar -C "$work/clone" -xf -
fi
cd "$work/clone"
block=$(awk '/<!-- dev-setup/{f=1; next} f && /^```bash/{g=1; next} g && /^```/{exit} g{print}' CONTRIBUTING.md)
[ -n "$block" ] || { echo "check_dev_setup: no dev-setup block in CONTRIBUTING.md" >&2; exit 1; }
# `python` in the block is the interpreter given (CI images may only have python3)
py=${PYTHON:-$(command -v python || command -v python3)}
mkdir -p "$work/bin"
ln -s "$py" "$work/bin/python"
echo "+ CONTRIBUTING.md's development set-up in a fresh clone ($work/clone):"
printf '%s\n' "$block" | sed 's/^/    /'
start=$(date +%s)
env -u PYTHONPATH -u VIRTUAL_ENV PATH="$work/bin:$PATH" bash -euo pipefail -c "$block" > "$work/log" 2>&1 || {
  tail -40 "$work/log" >&2; echo "check_dev_setup: the set-up failed (above: the end of its output)" >&2; exit 1; }
tail -1 "$work/log"
[ "$(tail -1 "$work/log")" = "$("$py" -c 'import re,sys; print(re.search(r"__version__ = \"(.*)\"", open(sys.argv[1]).read())[1])' python/mahjong_core/__init__.py) True" ] || {
  echo "check_dev_setup: the set-up's last line should print the version and True" >&2; exit 1; }
echo "check_dev_setup: ok in $(( $(date +%s) - start )) s"
