#!/bin/sh
# `make image`: an OCI image of `ddbx serve` as a drop-in for DynamoDB
# Local's (amazon/dynamodb-local), built with Debian's buildah, no daemon
# and no registry (--storage-driver vfs, its storage under build/image/):
#
#   FROM scratch
#   /usr/bin/ddbx (BUILD/ddbx-image, stripped: SQLite, zlib and
#     http-parser linked in, see the Makefile's IMAGE_BIN; the image is
#     rebuilt whole for any update) and the shared libraries it loads:
#     what ldd names, and libcrypto (loaded by data/sigv4.c at the first
#     signature check or hash: --require-credentials, a TransactWriteItems
#     token); not ncurses nor libcurl (the explorer's and the remote's)
#   /tmp (SQLite's temporary files), /home/dynamodblocal (the working
#     directory, as DynamoDB Local's image has it, so `-dbPath ./data` is
#     /home/dynamodblocal/data, the volume README documents)
#   ENTRYPOINT ddbx serve --host 0.0.0.0 --port 8000
#   CMD -jar DynamoDBLocal.jar -inMemory   (DynamoDB Local's image's default)
#
# A compose file's `command: "-jar DynamoDBLocal.jar -sharedDb -dbPath
# ./data"` replaces CMD, as it does for DynamoDB Local's image. ddbx runs as
# PID 1 and stops cleanly on SIGTERM (its signals are blocked and taken by
# sigwait, which the kernel delivers to PID 1 too).
#
# Usage: tools/image.sh BUILD   (writes BUILD/ddbx-image.tar, an
# oci-archive, and prints its size)
set -e
build=${1:-build}
ddbx=$build/ddbx-image
out=$build/ddbx-image.tar
[ -x "$ddbx" ] || { echo "image: no $ddbx (make $ddbx first)" >&2; exit 1; }
command -v buildah >/dev/null 2>&1 || { echo "image: no buildah (make deps installs Debian's buildah)" >&2; exit 1; }

work=$(cd "$build" && pwd)/image
rootfs=$work/rootfs
rm -rf "$rootfs"
mkdir -p "$rootfs/usr/bin" "$rootfs/tmp" "$rootfs/home/dynamodblocal/data"
chmod 1777 "$rootfs/tmp"
cp "$ddbx" "$rootfs/usr/bin/ddbx"
strip "$rootfs/usr/bin/ddbx"

# The libraries at the paths the dynamic loader looks them up by.
libs=$(ldd "$ddbx" | awk '/=>/ { print $3 } /^[[:space:]]*\// { print $1 }')
crypto=$(ldconfig -p | awk '/libcrypto\.so\.3 .*x86-64|libcrypto\.so\.3 .*AArch64/ { print $NF; exit }')
[ -n "$crypto" ] || { echo "image: no libcrypto.so.3 on this machine (libssl3)" >&2; exit 1; }
for l in $libs $crypto; do
    [ -f "$l" ] || continue
    mkdir -p "$rootfs$(dirname "$l")"
    cp -L "$l" "$rootfs$l"
done

store="--root $work/storage --runroot $work/run --storage-driver vfs"
ctr=$(buildah $store from --quiet scratch)
trap 'buildah $store rm "$ctr" >/dev/null 2>&1 || true' EXIT
buildah $store copy --quiet "$ctr" "$rootfs" / >/dev/null
buildah $store config \
    --entrypoint '["/usr/bin/ddbx", "serve", "--host", "0.0.0.0", "--port", "8000"]' \
    --cmd '-jar DynamoDBLocal.jar -inMemory' \
    --workingdir /home/dynamodblocal \
    --volume /home/dynamodblocal/data \
    --port 8000/tcp \
    --stop-signal SIGTERM \
    --label org.opencontainers.image.title=ddbx \
    --label org.opencontainers.image.description="ddbx serve: a DynamoDB endpoint, DynamoDB Local's command line" \
    "$ctr"
rm -f "$out"
buildah $store commit --quiet --format oci --disable-compression=false --rm "$ctr" "oci-archive:$(cd "$build" && pwd)/ddbx-image.tar" >/dev/null
trap - EXIT
echo "image: $out ($(wc -c <"$out") bytes; its files $(du -sb "$rootfs" | cut -f1) bytes)"
