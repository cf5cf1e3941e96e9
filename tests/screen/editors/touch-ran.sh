#!/bin/sh
# $EDITOR for tests that must not open an editor: leaves a file named
# editor-ran in the test's output directory, which no test expects.
echo "the editor ran on $1" > editor-ran
