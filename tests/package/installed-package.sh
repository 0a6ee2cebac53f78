#!/usr/bin/env bash
# Builds the Debian package from a configured build tree and checks it as a user gets it:
# lintian without errors, a valid desktop entry, and, unpacked into an empty folder with
# this checkout (and the build tree inside it) hidden behind an empty file system, the
# command-line tool, the workbench and the Python module working on an installed example.
#   tests/package/installed-package.sh BUILD_DIR
# Needs root for the hiding (a mount namespace; unshare(1)), lintian, desktop-file-utils and
# xvfb-run. scripts/make-package.sh runs it after building the package.
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || { echo "no project version in $build/CMakeCache.txt" >&2; exit 2; }

(cd "$build" && cpack -G DEB >/dev/null)
deb="$build/looplab_${version}_amd64.deb"
[ -f "$deb" ] || { echo "cpack made no $deb" >&2; exit 1; }
echo "package: $deb ($(du -k "$deb" | cut -f1) kB)"
lintian --fail-on error "$deb"
desktop-file-validate "$source_dir/packaging/looplab.desktop"

root=$(mktemp -d /tmp/looplab-package.XXXXXX)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
work=$(mktemp -d "$root/work.XXXXXX")

# Everything below runs with the checkout out of reach: a program that still reads a path
# into it (examples, docs, helpers, the Python package) fails here.
unshare -m bash -s "$source_dir" "$root" "$work" "$version" <<'INNER'
set -euo pipefail
source_dir=$1 root=$2 work=$3 version=$4
mount -t tmpfs -o ro,size=1m none "$source_dir"
[ -z "$(ls -A "$source_dir")" ] || { echo "the checkout is still visible" >&2; exit 1; }
cd "$work"
bin=$root/usr/bin
examples=$root/usr/share/looplab/examples
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$bin/looplab-cli" --version)
[ "$out" = "looplab-cli $version" ] || fail "looplab-cli --version printed '$out'"
out=$("$bin/looplab" --version)
case "$out" in *"$version"*) ;; *) fail "looplab --version printed '$out'";; esac
grep -q "^## \[$version\]\|^## \[Unreleased\]" "$root/usr/share/doc/looplab/CHANGELOG.md" || fail "CHANGELOG.md lacks $version"

"$bin/looplab-cli" check "$examples/four-bar.json" >check.txt || fail "check"
grep -q "degrees of freedom" check.txt || fail "check printed no mobility"
"$bin/looplab-cli" simulate "$examples/four-bar.json" --t-end 0.5 --json >simulate.json || fail "simulate"
/usr/bin/python3 - "$version" <<'PY'
import json, sys
r = json.load(open("simulate.json"))
assert r["ok"] and r["looplab_version"] == sys.argv[1], r.get("error")
PY

xvfb-run -a "$bin/looplab" "$examples/four-bar.json" --run --screenshot shot.png --quit-after 1 \
  || fail "the workbench"
[ -s shot.png ] || fail "the workbench wrote no screenshot"

PYTHONPATH=$root/usr/lib/python3/dist-packages /usr/bin/python3 - "$version" "$examples/four-bar.json" <<'PY'
import sys
import looplab
assert looplab.__version__ == sys.argv[1], looplab.__version__
assert looplab.__file__.startswith(sys.argv[2].split("/usr/share")[0]), looplab.__file__
run = looplab.simulate(sys.argv[2], t_end=0.5)
assert run.summary["ok"], run.summary
PY

for page in looplab looplab-cli; do
  zcat "$root/usr/share/man/man1/$page.1.gz" >"$page.1"
  grep -q "^$page \\\\- " "$page.1" && grep -q '^\.SH OPTIONS' "$page.1" || fail "the man page of $page"
done
echo "installed package: version $version, check, simulate, workbench screenshot and Python all work from $root"
INNER
