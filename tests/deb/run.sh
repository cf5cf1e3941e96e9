#!/bin/sh
# The Debian package (make deb, tools/deb.sh; issue 43 item 6): built
# from $DDBX, read back with dpkg-deb --info/--contents, installed with
# dpkg, and the installed binary run: --version, and `ddbx serve` as the
# package's systemd unit starts it, answering a ListTables. Prints TAP.
#
# Where it installs: dpkg --root into a scratch folder whose dpkg
# database is a copy of this machine's. dpkg then checks the package's
# Depends against the packages really installed here (an unmet or
# misnamed dependency fails the install, and a planted one proves it),
# unpacks every file as `dpkg -i` would, and leaves the machine as it
# was: nothing in /usr/bin for another test or engineer to trip on, no
# root needed, and the suite can run twice at once. What it does not
# run is what the package has none of: maintainer scripts.
# Needs dpkg-dev (dpkg-shlibdeps), binutils, curl, systemd-analyze and
# lintian (make deps installs them).
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${BUILD:=build}"
: "${DDBX:=$root/$BUILD/ddbx}"
tap_name=deb
. "$root/tests/lib/tap.sh"
. "$root/tests/lib/serve.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-deb.XXXXXX") || exit 1
srvpid=""
# The scratch folder goes, and a server still running (a signal, a failure).
trap '[ -n "$srvpid" ] && kill "$srvpid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

deb=$(./tools/deb.sh "$DDBX" "$tmp/out" 2>"$tmp/build.err")
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    tap 1 "tools/deb.sh builds the package: $(head -c 500 "$tmp/build.err")"
    exit 1
fi
tap 0 "tools/deb.sh builds $(basename "$deb")"
version=$("$DDBX" --version | sed -n 's/^ddbx //p')
arch=$(dpkg --print-architecture)
field() { dpkg-deb --field "$deb" "$1"; }

# --info: name, version (the binary's own), architecture.
dpkg-deb --info "$deb" >"$tmp/info"
{ [ "$(field Package)" = ddbx ] && [ "$(field Version)" = "$version" ] && [ "$(field Architecture)" = "$arch" ]; }
tap $? "dpkg-deb --info: Package ddbx, Version $version (ddbx --version's), Architecture $arch"

# Depends names the package of every library the binary links, and
# ncursesw's (loaded at first use, the explorer's); Recommends names
# libcurl's and libcrypto's (loaded at first use by remote commands only).
owner() { # a library path -> its package
    dpkg -S "$(readlink -f "$1")" 2>/dev/null | head -n 1 | cut -d: -f1 | grep . ||
        dpkg -S "$1" | head -n 1 | cut -d: -f1
}
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
lib_of() { $ldconfig -p | awk -v s="$1" '$1 == s { print $NF; exit }'; }
depends=$(field Depends) recommends=$(field Recommends)
has() { echo ", $1," | grep -q ", $2\( ([^)]*)\)\?,"; }
bad=""
for so in $(objdump -p "$DDBX" | awk '$1 == "NEEDED" { print $2 }'); do
    case "$so" in libm.so.*|libc.so.*|libpthread.so.*|libdl.so.*) p=libc6 ;; *) p=$(owner "$(lib_of "$so")") ;; esac
    has "$depends" "$p" || bad="$bad $so($p)"
done
has "$depends" "$(owner "$(lib_of libncursesw.so.6)")" || bad="$bad libncursesw.so.6"
[ -z "$bad" ]
tap $? "Depends names the package of each linked library and ncursesw's ($depends)${bad:+; missing:$bad}"
{ has "$recommends" "$(owner "$(lib_of libcurl.so.4)")" && has "$recommends" "$(owner "$(lib_of libcrypto.so.3)")" &&
  ! has "$depends" "$(owner "$(lib_of libcurl.so.4)")"; }
tap $? "Recommends, not Depends, names libcurl's and libcrypto's packages ($recommends)"

# --contents: the binary, the man page, the unit; no maintainer script
# (the unit is installed, not enabled), no enablement link shipped.
dpkg-deb --contents "$deb" | awk '{ print $NF }' >"$tmp/contents"
miss=""
for f in ./usr/bin/ddbx ./usr/share/man/man1/ddbx.1.gz ./lib/systemd/system/ddbx.service ./usr/share/doc/ddbx/copyright; do
    grep -qx "$f" "$tmp/contents" || miss="$miss $f"
done
[ -z "$miss" ]
tap $? "dpkg-deb --contents: the binary, the man page, the systemd unit, the copyright${miss:+; missing:$miss}"
! grep -Eq 'postinst|prerm|postrm|preinst' "$tmp/info" && ! grep -q '\.wants/' "$tmp/contents"
tap $? "no maintainer script and no .wants link: the unit is installed, not enabled"

