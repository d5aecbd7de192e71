#!/bin/sh
# `make test-package`: the Debian package tried as a new user would, on this machine, for real.
# `make deb`, then lintian (no error, no warning), the package's shape (no maintainer scripts,
# root:root, Debian's modes), then, inside a trap that always purges: apt-get install of the
# local file, the installed binary, man page, completion and units (systemd-analyze verify, and
# their ExecStart lines run by hand, as nothing here runs systemd), a timer that rings, an upgrade
# over an older version while a timer runs (the new binary sees and recovers its record), and
# apt-get purge leaving none of its files. Last, a second clone of the commit in another folder
# built and packed again: the two packages must be the same bytes (REPRODUCIBLE=0 skips it).
# Runs as root (it installs), in scripts/isolated.sh's namespace (make test-package does both).
# Ends with "package checks: N passed, M failed"; exits 1 when any failed.
set -u
cd "$(dirname "$0")/.."
make=${MAKE:-make}
scratch=$(mktemp -d)
export DEBIAN_FRONTEND=noninteractive
# check NAME COMMAND... (and the counts $passed and $failed).
. scripts/checks.sh
# The timers the checks started (their PIDs in $scratch/pids, as each check runs in a subshell),
# and any a recover started, end before the package goes.
cleanup() {
    if [ -s "$scratch/pids" ]; then
        [ -x /usr/bin/eggtimer ] && in_home /usr/bin/eggtimer cancel --all >/dev/null 2>&1
        kill $(cat "$scratch/pids") 2>/dev/null
    fi
    if dpkg-query -W -f='${Status}' eggtimer 2>/dev/null | grep -q installed; then
        apt-get purge -y -qq eggtimer >/dev/null 2>&1
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

finish() {
    echo "package checks: $passed passed, $failed failed${1:-}"
    [ "$failed" -eq 0 ]
    exit
}

if [ "$(id -u)" -ne 0 ]; then
    echo "make test-package installs the package: run it as root" >&2
    exit 77
fi
if dpkg-query -W -f='${Status}' eggtimer 2>/dev/null | grep -q installed; then
    echo "eggtimer is installed on this machine; test-package would purge it: remove it first" >&2
    exit 73
fi

home=$scratch/home
mkdir -m 700 "$home" "$home/run" "$home/state" "$home/config"
in_home() { HOME=$home XDG_RUNTIME_DIR=$home/run XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config "$@"; }

start=$(date +%s)
if ! "$make" -s deb DEBDIR="$scratch/first" >"$scratch/deb.log" 2>&1; then
    cat "$scratch/deb.log"
    failed=1
    finish " (make deb)"
fi
package=$(tail -n 1 "$scratch/deb.log")
echo "make deb took $(($(date +%s) - start)) s: $package"
sed -n '1,$p' "$scratch/deb.log" | grep -E '^(Depends|Recommends):|KiB'
version=$(dpkg-deb -f "$package" Version)

lintian_clean() {
    # Its "running with root privileges" notice is no tag; every E: or W: line is one.
    lintian --fail-on error,warning "$package" >"$scratch/lintian.out" 2>&1
    status=$?
    cat "$scratch/lintian.out"
    [ "$status" -eq 0 ] && ! grep -E -q '^[EW]: ' "$scratch/lintian.out"
}
check "lintian: no errors, no warnings" lintian_clean
# A check that can fail: lintian does refuse a package with a flaw (no copyright file).
lintian_refuses() {
    mkdir "$scratch/flawed"
    dpkg-deb -R "$package" "$scratch/flawed/root"
    rm "$scratch/flawed/root/usr/share/doc/eggtimer/copyright"
    dpkg-deb --root-owner-group --build "$scratch/flawed/root" "$scratch/flawed/flawed.deb" >/dev/null
    ! lintian --fail-on error,warning "$scratch/flawed/flawed.deb"
}
check "lintian: refuses a package without its copyright file (the check above can fail)" lintian_refuses

no_maintainer_scripts() {
    dpkg-deb -e "$package" "$scratch/control"
    ls "$scratch/control"
    [ "$(ls "$scratch/control" | tr '\n' ' ')" = "control md5sums " ]
}
check "no maintainer scripts: the control area holds only control and md5sums" no_maintainer_scripts
contents() {
    dpkg-deb -c "$package" | awk '{ print $1, $2, $6 }' >"$scratch/contents"
    cat "$scratch/contents"
    # The units are those of dist/systemd/*.in.
    expected=$(
        echo '-rwxr-xr-x root/root ./usr/bin/eggtimer'
        for unit in dist/systemd/*.service.in; do
            echo "-rw-r--r-- root/root ./usr/lib/systemd/user/$(basename "$unit" .in)"
        done | LC_ALL=C sort
        echo '-rw-r--r-- root/root ./usr/share/bash-completion/completions/eggtimer
-rw-r--r-- root/root ./usr/share/doc/eggtimer/changelog.Debian.gz
-rw-r--r-- root/root ./usr/share/doc/eggtimer/copyright
-rw-r--r-- root/root ./usr/share/eggtimer/alarm_sound.mp3
-rw-r--r-- root/root ./usr/share/man/man1/eggtimer.1.gz'
    )
    [ "$(grep -v '^d' "$scratch/contents")" = "$expected" ] \
        && ! grep '^d' "$scratch/contents" | grep -v -q '^drwxr-xr-x root/root '
}
check "contents: the binary, sound, man page, completion, units and docs, root:root, 0755 and 0644, folders 0755" contents
stripped_and_clean() {
    dpkg-deb -x "$package" "$scratch/unpacked"
    binary=$scratch/unpacked/usr/bin/eggtimer
    ! readelf -S "$binary" | grep -E -q '\.symtab|\.debug_' || { echo "not stripped" && return 1; }
    # Neither this clone's folder nor any build folder is in it (the sound is found from /usr/bin).
    ! grep -a -q -e "$PWD" -e '/\.build/' "$binary" || { echo "a build path is in the binary" && return 1; }
}
check "binary is stripped and names no build folder" stripped_and_clean

# Installed for real. Everything a timer writes goes to private folders.
install_package() { apt-get install -y -qq "$1" 2>&1 && dpkg-query -W -f='${Version}\n' eggtimer; }
if ! install_output=$(install_package "$package"); then
    printf '%s\n' "$install_output"
    failed=$((failed + 1))
    finish " (apt-get install)"
fi
echo "ok: apt-get install $package"
passed=$((passed + 1))

check "installed: eggtimer --version names the version and the licence" sh -c \
    "cd / && eggtimer --version | tee /dev/stderr | grep -q '^License: Apache-2.0' && [ \"\$(command -v eggtimer)\" = /usr/bin/eggtimer ]"
check "installed: man -w eggtimer finds the page" sh -c '[ "$(man -w eggtimer)" = /usr/share/man/man1/eggtimer.1.gz ]'
check "installed: man renders it" sh -c 'MANWIDTH=80 man eggtimer 2>&1 >/dev/null | grep . && exit 1; MANWIDTH=80 man eggtimer | grep -q KITCHEN'
completion_loads() {
    bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader eggtimer; complete -p eggtimer' \
        | tee /dev/stderr | grep -q -- '-F _eggtimer eggtimer$'
}
check "installed: bash-completion loads the completion on demand" completion_loads
nothing_enabled() {
    ls -R /etc/systemd/user 2>/dev/null | grep eggtimer && return 1
    ls /usr/lib/systemd/user/eggtimer*
}
check "installed: no unit enabled" nothing_enabled
verify_units() {
    mkdir -p "$home/verify"
    cp /usr/lib/systemd/user/eggtimer@.service "$home/verify/eggtimer@soft.service"
    for unit in /usr/lib/systemd/user/eggtimer-recover.service /usr/lib/systemd/user/eggtimer@.service \
        "$home/verify/eggtimer@soft.service"; do
        output=$(in_home systemd-analyze --user verify --man=no "$unit" 2>&1)
        status=$?
        echo "$unit: $status $output"
        [ "$status" -eq 0 ] && [ -z "$output" ] || return 1
    done
}
check "installed: systemd-analyze --user verify accepts the units" verify_units

# ExecStart=/usr/bin/eggtimer ARGS of a unit, with its instance for %I.
exec_start() { sed -n 's/^ExecStart=//p' "/usr/lib/systemd/user/$1" | sed "s/%I/$2/g"; }
recover_boot() {
    line=$(exec_start eggtimer-recover.service "")
    echo "$line"
    [ "${line%% *}" = /usr/bin/eggtimer ] || return 1
    in_home $line
    status=$?
    echo "status $status"
    [ "$status" -eq 0 ] || [ "$status" -eq 3 ]
}
check "by hand: eggtimer-recover.service's ExecStart exits 0 or 3" recover_boot
# waits_for WHAT COMMAND...: runs the command every 0.1 s until it succeeds, for at most 30 s.
waits_for() {
    what=$1
    shift
    tries=0
    until "$@" >/dev/null 2>&1; do
        tries=$((tries + 1))
        [ "$tries" -lt 300 ] || { echo "gave up waiting for $what" && return 1; }
        sleep 0.1
    done
}
# eggtimer@1s.service's ExecStart, the device from the config file as the unit expects: it rings
# until acknowledged, and `eggtimer ack` ends it with status 0.
timer_unit() {
    mkdir -p "$home/config/eggtimer"
    printf 'device = null\n' >"$home/config/eggtimer/config"
    line=$(exec_start eggtimer@.service 1s)
    echo "$line"
    in_home $line </dev/null >"$home/unit.log" 2>&1 &
    timer=$!
    echo "$timer" >>"$scratch/pids"
    waits_for "it to ring" sh -c "HOME='$home' XDG_RUNTIME_DIR='$home/run' eggtimer status | grep -q ringing"
    in_home eggtimer ack
    wait "$timer"
    status=$?
    rm -f "$home/config/eggtimer/config"
    cat "$home/unit.log"
    [ "$status" -eq 0 ]
}
check "by hand: eggtimer@1s.service's ExecStart rings until eggtimer ack (status 0)" timer_unit
rings() {
    (cd / && in_home eggtimer 1 -D null --loops 1 --json </dev/null >"$home/ring.out" 2>"$home/ring.err")
    status=$?
    cat "$home/ring.err" "$home/ring.out"
    [ "$status" -eq 0 ] && grep -q '"event":"sounding"' "$home/ring.out" && grep -q '"by":"loops"' "$home/ring.out" \
        && ! grep -q 'not found beside the program' "$home/ring.err"
}
check "installed: eggtimer 1 -D null --loops 1 rings its sound and exits 0" rings

# An upgrade while a timer runs: the same files packed as an older version (only the control
# file's Version changed), installed over the one above (a downgrade), a long timer started from
# it, then the package above installed again.
upgrade() {
    dpkg-deb -R "$package" "$scratch/older" || return 1
    sed -i 's/^Version: .*/Version: 0.1-1/' "$scratch/older/DEBIAN/control"
    older=$scratch/eggtimer_0.1-1.deb
    dpkg-deb --root-owner-group --build "$scratch/older" "$older" >/dev/null || return 1
    apt-get install -y -qq --allow-downgrades "$older" >/dev/null 2>&1 || return 1
    [ "$(dpkg-query -W -f='${Version}' eggtimer)" = 0.1-1 ] || { echo "older not installed" && return 1; }
    mkfifo "$home/events"
    in_home eggtimer 2h --label upgrade -D null --json </dev/null >"$home/events" 2>&1 &
    timer=$!
    echo "$timer" >>"$scratch/pids"
    head -n 1 "$home/events" # `started`: its record and socket are there
    ls "$home/state/eggtimer"
    apt-get install -y -qq "$package" >/dev/null 2>&1 || return 1
    [ "$(dpkg-query -W -f='${Version}' eggtimer)" = "$version" ] || { echo "newer not installed" && return 1; }
    in_home eggtimer status | tee /dev/stderr | grep -q 'upgrade.*counting' || return 1
    # A power cut: the old process ends without a word; the new binary starts it again.
    kill -9 "$timer"
    wait "$timer" 2>/dev/null
    in_home eggtimer recover || return 1
    waits_for "the recovered timer" sh -c "HOME='$home' XDG_RUNTIME_DIR='$home/run' eggtimer status | grep -q 'upgrade.*counting'"
    in_home eggtimer status
    in_home eggtimer cancel upgrade
}
check "upgrade over an older version while a timer runs: the new binary sees it and recovers its record" upgrade

purged() {
    dpkg -L eggtimer >"$scratch/files"
    apt-get purge -y -qq eggtimer >/dev/null 2>&1 || return 1
    dpkg-query -W -f='${Status}' eggtimer 2>/dev/null | grep -q installed && { echo "still installed" && return 1; }
    left=""
    while IFS= read -r path; do
        if [ -e "$path" ] && { [ ! -d "$path" ] || case $path in *eggtimer*) true ;; *) false ;; esac; }; then
            left="$left $path"
        fi
    done <"$scratch/files"
    listed=$(wc -l <"$scratch/files")
    echo "$listed paths listed; left:$left"
    [ "$listed" -gt 10 ] && [ -z "$left" ]
}
check "apt-get purge leaves none of its files or folders" purged

