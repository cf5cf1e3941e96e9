#!/bin/sh
# Install the system packages ddbx builds and tests with, when missing.
# Debian/Ubuntu: apt-get as root, or through sudo. Elsewhere: print the
# exact packages to install.
set -e
# --java: only the Java runtime DynamoDB Local runs on (the differential
# tests' third pass and make bench, through tests/lib/ddblocal.sh); the
# full list below has it too.
if [ "${1:-}" = --java ]; then
    command -v java >/dev/null 2>&1 && exit 0
    if command -v apt-get >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
        if [ "$SUDO" != none ]; then
            echo "deps: installing openjdk-17-jre-headless (for DynamoDB Local)" >&2
            $SUDO apt-get update -qq >&2
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >&2
            exit 0
        fi
    fi
    echo "deps: install a Java runtime for DynamoDB Local (Debian: openjdk-17-jre-headless; Homebrew: openjdk@17)" >&2
    exit 1
fi
DEB="pkg-config libncurses-dev libsqlite3-dev libcjson-dev libhttp-parser-dev libcurl4-openssl-dev libssl-dev zlib1g-dev libcmocka-dev tmux clang nodejs npm awscli python3-boto3 golang-go openjdk-17-jre-headless buildah iproute2 dpkg-dev binutils lintian curl systemd valgrind"
BREW="pkg-config ncurses sqlite cjson http-parser curl openssl@3 zlib cmocka tmux llvm node awscli go openjdk@17"
# boto3 on macOS: pip3 install boto3

missing=""
for p in $DEB; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# node and npm may come from elsewhere than Debian's packages.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    missing=$(echo "$missing" | tr ' ' '\n' | grep -v -x -e nodejs -e npm | tr '\n' ' ')
fi
# So may Java (DynamoDB Local runs on any java 17 or later).
if command -v java >/dev/null 2>&1; then
    missing=$(echo "$missing" | tr ' ' '\n' | grep -v -x -e openjdk-17-jre-headless | tr '\n' ' ')
fi
# So may the aws command line (the `ddbx serve` tests call it).
if command -v aws >/dev/null 2>&1; then
    missing=$(echo "$missing" | tr ' ' '\n' | grep -v -x -e awscli | tr '\n' ' ')
fi
missing=$(echo $missing)
[ -z "$missing" ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
    if [ "$SUDO" != none ]; then
        echo "deps: installing $missing" >&2
        $SUDO apt-get update -qq >&2
        # awscli on its own: a distribution without it (Ubuntu 24.04) must
        # not stop the rest; the tests that need it then say it is missing.
        rest=$(echo "$missing" | tr ' ' '\n' | grep -v -x -e awscli | tr '\n' ' ')
        [ -n "$(echo $rest)" ] && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $rest >&2
        case " $missing " in *" awscli "*)
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq awscli >&2 ||
                echo "deps: awscli is not available from apt here; install the aws command line another way (pip install awscli)" >&2 ;;
        esac
        exit 0
    fi
fi
echo "deps: missing packages. Install them with:" >&2
echo "  Debian/Ubuntu: sudo apt-get install $missing" >&2
echo "  Homebrew:      brew install $BREW" >&2
exit 1
