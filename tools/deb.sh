#!/bin/sh
# Builds the Debian package of ddbx (make deb; tests/deb runs it too):
#   tools/deb.sh DDBX OUTDIR
# writes OUTDIR/ddbx_VERSION_ARCH.deb with dpkg-deb and prints its path.
#
# Contents: /usr/bin/ddbx (stripped), its man page, the README, and
# /lib/systemd/system/ddbx.service (assets/ddbx.service: `ddbx serve` on
# 127.0.0.1:8000), installed but not enabled: the package has no
# maintainer scripts, so nothing starts until `systemctl enable --now
# ddbx` says so.
#
# Dependencies:
# - Depends, from the libraries the binary links (SQLite, cJSON, zlib,
#   http-parser, libc): dpkg-shlibdeps, Debian's own tool, reads them from
#   the binary and names each package with the lowest version whose
#   symbols it uses.
# - the libraries loaded at their first use (data/dynlib.h: dlopen), which
#   dpkg-shlibdeps cannot see, named from their packages' shlibs files:
#   ncursesw (ui/term.c) is Depends: the explorer, ddbx's first use and
#   what `ddbx` alone opens, cannot draw without it. libcurl and libcrypto
#   (data/remote.c, data/sigv4.c) are Recommends: only a remote endpoint
#   needs them (--endpoint-url, pull, push, whoami); `ddbx serve`, `api`,
#   `load` and the explorer on a local file never load them, so a server
#   or a container image installed with --no-install-recommends goes
#   without them (and a remote command then says which library is missing).
set -e
ddbx=${1:?usage: tools/deb.sh DDBX OUTDIR}
out=${2:?usage: tools/deb.sh DDBX OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
for t in dpkg-deb dpkg-shlibdeps objcopy gzip; do
    command -v $t >/dev/null 2>&1 || { echo "deb: no $t (make deps installs dpkg-dev and binutils)" >&2; exit 1; }
done
version=$("$ddbx" --version | sed -n 's/^ddbx //p')
[ -n "$version" ] || { echo "deb: $ddbx --version says no version" >&2; exit 1; }
arch=$(dpkg --print-architecture)
# ldconfig is in /sbin, which a user's PATH may not hold.
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
# The maintainer as Debian's tools take it (dch, dh_make): DEBFULLNAME
# and DEBEMAIL, else a local placeholder (lintian calls it bogus).
maint="${DEBFULLNAME:-ddbx} <${DEBEMAIL:-ddbx@localhost}>"
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/deb-stage
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/share/man/man1" "$stage/usr/share/doc/ddbx" \
    "$stage/lib/systemd/system"

objcopy --strip-unneeded "$ddbx" "$stage/usr/bin/ddbx"
chmod 755 "$stage/usr/bin/ddbx"
gzip -9n < "$root/assets/ddbx.1" > "$stage/usr/share/man/man1/ddbx.1.gz"
gzip -9n < "$root/README.md" > "$stage/usr/share/doc/ddbx/README.md.gz"
install -m 644 "$root/assets/ddbx.service" "$stage/lib/systemd/system/ddbx.service"
cat > "$stage/usr/share/doc/ddbx/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ddbx
Comment: Built from the ddbx source tree by tools/deb.sh.
EOF
printf 'ddbx (%s) unstable; urgency=medium\n\n  * Built by tools/deb.sh.\n\n -- %s  %s\n' \
    "$version" "$maint" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")" | gzip -9n > "$stage/usr/share/doc/ddbx/changelog.gz"

# dpkg-shlibdeps wants a source tree's debian/control: a scratch one.
work=$out/deb-shlibs
rm -rf "$work"
mkdir -p "$work/debian"
printf 'Source: ddbx\n\nPackage: ddbx\nArchitecture: any\n' > "$work/debian/control"
linked=$(cd "$work" && dpkg-shlibdeps -O "$stage/usr/bin/ddbx" 2>"$work/err" | sed -n 's/^shlibs:Depends=//p') || true
[ -n "$linked" ] || { cat "$work/err" >&2; echo "deb: dpkg-shlibdeps named no dependency" >&2; exit 1; }

# A library loaded at first use: its package and version from the shlibs
# file of the package that holds the soname ("libcurl 4 libcurl4 (>= 7.16.2)").
dlopened() { # soname
    path=$($ldconfig -p | awk -v s="$1" '$1 == s { print $NF; exit }')
    [ -n "$path" ] || { echo "deb: $1 (loaded at first use) is not installed here" >&2; exit 1; }
    pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n 1 | cut -d: -f1)
    [ -n "$pkg" ] || pkg=$(dpkg -S "$path" | head -n 1 | cut -d: -f1)
    name=${1%%.so.*}; ver=${1##*.so.}
    dep=$(cat /var/lib/dpkg/info/"$pkg".shlibs /var/lib/dpkg/info/"$pkg":"$arch".shlibs 2>/dev/null |
          awk -v n="$name" -v v="$ver" '$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
    echo "${dep:-$pkg}"
}
ncurses=$(dlopened libncursesw.so.6)
recommends="$(dlopened libcurl.so.4), $(dlopened libcrypto.so.3)"
size=$(du -sk "$stage" | cut -f1)

cat > "$stage/DEBIAN/control" <<EOF
Package: ddbx
Version: $version
Architecture: $arch
Maintainer: $maint
Installed-Size: $size
Depends: $linked, $ncurses
Recommends: $recommends
Section: database
Priority: optional
Description: terminal explorer and local endpoint for DynamoDB tables
 ddbx browses DynamoDB single-table designs in the terminal (partitions,
 indexes, queries, an expression builder) on a local SQLite store or a
 remote endpoint, and serves the local store as a DynamoDB-compatible
 HTTP endpoint (ddbx serve) for SDKs and test suites.
 .
 The package ships ddbx serve as a systemd unit (ddbx.service, bound to
 127.0.0.1:8000), installed but not enabled.
EOF
(cd "$stage" && find usr lib -type f | LC_ALL=C sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
deb=$out/ddbx_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
rm -rf "$stage" "$work"
echo "$deb"