# Install: a scratch root with a copy of this machine's dpkg database
# (dpkg asks for root even there unless told it is not needed).
not_root=""
[ "$(id -u)" = 0 ] || not_root=--force-not-root
inst=$tmp/root
mkdir -p "$inst/var/lib/dpkg/info" "$inst/var/lib/dpkg/updates" "$inst/var/lib/dpkg/triggers"
cp /var/lib/dpkg/status "$inst/var/lib/dpkg/status"
: >"$inst/var/lib/dpkg/available"
dpkg --root="$inst" --force-script-chrootless $not_root --log=/dev/null -i "$deb" >"$tmp/dpkg.out" 2>&1
rc=$?
st=$(dpkg --root="$inst" -s ddbx 2>/dev/null | sed -n 's/^Status: //p')
[ $rc = 0 ] && [ "$st" = "install ok installed" ]
tap $? "dpkg -i (--root, this machine's package database): installed, its Depends met ($st) $(tail -n 3 "$tmp/dpkg.out" | tr '\n' ' ')"

# The check is live: without libcjson1 in the database, dpkg refuses it.
bare=$tmp/bare
mkdir -p "$bare/var/lib/dpkg/info" "$bare/var/lib/dpkg/updates" "$bare/var/lib/dpkg/triggers"
awk -v RS= -v ORS='\n\n' '!/^Package: libcjson1\n/' /var/lib/dpkg/status >"$bare/var/lib/dpkg/status"
: >"$bare/var/lib/dpkg/available"
dpkg --root="$bare" --force-script-chrootless $not_root --log=/dev/null -i "$deb" >"$tmp/bare.out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'depends on libcjson1' "$tmp/bare.out"
tap $? "dpkg refuses it where libcjson1 is not installed (exit $rc): the Depends are checked"

# The installed files: the binary runs, the man page is ours.
bin=$inst/usr/bin/ddbx
[ "$("$bin" --version 2>&1)" = "ddbx $version" ]
tap $? "the installed /usr/bin/ddbx --version says ddbx $version"
zcat "$inst/usr/share/man/man1/ddbx.1.gz" | cmp -s - assets/ddbx.1
tap $? "the installed man page is assets/ddbx.1"

# The unit: systemd's own check of it (its directives, its command: the
# installed binary in place of /usr/bin's, which is not installed on this
# machine), loopback only, not enabled.
unit=$inst/lib/systemd/system/ddbx.service
mkdir -p "$tmp/unit"
sed "s|^ExecStart=/usr/bin/ddbx|ExecStart=$inst/usr/bin/ddbx|" "$unit" >"$tmp/unit/ddbx.service"
systemd-analyze verify --man=no "$tmp/unit/ddbx.service" >"$tmp/verify" 2>&1 && ! grep -q . "$tmp/verify"
tap $? "systemd-analyze verify ddbx.service: no complaint $(head -c 300 "$tmp/verify" | tr '\n' ' ')"
exec_line=$(sed -n 's/^ExecStart=//p' "$unit")
case "$exec_line" in
/usr/bin/ddbx\ serve\ *--host\ 127.0.0.1\ *) r=0 ;; *) r=1 ;;
esac
tap $r "the unit runs /usr/bin/ddbx serve bound to 127.0.0.1 ($exec_line)"
[ ! -e "$inst/etc/systemd/system/multi-user.target.wants/ddbx.service" ]
tap $? "installing did not enable the unit (no multi-user.target.wants link)"

# The unit's command, run from the installed binary: its database in the
# scratch folder and a free port in place of 8000 (serve_start adds
# --port 0 first; the unit's --port after it is taken out).
set -- $exec_line
shift 2
args=""
skip=0
for a in "$@"; do
    case "$skip:$a" in
    1:*) skip=0; continue ;;
    *:--port) skip=1; continue ;;
    *:/var/lib/ddbx/*) a=$tmp/${a#/var/lib/ddbx/} ;;
    esac
    args="$args $a"
done
DDBX=$bin serve_start - "$tmp/serve.out" "$tmp/serve.err" $args
port=$serve_port
answer=""
[ -n "$port" ] && answer=$(curl -s -X POST -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Content-Type: application/x-amz-json-1.0' -d '{}' "http://127.0.0.1:$port/")
[ "$answer" = '{"TableNames":[]}' ]
tap $? "the installed ddbx serve, as the unit starts it, answers ListTables on 127.0.0.1 ($answer) $(head -c 200 "$tmp/serve.err")"
kill "$srvpid" 2>/dev/null
wait "$srvpid" 2>/dev/null
srvpid=""

# lintian, Debian's package checker: no error and no warning, but for
# the tags a package built from this tree without a maintainer carries:
#   bogus-mail-host, bogus-mail-host-in-debian-changelog: the maintainer
#     is ddbx@localhost unless DEBFULLNAME and DEBEMAIL name one (as
#     Debian's tools read them);
#   copyright-without-copyright-notice: the tree states no license yet,
#     so the copyright file names none.
lintian --tag-display-limit 0 \
    --suppress-tags bogus-mail-host,bogus-mail-host-in-debian-changelog,copyright-without-copyright-notice \
    "$deb" >"$tmp/lintian" 2>&1
rc=$?
[ $rc = 0 ] && ! grep -q '^[EW]: ' "$tmp/lintian"
tap $? "lintian: no error, no warning $(grep '^[EW]: ' "$tmp/lintian" | head -n 8 | tr '\n' ' ')"
[ "$n" -gt 0 ]
