#!/usr/bin/env bash
# Installs the build into a fresh prefix and uses it as an outside project would
# (issue #18): the installed files and SONAME; tools/examples/embed configured
# with find_package(gkrun 0.2 REQUIRED) and built against gkrun::gkrun (C, and C++
# through the gkrun.hpp wrapper)
# and gkrun::gkrun_static, each run on tests/api/affine.onnx with its output
# checked; the same C program built with `pkg-config --cflags --libs gkrun`; the
# Python module imported from <prefix>/lib/python3/dist-packages; tools/examples/detect
# built the same way and run on the exported YOLO-style model; an older
# version request refused by the version file.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
model=$src/tests/api/affine.onnx

fail() { echo "package_test: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install (see $work/install.log)"

libdir=$(cd "$prefix" && ls -d lib/x86_64-linux-gnu 2>/dev/null || echo lib)
for f in bin/gkrun include/gkrun/gkrun.h include/gkrun/gkrun.hpp "$libdir/libgkrun.a" "$libdir/pkgconfig/gkrun.pc" \
         "$libdir/cmake/gkrun/gkrunConfig.cmake" "$libdir/cmake/gkrun/gkrunConfigVersion.cmake"; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
so=$(readlink -f "$prefix/$libdir/libgkrun.so")
[ "$(basename "$so")" = libgkrun.so.0.2.0 ] || fail "libgkrun.so points at $so, want libgkrun.so.0.2.0"
soname=$(objdump -p "$so" | awk '/SONAME/ {print $2}')
[ "$soname" = libgkrun.so.0.2 ] || fail "SONAME is '$soname', want libgkrun.so.0.2"
"$prefix/bin/gkrun" --version | grep -qx "gkrun 0.2.0" || fail "gkrun --version: $("$prefix/bin/gkrun" --version)"

# x = ones(1, 3): y = relu(x @ W + b) = relu(0.5 + 2 - 0.5 + 0.1, -1 + 0.25 + 1.5 - 0.2) = (2.1, 0.55); n = (1, 3).
want_y="y float32 [1x2] 2.1 0.55"
check_run() {  # check_run NAME OUTPUT
  grep -qxF "$want_y" <<<"$2" || fail "$1 printed: $2 (want a line '$want_y')"
}

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$src/tools/examples/embed" -B "$work/embed" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" >"$work/embed-configure.log" 2>&1 || fail "configure embed (see $work/embed-configure.log)"
cmake --build "$work/embed" >"$work/embed-build.log" 2>&1 || fail "build embed (see $work/embed-build.log)"
out=$("$work/embed/embed_c" "$model") || fail "embed_c: $out"
check_run embed_c "$out"
grep -qxF "n int64 [2] 1 3" <<<"$out" || fail "embed_c printed: $out (want 'n int64 [2] 1 3')"
out=$("$work/embed/embed_cpp" "$model") || fail "embed_cpp: $out"
check_run embed_cpp "$out"
out=$("$work/embed/embed_static" "$model" 2) || fail "embed_static: $out"
# x = 2: y = relu(2 * (2.0, 0.75) + (0.1, -0.2)) = (4.1, 1.3).
grep -qxF "y float32 [1x2] 4.1 1.3" <<<"$out" || fail "embed_static printed: $out"
# The static binary needs no libgkrun.so; the shared one links it by SONAME.
! objdump -p "$work/embed/embed_static" | grep -q 'NEEDED.*libgkrun' || fail "embed_static links libgkrun.so"
objdump -p "$work/embed/embed_c" | grep -q 'NEEDED *libgkrun.so.0.2$' || fail "embed_c does not need libgkrun.so.0.2"

# The detection example, as an outside project; run on the exported YOLO-style
# model when setup.sh made it (tests/examples checks its detections against ONNX Runtime).
cmake -S "$src/tools/examples/detect" -B "$work/detect" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" >"$work/detect-configure.log" 2>&1 || fail "configure detect (see $work/detect-configure.log)"
cmake --build "$work/detect" >"$work/detect-build.log" 2>&1 || fail "build detect (see $work/detect-build.log)"
set +e
"$work/detect/detect" >/dev/null 2>"$work/detect-usage.log"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "usage: detect MODEL IMAGE" "$work/detect-usage.log" || fail "detect without arguments: rc $rc"
yolo=$src/models/cache/detect/yolo_nms_opset17.onnx
if [ -f "$yolo" ]; then
  /usr/bin/python3 -c "
import numpy as np, sys; from PIL import Image
a = np.load(sys.argv[1])[0].transpose(1, 2, 0)
Image.fromarray((a * 255).round().clip(0, 255).astype(np.uint8)).save(sys.argv[2])" \
    "$src/models/cache/detect/yolo_nms.some.npy" "$work/yolo.png" || fail "writing the YOLO test image"
  out=$("$work/detect/detect" "$yolo" "$work/yolo.png" --backend cpu --out "$work/yolo_boxes.png") || fail "detect: $out"
  grep -q "detections\? (NMS in the graph)" <<<"$out" && [ -s "$work/yolo_boxes.png" ] || fail "detect printed: $out"
fi

# README's CMake snippet around its C snippet, as an outside project on the prefix.
/usr/bin/python3 "$src/tests/api/readme_snippets.py" cmake "$src" "$work/readme_cmake" "$prefix" >"$work/readme.log" 2>&1 ||
  fail "README's CMake + C snippets: $(cat "$work/readme.log")"

# README's C++ snippet (the gkrun.hpp wrapper: tensors, sequences, errors) against
# the installed header and library.
/usr/bin/python3 "$src/tests/api/readme_snippets.py" cpp "$src" "$work/readme_cpp" "$prefix/include" \
  "$prefix/$libdir/libgkrun.so" >"$work/readme_cpp.log" 2>&1 || fail "README's C++ snippet: $(cat "$work/readme_cpp.log")"

# pkg-config, shared.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
[ "$(pkg-config --modversion gkrun)" = 0.2.0 ] || fail "pkg-config --modversion gkrun: $(pkg-config --modversion gkrun)"
# shellcheck disable=SC2046
cc -std=c11 -Wall -o "$work/embed_pc" "$src/tools/examples/embed/embed.c" $(pkg-config --cflags --libs gkrun) \
   -Wl,-rpath,"$prefix/$libdir" || fail "cc with pkg-config flags"
out=$("$work/embed_pc" "$model") || fail "embed_pc: $out"
check_run embed_pc "$out"

# find_package(gkrun 0.1) must not accept 0.2 (0.x: same minor only).
mkdir -p "$work/old"
cat >"$work/old/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(old LANGUAGES C)
find_package(gkrun 0.1 REQUIRED)
CMAKE
if cmake -S "$work/old" -B "$work/old/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/old.log" 2>&1; then
  fail "find_package(gkrun 0.1) accepted version 0.2.0"
fi
grep -q "0.2.0" "$work/old.log" || fail "find_package(gkrun 0.1) failed without naming the version found: $(cat "$work/old.log")"

# The Python module from the prefix, where Debian's python3 looks under /usr.
pydir=$prefix/lib/python3/dist-packages
if [ -d "$pydir/gkrun" ]; then
  out=$(cd "$work" && PYTHONPATH=$pydir /usr/bin/python3 -c "
import numpy as np, gkrun
s = gkrun.InferenceSession('$model', providers=['CPUExecutionProvider'])
y, n = s.run(None, {'x': np.ones((1, 3), np.float32)})
print(gkrun.__file__.startswith('$pydir'), [round(float(v), 5) for v in y.reshape(-1)], n.tolist())
") || fail "python from the prefix: $out"
  [ "$out" = "True [2.1, 0.55] [1, 3]" ] || fail "python from the prefix printed: $out"
else
  echo "package_test: no Python module installed (python3-dev/pybind11-dev absent at configure)"
fi
echo "package_test: PASS ($prefix)"
