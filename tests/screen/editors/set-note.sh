#!/bin/sh
# $EDITOR for tests: changes the note of the item being edited.
sed -i 's/"before"/"edited"/' "$1"
