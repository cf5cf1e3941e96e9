#!/bin/sh
# $EDITOR for tests: changes the city of the item being edited.
sed -i 's/"Seoul"/"Jeju"/' "$1"
