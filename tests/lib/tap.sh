# Sourced by suites that print their own TAP lines.
#
#   tap STATUS DESCRIPTION
#
# Prints "ok N - $tap_name: DESCRIPTION" when STATUS is 0, "not ok ..."
# otherwise, numbering from $n (0 unless set), which it advances.
n=${n:-0}
tap() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $tap_name: $2"; else echo "not ok $n - $tap_name: $2"; fi
}
