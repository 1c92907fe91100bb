#!/usr/bin/env bash
# Developer build: compile the Cython core with the project's CMakeLists.txt and
# copy the extension modules next to the Python sources, so that
# `PYTHONPATH=python pytest` works without reinstalling.  Release builds and CI
# use `pip install .` (scikit-build-core) instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD_DIR:-$here/build/dev}"
cmake -S "$here" -B "$build" -G Ninja -DSKBUILD_PROJECT_NAME=mahjong_core \
      -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$(command -v python3)" \
      -DMAHJONG_CORE_CHECKED=OFF -DMAHJONG_CORE_SANITIZE=OFF >/dev/null  # the release build, always
cmake --build "$build"
# replace each module atomically (copy, then rename): a test run that has the old module mapped
# keeps its file instead of reading one that is being overwritten
for so in "$build"/_*.so; do
  cp "$so" "$here/python/mahjong_core/.$(basename "$so").tmp"
  mv -f "$here/python/mahjong_core/.$(basename "$so").tmp" "$here/python/mahjong_core/$(basename "$so")"
done
echo "built: $(ls "$here"/python/mahjong_core/*.so | xargs -n1 basename | tr '\n' ' ')"