# Reproducible: the same commit cloned into another folder (another name, another depth) and
# packed again gives the same bytes.
if [ "${REPRODUCIBLE:-1}" = 1 ]; then
    reproducible() {
        git diff --quiet HEAD -- || { echo "uncommitted changes: the clone would differ" && return 1; }
        clone=$scratch/elsewhere/other-clone
        git clone -q --no-hardlinks "$PWD" "$clone" && git -C "$clone" checkout -q "$(git rev-parse HEAD)" || return 1
        start=$(date +%s)
        (cd "$clone" && "$make" -s deb DEBDIR="$scratch/second") >"$scratch/second.log" 2>&1 \
            || { cat "$scratch/second.log" && return 1; }
        second=$(tail -n 1 "$scratch/second.log")
        echo "second build took $(($(date +%s) - start)) s"
        [ "$(basename "$second")" = "$(basename "$package")" ] || { echo "named $second" && return 1; }
        cmp "$package" "$second" && return 0
        # What differs, so a rare mismatch can be read off the log: each file of the two packages
        # unpacked, the control files in full, an ELF file's sections; both kept in .build.
        dpkg-deb -R "$package" "$scratch/unpacked-first" && dpkg-deb -R "$second" "$scratch/unpacked-second" || return 1
        diff -r "$scratch/unpacked-first" "$scratch/unpacked-second" | head -n 20
        diff "$scratch/unpacked-first/DEBIAN/control" "$scratch/unpacked-second/DEBIAN/control"
        diff "$scratch/unpacked-first/DEBIAN/md5sums" "$scratch/unpacked-second/DEBIAN/md5sums"
        first_binary=$scratch/unpacked-first/usr/bin/eggtimer second_binary=$scratch/unpacked-second/usr/bin/eggtimer
        if ! cmp -s "$first_binary" "$second_binary"; then
            echo "binary: $(cmp -l "$first_binary" "$second_binary" | wc -l) bytes differ"
            size -A "$first_binary" >"$scratch/sections-first" && size -A "$second_binary" >"$scratch/sections-second"
            diff "$scratch/sections-first" "$scratch/sections-second"
        fi
        kept=.build/reproducible-mismatch
        rm -rf "$kept" && mkdir -p "$kept/first" "$kept/second" && cp "$package" "$kept/first/" && cp "$second" "$kept/second/"
        echo "both packages kept in $kept"
        return 1
    }
    check "two clones of one commit in different folders pack the same bytes" reproducible
fi
finish
