#!/usr/bin/env python3
"""onpty.py LOG CMD: runs the shell command CMD with a terminal (a pty) as
its standard input, output and error, and writes every byte it wrote to
the terminal into LOG, read until the terminal closes; exits with CMD's
status. For tests of what ddbx draws on a terminal only (a progress line).

script(1) does the same, but util-linux 2.38's script, given a stdin that
is not a terminal, lost the whole of a quick command's output now and
then (its log held only the "Script started" line): the tests failed
once in ~10 full runs of make test for that, not for ddbx.
"""
import os
import pty
import sys

if len(sys.argv) != 3:
    sys.exit("usage: onpty.py LOG CMD")
log, cmd = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", cmd])
with open(log, "wb") as out:
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:      # EIO: the last holder of the terminal closed it
            break
        if not data:
            break
        out.write(data)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st) & 0xFF)
