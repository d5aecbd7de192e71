#!/bin/sh
# Runs a command (the test suite) with its wall clock DAYS days and 7 h 13 min ahead, through the
# tests' preload shim (Tests/Shims/realtime-shift.c: CLOCK_REALTIME only; the boot clock and its
# timers are left alone), in a far time zone (TZ=Pacific/Kiritimati, UTC+14): a test bound to the
# day or zone it was written in fails here. The test support passes the shim on to every process
# the tests start (Tests/TestSupport/RealtimeShift.swift). As root it also runs them under another
# host name (a UTS namespace of their own) and with another LANG, as no test may depend on either.
# Usage: sh scripts/test-any-day.sh DAYS COMMAND [ARGUMENT...]
set -eu
days=$1
shift
case "$days" in '' | *[!0-9]*) echo "test-any-day: DAYS must be a whole number of days, not '$days'" >&2; exit 64 ;; esac
folder=$(mktemp -d /tmp/eggtimer-any-day-XXXXXX)
trap 'rm -rf "$folder"' EXIT
gcc -shared -fPIC -O2 -Wall -Werror -o "$folder/realtime-shift.so" Tests/Shims/realtime-shift.c -ldl
echo "$(( (days * 86400 + 7 * 3600 + 13 * 60) * 1000000000 ))" > "$folder/offset"
echo "test-any-day: wall clock $days days 7:13 ahead ($(REALTIME_SHIFT_FILE="$folder/offset" LD_PRELOAD="$folder/realtime-shift.so" TZ=Pacific/Kiritimati date)), TZ=Pacific/Kiritimati"
export REALTIME_SHIFT_FILE="$folder/offset" LD_PRELOAD="$folder/realtime-shift.so" TZ=Pacific/Kiritimati LANG=tr_TR.UTF-8
if [ "$(id -u)" -eq 0 ] && unshare --uts -- true 2>/dev/null; then
    echo "test-any-day: host name kitchen-pi-2.lan, LANG=$LANG"
    unshare --uts -- sh -c 'hostname kitchen-pi-2.lan && exec "$@"' any-day "$@"
else
    "$@"
fi
