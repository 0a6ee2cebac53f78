#!/usr/bin/env bash
# Installs the Debian 12 packages LoopLab needs to build and test, if any are missing, and
# any further packages named as arguments.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config lld
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl1-mesa-dev
  libvtk9-dev libeigen3-dev nlohmann-json3-dev libcli11-dev
  libsuitesparse-dev libsundials-dev libopenblas0-serial
  libspectra-dev
  liburdfdom-dev libtinyxml2-dev
  pybind11-dev python3-dev python3-numpy python3-pytest
  python3-matplotlib python3-nbclient python3-nbformat python3-ipykernel python3-pandas
  libopenmpi-dev openmpi-bin
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  xvfb xauth libgl1-mesa-dri
  "$@"
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
