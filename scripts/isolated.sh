#!/bin/sh
# Runs a command in a private network namespace of its own in which only loopback is up: a
# connect to any other address fails at once with ENETUNREACH and no name resolves, with nothing
# sent (PLATFORM-NOTES.md). The tests and the quick benchmark run through it, so nothing they do
# leaves the machine. As root: unshare --net. As another user: a user namespace maps them to root
# just long enough to bring loopback up, then back to their own uid and gid. If no namespace can
# be made, it says so in one line and fails; it never runs the command unisolated.
# Usage: sh scripts/isolated.sh COMMAND [ARGUMENT...]
set -eu
if [ "$#" -eq 0 ]; then
    echo "usage: sh scripts/isolated.sh COMMAND [ARGUMENT...]" >&2
    exit 64
fi
ip=$(command -v ip || true)
[ -n "$ip" ] || ip=/sbin/ip
if [ ! -x "$ip" ]; then
    echo "eggtimer: cannot isolate the tests: ip (Debian package iproute2) is missing" >&2
    exit 69
fi
# The inner shell: loopback up, the namespace checked (loopback is its only interface), then the command.
inner='ip=$1; shift
"$ip" link set lo up || exit 70
others=$(sed -n "3,\$p" /proc/self/net/dev | cut -d: -f1 | tr -d " " | grep -vx lo || true)
if [ -n "$others" ]; then echo "eggtimer: the test namespace has interfaces besides lo: $others" >&2; exit 70; fi
exec "$@"'
if [ "$(id -u)" -eq 0 ]; then
    set -- unshare --net -- sh -c "$inner" isolated "$ip" "$@"
else
    set -- unshare --map-root-user --net -- sh -c "$inner" isolated "$ip" \
        unshare --map-user="$(id -u)" --map-group="$(id -g)" -- "$@"
fi
if [ "$(id -u)" -eq 0 ]; then probe="unshare --net -- true"; else probe="unshare --map-root-user --net -- true"; fi
if ! $probe 2>/dev/null; then
    echo "eggtimer: cannot make a private network namespace for the tests ($probe failed); they never run unisolated" >&2
    exit 71
fi
exec "$@"
