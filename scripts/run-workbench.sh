#!/usr/bin/env bash
# Installs what is missing, builds LoopLab and opens the workbench on the four-bar.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
model=resources/examples/four-bar.json
if [ -x build/release/app/workbench/looplab ]; then
  exec build/release/app/workbench/looplab "$model" "$@"
fi
# Without the workbench target, analyse the model with the command-line tool.
build/release/app/looplab-cli check "$model"
