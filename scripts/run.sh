#!/bin/sh
# `make run`: the release binary with ARGS. Quitting the menu or cancelling a timer (status 1)
# is how a person ends it, not a failure of make; any other failure says its status in one line
# (the statuses are listed by `eggtimer --help` and in eggtimer(1), EXIT STATUS).
"$@"
status=$?
case $status in
0 | 1) exit 0 ;;
esac
echo "eggtimer ended with status $status (see EXIT STATUS in eggtimer --help)" >&2
exit "$status"
