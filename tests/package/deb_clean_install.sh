#!/usr/bin/env bash
# The .deb on a clean Debian 12 (issue #18's acceptance): a minbase bookworm root
# made by debootstrap from Debian's mirror, the package installed into it with
# `apt-get install ./gkrun_*.deb` (apt fetches the Depends), then inside the
# chroot: with the Depends alone (--no-install-recommends) `gkrun --version` and a
# run of tests/api/affine.onnx with its outputs checked; then, purged, README's
# install block as written (`apt install`, which brings the Recommends: python3,
# python3-numpy) and the Python module imported and run by the root's own
# /usr/bin/python3; and README's C snippet compiled against the installed header
# with `pkg-config --cflags --libs gkrun`.
#
# The debootstrap root is cached under CACHE_DIR as a tarball and apt's archive
# folder is bound into the chroot, so a re-run unpacks a fresh root and downloads
# only what changed on the mirror (apt-get update every run). Exit 77 (skipped) when not
# root, without debootstrap, cpack or dpkg-deb, or when the mirror is unreachable.
# Usage: deb_clean_install.sh BUILD_DIR SOURCE_DIR CACHE_DIR [DEB_DIR]
# DEB_DIR: take the gkrun_*.deb that deb_test.sh left there (ctest's package:deb,
# this test's fixture) instead of running cpack again.
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") cache=$(realpath -m "$3") deb_dir=${4:-}
mirror=${GK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
fail() { echo "deb_clean_install: FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
step() { echo "deb_clean_install: [$(( $(date +%s) - t0 ))s] $*"; }
t0=$(date +%s)

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot)"
for tool in debootstrap cpack dpkg-deb chroot mountpoint; do
  command -v "$tool" >/dev/null || skip "$tool absent (apt install debootstrap dpkg-dev)"
done
# A 5 s probe: the mirror's Release file. Every run needs it (apt-get update).
if command -v curl >/dev/null; then
  curl -fsS -m 5 -o /dev/null "$mirror/dists/bookworm/Release" 2>/dev/null || skip "mirror $mirror unreachable"
fi

work=$cache/run root=$cache/run/root
mkdir -p "$cache/archives/partial"
umount_all() {
  for m in var/cache/apt/archives dev/pts dev proc; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
  done
  return 0
}
trap umount_all EXIT
umount_all
rm -rf --one-file-system "$work"  # never into a bind mount left by a killed run
mkdir -p "$work"

# 1. The package: deb_test.sh's, or built as it builds it.
if [ -n "$deb_dir" ]; then
  deb=$(ls "$deb_dir"/gkrun_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no gkrun_*.deb in $deb_dir (package:deb makes it)"
  step "using $deb ($(du -k "$deb" | cut -f1) KiB)"
else
  (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1) ||
    fail "cpack (see $work/cpack.log)"
  deb=$(ls "$work"/gkrun_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no gkrun_*.deb in $work"
  step "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
fi

# 2. The clean root, from the cache or from the mirror.
pristine=$cache/bookworm-minbase.tar
if [ ! -f "$pristine" ]; then
  rm -rf "$cache/bootstrap"
  debootstrap --variant=minbase --cache-dir="$cache/archives" bookworm "$cache/bootstrap" "$mirror" \
    >"$cache/debootstrap.log" 2>&1 || skip "debootstrap from $mirror failed (see $cache/debootstrap.log)"
  tar -C "$cache/bootstrap" -cf "$pristine.tmp" . && mv "$pristine.tmp" "$pristine"
  rm -rf "$cache/bootstrap"
  step "debootstrap --variant=minbase bookworm (cached as $pristine)"
fi
mkdir -p "$root"
tar -C "$root" -xf "$pristine"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
                   DEBIAN_FRONTEND=noninteractive "$@"; }
step "clean root ready"

# 3. Install with the Depends only: the CLI and the C library must need nothing else.
# apt keeps the downloaded .debs in the bound cache (Keep-Downloaded-Packages).
apt_opts=(-y -q -o APT::Keep-Downloaded-Packages=true)
in_root apt-get -q update >"$work/apt-update.log" 2>&1 || skip "apt-get update from $mirror failed (see $work/apt-update.log)"
cp "$deb" "$root/tmp/"
# apt_install LOG_NAME ARGS...: a download that fails is the mirror's problem (skip),
# anything else is the package's (fail).
apt_install() {
  local log=$work/apt-$1.log
  shift
  in_root apt-get install "${apt_opts[@]}" --no-install-recommends "$@" >"$log" 2>&1 && return 0
  grep -q "Failed to fetch\|Temporary failure resolving\|Could not connect" "$log" && skip "downloads from $mirror failed (see $log)"
  fail "apt-get install $* (see $log)"
}
apt_install gkrun "/tmp/$(basename "$deb")"
step "apt-get install --no-install-recommends ./$(basename "$deb")"
version=$(in_root gkrun --version) || fail "gkrun --version in the clean root exited $?"
[ "$version" = "gkrun 0.2.0" ] || fail "gkrun --version printed '$version'"
in_root ldd /usr/bin/gkrun | grep -q "not found" && fail "gkrun's libraries: $(in_root ldd /usr/bin/gkrun)"

# x = (1, 2, 3): y = relu(x @ W + b) = relu(0.5 + 4 - 1.5 + 0.1, -1 + 0.5 + 4.5 - 0.2) = (3.1, 3.8), n = (1, 3).
/usr/bin/python3 - "$root/tmp/x.npy" <<'EOF'
import numpy as np, sys
np.save(sys.argv[1], np.array([[1, 2, 3]], dtype=np.float32))
EOF
cp "$src/tests/api/affine.onnx" "$root/tmp/affine.onnx"
out=$(in_root gkrun /tmp/affine.onnx --backend cpu --input x=/tmp/x.npy --output-dir /tmp/out) ||
  fail "gkrun affine.onnx: $out"
/usr/bin/python3 - "$root/tmp/out" <<'EOF' || fail "gkrun's outputs in the clean root: $out"
import numpy as np, sys
y, n = np.load(sys.argv[1] + "/y.npy"), np.load(sys.argv[1] + "/n.npy")
assert y.shape == (1, 2) and np.allclose(y, [[3.1, 3.8]], atol=1e-6), y
assert n.tolist() == [1, 3], n
EOF
step "gkrun --version and gkrun affine.onnx (y = 3.1 3.8)"

# 4. README's install block as written (minus sudo; apt answers yes in this root):
# a plain `apt install`, which brings the Recommends; then the module with the
# root's own python3, from /usr/lib/python3/dist-packages.
in_root dpkg --purge gkrun >"$work/purge.log" 2>&1 || fail "dpkg --purge gkrun (see $work/purge.log)"
echo 'APT::Get::Assume-Yes "true"; APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90gkrun-test"
/usr/bin/python3 "$src/tests/api/readme_snippets.py" deb-sh "$src" >"$root/tmp/readme_install.sh" || fail "README's .deb block"
cp "$root/tmp/affine.onnx" "$root/tmp/model.onnx"
if ! in_root sh -c 'cd /tmp && sh readme_install.sh' >"$work/readme-install.log" 2>&1; then
  grep -q "Failed to fetch\|Temporary failure resolving" "$work/readme-install.log" && skip "downloads from $mirror failed"
  fail "README's install block in the clean root (see $work/readme-install.log)"
fi
grep -qx "gkrun 0.2.0" "$work/readme-install.log" && grep -q "^output y " "$work/readme-install.log" &&
  grep -qx "0.2.0" "$work/readme-install.log" || fail "README's install block printed: $(tail -20 "$work/readme-install.log")"
for pkg in $(dpkg-deb -f "$deb" Recommends | sed 's/([^)]*)//g' | tr ',' ' '); do
  in_root dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    fail "apt install ./$(basename "$deb") left the Recommends' $pkg out"
done
step "README's install block: apt install ./$(basename "$deb") (with its Recommends), gkrun, python3 -c 'import gkrun'"
# The module is in the .deb when the build has one (python3-dev and pybind11-dev at configure).
if [ -d "$build/python/gkrun" ]; then
  grep -q "/usr/lib/python3/dist-packages/gkrun/__init__.py$" <<<"$(dpkg-deb -c "$deb")" || fail "the .deb lacks the Python module"
  out=$(in_root /usr/bin/python3 -c '
import numpy as np, gkrun
s = gkrun.InferenceSession("/tmp/affine.onnx", providers=["CPUExecutionProvider"])
y, n = s.run(None, {"x": np.array([[1, 2, 3]], dtype=np.float32)})
assert np.allclose(y, [[3.1, 3.8]], atol=1e-6) and n.tolist() == [1, 3], (y, n)
print(gkrun.__file__, gkrun.__version__)') || fail "the Python module in the clean root: $out"
  grep -q "^/usr/lib/python3/dist-packages/gkrun/__init__.py 0.2.0$" <<<"$out" || fail "python3 imported: $out"
  step "python3: gkrun from /usr/lib/python3/dist-packages runs affine.onnx"
fi

# 5. A compiler, then README's C snippet against /usr/include/gkrun and gkrun.pc.
apt_install compiler gcc libc6-dev pkg-config
/usr/bin/python3 "$src/tests/api/readme_snippets.py" c-source "$src" >"$root/tmp/app.c" || fail "README's C snippet"
cp "$root/tmp/affine.onnx" "$root/tmp/model.onnx"
out=$(in_root sh -c 'cd /tmp && cc -std=c11 -Wall -Werror -Wno-unused-variable app.c -o app $(pkg-config --cflags --libs gkrun) && ./app') ||
  fail "README's C snippet in the clean root: $out"
grep -q "snippet ran" <<<"$out" || fail "README's C snippet printed: $out"
step "README's C snippet built with pkg-config gkrun and run"
echo "deb_clean_install: PASS in $(( $(date +%s) - t0 ))s"
