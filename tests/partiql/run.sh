#!/bin/sh
# PartiQL golden tests: tests/partiql/*.golden, in the format and through
# the runner of the expression golden tests (tests/expr/run.sh), each case
# a `ddbx eval --kind partiql` command. See README for where the
# expectations come from.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../expr/run.sh" "$here"
