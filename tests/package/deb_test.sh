#!/usr/bin/env bash
# Builds the .deb with CPack and checks it without installing it on this machine:
# its Depends (from dpkg-shlibdeps) name the Debian packages of the libraries we
# link, its files are under /usr (library, headers, CMake and pkg-config files,
# the Python module in /usr/lib/python3/dist-packages), and the gkrun it carries
# runs (`gkrun --version`, from the unpacked tree). Exit 77 (skipped) without
# dpkg-deb / dpkg-shlibdeps.
# Usage: deb_test.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1") work=$(realpath -m "$2")
fail() { echo "deb_test: FAIL: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps cpack; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool absent (apt install dpkg-dev)"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1) ||
  fail "cpack (see $work/cpack.log)"
deb=$(ls "$work"/gkrun_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no gkrun_*.deb in $work"
depends=$(dpkg-deb -f "$deb" Depends)
echo "deb_test: $(basename "$deb") Depends: $depends"
for pkg in libc6 libstdc++6 libfmt9 libspdlog1 libprotobuf32 libonnx; do
  grep -q "$pkg" <<<"$depends" || fail "Depends lacks $pkg: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
want=(./usr/bin/gkrun ./usr/include/gkrun/gkrun.h ./usr/include/gkrun/gkrun.hpp ./usr/lib/libgkrun.so.0.2.0 ./usr/lib/libgkrun.a
      ./usr/lib/pkgconfig/gkrun.pc ./usr/lib/cmake/gkrun/gkrunConfig.cmake)
# The Python module, where the build has one (python3-dev and pybind11-dev at configure),
# and the python3 of its ABI and numpy as Recommends.
if [ -d "$build/python/gkrun" ]; then
  want+=(./usr/lib/python3/dist-packages/gkrun/__init__.py)
  recommends=$(dpkg-deb -f "$deb" Recommends)
  py=$(ls "$build"/python/gkrun/_gkrun.cpython-*.so | sed -E 's/.*cpython-3([0-9]+).*/3.\1/')
  grep -qF "python3 (>= $py~), python3 (<< 3.$(( ${py#3.} + 1 ))), python3-numpy" <<<"$recommends" ||
    fail "Recommends is '$recommends', want the python3 $py the module is built for and python3-numpy"
fi
for f in "${want[@]}"; do
  grep -qx "$f" <<<"$files" || fail "the .deb lacks $f"
done
dpkg-deb -x "$deb" "$work/root"
version=$("$work/root/usr/bin/gkrun" --version)
[ "$version" = "gkrun 0.2.0" ] || fail "unpacked gkrun --version: $version"
echo "deb_test: PASS"
