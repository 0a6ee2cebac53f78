#!/usr/bin/env bash
# Builds the Debian package looplab_<version>_amd64.deb from this checkout (docs/install.md):
# a release build of the programs and the Python module in build/package, without tests,
# benchmarks or paths into the checkout; then CPack, and tests/package/installed-package.sh
# checks the package (lintian, the desktop entry, and the programs and the Python module run
# from an unpacked copy with the checkout hidden). `apt install ./build/package/looplab_*.deb`
# installs it. The Maintainer field is DEBFULLNAME <DEBEMAIL> where both are set.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh help2man lintian desktop-file-utils
jobs=$(nproc)
maintainer=()
if [ -n "${DEBFULLNAME:-}" ] && [ -n "${DEBEMAIL:-}" ]; then
  maintainer=(-DLOOPLAB_PACKAGE_MAINTAINER="$DEBFULLNAME <$DEBEMAIL>")
fi
cmake -S . -B build/package -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
  -DLOOPLAB_BUILD_UI=ON -DLOOPLAB_BUILD_PYTHON=ON -DLOOPLAB_BUILD_TESTS=OFF -DLOOPLAB_BUILD_GUI_TESTS=OFF \
  -DLOOPLAB_BUILD_BENCHMARKS=OFF -DLOOPLAB_CHECKOUT_PATHS=OFF "${maintainer[@]}" >/dev/null
cmake --build build/package -j "$jobs"
./tests/package/installed-package.sh build/package
ls build/package/looplab_*_amd64.deb
