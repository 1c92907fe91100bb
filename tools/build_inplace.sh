#!/usr/bin/env bash
# Developer build: compile the Cython core with the project's CMakeLists.txt and
# copy the extension modules next to the Python sources, so that
# `PYTHONPATH=python pytest` works without reinstalling.  Release builds and CI
# use `pip install .` (scikit-build-core) instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build/dev"
cmake -S "$here" -B "$build" -G Ninja -DSKBUILD_PROJECT_NAME=mahjong_core \
      -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build"
cp "$build"/_*.so "$here/python/mahjong_core/"
echo "built: $(ls "$here"/python/mahjong_core/*.so | xargs -n1 basename | tr '\n' ' ')"
