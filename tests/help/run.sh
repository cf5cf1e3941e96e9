#!/bin/sh
# Every example the help overlay shows, typed into the explorer, does what
# the help says (issue 15: the `?` overlay lists the `:` commands with one
# working example each). Generated, not written by hand: the examples are
# read from the help overlay itself (`?`, then :save-view), each is looked
# up in ui/command_examples.h (through $BUILD/tests/ui/test_examples
# --table) for where to type it and what it shows, and run in a fresh
# copy of the samples at 80x24 and at 120x35: the text it promises must be
# on the screen after it (the builder's panel scrolled to its end counts)
# and not before, with no error on the status line. A command whose help
# line has arguments and no example fails, so a new command cannot come
# without a working one. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"
: "${BUILD:=build}"
table_bin=$root/$BUILD/tests/ui/test_examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-help.XXXXXX") || exit 1
[ -n "$HELP_KEEP" ] && echo "# kept $tmp" >&2 || trap 'rm -rf "$tmp"' EXIT
n=0; bad=0
ok() { n=$((n + 1)); echo "ok $n - help: $1"; }
nok() { n=$((n + 1)); echo "not ok $n - help: $1"; bad=1; }

[ -x "$table_bin" ] || { echo "not ok 1 - help: no $table_bin (make builds it)"; exit 1; }
"$DDBX" samples --db "$tmp/base.db" > "$tmp/samples.out" 2>&1 ||
    { echo "not ok 1 - help: ddbx samples failed"; exit 1; }
"$table_bin" --table > "$tmp/table" || { echo "not ok 1 - help: test_examples --table failed"; exit 1; }

# The pinned environment of the screen tests.
run() { # dir cols lines script
    mkdir -p "$1/home/data" "$1/home/config"
    cp "$tmp/base.db" "$1/test.db"
    # The access patterns `ddbx samples` writes beside the database.
    [ -d "$tmp/patterns" ] && cp -r "$tmp/patterns" "$1/patterns"
    (cd "$1" && env -i PATH="$PATH" HOME="$1/home" XDG_DATA_HOME="$1/home/data" \
        XDG_CONFIG_HOME="$1/home/config" TMPDIR="$1" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
        TERM=xterm-256color COLUMNS="$2" LINES="$3" DDBX_SCRIPT="$4" \
        ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} \
        "$DDBX" --db test.db SocialGraph > stdout 2> stderr)
    echo $? > "$1/rc"
}

# ---- what the help shows ----
printf '?\n:save-view help\n' > "$tmp/help.keys"
run "$tmp/help" 120 35 "$tmp/help.keys"
[ -f "$tmp/help/help" ] || { echo "not ok 1 - help: the help overlay was not saved"; exit 1; }
# "  command  :goto VALUE  Go to ..." then "  example  e.g. :goto ACTOR#bob"
# (the rows a long entry wraps onto, "  wrap", between them).
awk '
    { kind = substr($0, 3, 8); gsub(/ /, "", kind); text = substr($0, 12) }
    kind == "wrap" { next }
    pending != "" && kind == "example" { sub(/^e\.g\. /, "", text); print pending "\t" text; pending = ""; next }
    pending != "" { if (pending ~ / /) print pending "\t"; else print pending "\t" pending; pending = "" }
    kind == "command" { left = text; sub(/  .*/, "", left); pending = left }
    END { if (pending != "") { if (pending ~ / /) print pending "\t"; else print pending "\t" pending } }
' "$tmp/help/help" > "$tmp/shown"
[ -s "$tmp/shown" ] || { echo "not ok 1 - help: the help overlay lists no commands"; exit 1; }
ncmd=$(wc -l < "$tmp/shown")
[ "$ncmd" -ge 20 ] && ok "the help overlay lists $ncmd commands" || nok "the help lists only $ncmd commands"

# ---- each example, at each size ----
has() { [ -f "$1" ] && grep -qF -- "$2" "$1"; }
errors() { # the status line (last line) says a command failed
    [ -f "$1" ] && tail -n 1 "$1" | grep -qE 'Unknown command|is not available|usage: |not parsed'
}
i=0
tab=$(printf '\t')
while IFS=$tab read -r cmd ex; do
    i=$((i + 1))
    if [ -z "$ex" ]; then
        nok "$cmd has arguments but the help shows no example"
        continue
    fi
    row=$(awk -F'|' -v ex="$ex" '$3 == ex' "$tmp/table" | head -n 1)
    if [ -z "$row" ]; then
        nok "$ex: the help shows it, ui/command_examples.h says nothing of what it does"
        continue
    fi
    where=$(printf '%s' "$row" | cut -d'|' -f2)
    shows=$(printf '%s' "$row" | cut -d'|' -f4)
    answer=""
    case "$shows" in y:*) answer=y; shows=${shows#y:} ;; esac
    for size in 80x24 120x35; do
        d="$tmp/ex$i-$size"
        mkdir -p "$d"
        { [ -n "$where" ] && printf '%s\n' "$where" | tr '\036' '\n'
          echo ":save-display before"
          printf '%s\n' "$ex"
          [ -n "$answer" ] && echo "$answer"   # it asks first
          echo ":save-display after"
          # The builder's panel, scrolled to its end (elsewhere harmless).
          echo "<Tab>"
          echo "G"
          echo ":save-display after-end"; } > "$d.keys"
        run "$d" "${size%x*}" "${size#*x}" "$d.keys"
        what="$ex at $size"
        if [ "$(cat "$d/rc")" != 0 ]; then
            nok "$what: ddbx exited $(cat "$d/rc"): $(head -c 200 "$d/stderr")"
            continue
        fi
        if [ ! -f "$d/before" ]; then
            nok "$what: the keys before it did not run (where: $where)"
            continue
        fi
        case "$shows" in
        exit:)
            [ ! -f "$d/after" ] && ok "$what ends the explorer" ||
                nok "$what: the explorer went on after it"
            continue ;;
        file:*)
            f=${shows#file:}
            [ -s "$d/$f" ] && ok "$what writes $f" || nok "$what: no $f written"
            continue ;;
        esac
        if errors "$d/after"; then
            nok "$what: an error: $(tail -n 1 "$d/after")"
            continue
        fi
        case "$shows" in
        =*)
            t=${shows#=}
            if has "$d/after" "$t" || has "$d/after-end" "$t"; then ok "$what shows '$t'"; else
                nok "$what: no '$t' on the screen after it"; sed 's/^/#   /' "$d/after"; fi ;;
        *)
            if has "$d/before" "$shows"; then
                nok "$what: '$shows' was on the screen before it already"
            elif has "$d/after" "$shows" || has "$d/after-end" "$shows"; then
                ok "$what shows '$shows'"
            else
                nok "$what: no '$shows' on the screen after it"; sed 's/^/#   /' "$d/after"
            fi ;;
        esac
    done
done < "$tmp/shown"
exit $bad
