#!/bin/sh
# The install checks of `make test` (after `swift test`: they need the release build, about a
# minute from clean, which would contend with the timing tests inside `swift test`):
# `make install DESTDIR=<tmp> PREFIX=/usr/local`, then, there, the binary (stripped, linked only
# to the C libraries it uses and not to libmosquitto, finding its sound from another folder), the man page (renders
# without a warning), the bash completion (completes a subcommand, an option, a label), the
# systemd user units (systemd-analyze verify accepts them), and `make uninstall` leaving nothing.
# Needs man-db, bash-completion, systemd and binutils (`make test` installs them). Ends with
# "install checks: N passed, M failed"; exits 1 when any failed.
set -u
cd "$(dirname "$0")/.."
make=${MAKE:-make}
prefix=/usr/local
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
destdir=$scratch/dest
root=$destdir$prefix
# check NAME COMMAND... (and the counts $passed and $failed).
. scripts/checks.sh


start=$(date +%s)
if ! "$make" -s install DESTDIR="$destdir" PREFIX="$prefix" >"$scratch/install.log" 2>&1; then
    cat "$scratch/install.log"
    echo "install checks: 0 passed, 1 failed (make install)"
    exit 1
fi
echo "make install took $(($(date +%s) - start)) s"
binary=$root/bin/eggtimer

# Every shared library the binary needs is one of these (no Swift runtime, no libstdc++).
only_c_libraries() {
    needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    echo "$needed"
    for library in $needed; do
        case $library in
        libasound.so.* | libmpg123.so.* | libc.so.* | libm.so.* | ld-linux*.so.*) ;;
        *) echo "unexpected: $library" && return 1 ;;
        esac
    done
    ldd "$binary" | grep -q "not found" && return 1
    return 0
}
stripped() { ! readelf -S "$binary" | grep -q '\.symtab'; }
version() { (cd / && "$binary" --version) | grep -q '^eggtimer [0-9]'; }
# From another folder, with the sound found beside the install (no built-in-tone warning).
finds_sound() {
    (cd "$scratch" && "$binary" 1 -D null --loops 1 --json >"$scratch/run.out" 2>"$scratch/run.err")
    status=$?
    cat "$scratch/run.err"
    [ "$status" -eq 0 ] && ! grep -q "not found beside the program" "$scratch/run.err" \
        && grep -q '"by":"loops"' "$scratch/run.out"
}
check "binary needs only libasound, libmpg123, libc, libm and the loader" only_c_libraries
# libmosquitto (and the libssl and libcrypto it pulls in) is loaded with dlopen only when --mqtt
# makes a BusClient, so a timer without it starts and uses memory as before. The name it loads is
# in the binary, which shows HouseBus is linked in and the NEEDED check above means something.
no_mqtt_libraries() {
    needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    echo "$needed"
    ! printf '%s\n' "$needed" | grep -E -q '^(libmosquitto|libssl|libcrypto)\.' && grep -q -a 'libmosquitto\.so\.1' "$binary"
}
check "binary does not need libmosquitto, libssl or libcrypto (dlopen for --mqtt)" no_mqtt_libraries
# libmicrohttpd and GnuTLS likewise are loaded with dlopen only when --http starts a server.
no_http_libraries() {
    needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    ! printf '%s\n' "$needed" | grep -E -q '^(libmicrohttpd|libgnutls)\.'
}
check "binary does not need libmicrohttpd or libgnutls (dlopen for --http)" no_http_libraries
check "binary is stripped" stripped
check "binary runs --version from another folder" version
check "binary finds its sound from another folder" finds_sound

# `make run` as a newcomer sees it: no command lines echoed; quitting the menu (0) or cancelling a
# timer (1, q on its keys) leaves make content; any other status is one line and fails make.
run_quiet() {
    # --no-print-directory: under `make test` this make is a sub-make, which would say so.
    output=$("$make" --no-print-directory run ARGS="1 -D null --loops 1" </dev/null 2>&1)
    status=$?
    printf '%s\n' "$output"
    [ "$status" -eq 0 ] && ! printf '%s\n' "$output" | grep -q -e 'swift build' -e '^make'
}
run_cancelled() {
    output=$(printf q | "$make" --no-print-directory run ARGS="1h -D null" 2>&1)
    status=$?
    printf '%s\n' "$output"
    [ "$status" -eq 0 ] && ! printf '%s\n' "$output" | grep -q -e 'swift build' -e 'make: \*\*\*'
}
run_failed() {
    output=$("$make" --no-print-directory run ARGS="--no-such-option" </dev/null 2>&1)
    status=$?
    printf '%s\n' "$output"
    [ "$status" -ne 0 ] && printf '%s\n' "$output" | grep -q '^eggtimer ended with status 64 '
}
# make's own freshness decides: with the binary newer than every source, a second install (as
# `sudo make install` after `make run`) would start no SwiftPM, which re-plans the whole build
# when run as another user (issue 24). Before: every install ran `swift build -c release`.
reinstall_builds_nothing() {
    plan=$("$make" --no-print-directory -n install DESTDIR="$destdir" PREFIX="$prefix" 2>&1)
    if printf '%s\n' "$plan" | grep -e 'build -c release' -e '--show-bin-path'; then return 1; fi
    return 0
}
check "make install after a build starts no swift build" reinstall_builds_nothing
check "make run echoes no command lines" run_quiet
check "make run: q (cancelled, status 1) is no failure of make" run_cancelled
check "make run: a bad option fails make with one line of its status" run_failed

man_page=$root/share/man/man1/eggtimer.1
man_renders() {
    warnings=$(MANWIDTH=80 man -l "$man_page" 2>&1 >"$scratch/man.txt")
    strict=$(groff -ww -man -Tutf8 -z "$man_page" 2>&1)
    printf '%s' "$warnings$strict"
    [ -z "$warnings$strict" ] && grep -q '^SYNOPSIS' "$scratch/man.txt" && grep -q -- '--ring-for' "$scratch/man.txt"
}
check "man -l renders the man page without warnings" man_renders

completion=$root/share/bash-completion/completions/eggtimer
# complete LOADED WORD...: what _eggtimer offers for the last word (LOADED: with bash-completion).
complete_words() {
    loaded=$1
    shift
    bash -c '
        loaded=$1
        if [ "$loaded" = yes ]; then source /usr/share/bash-completion/bash_completion; fi
        source "$2"
        shift 2
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        if [ "$loaded" = yes ]; then COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; fi
        _eggtimer eggtimer
        printf "%s\n" "${COMPREPLY[@]}"' _ "$loaded" "$completion" "$@"
}
completes() {
    expected=$1
    shift
    got=$(complete_words "$@" | tr '\n' ' ')
    echo "got: $got"
    [ "$got" = "$expected " ]
}
check "completion completes a subcommand (stat: status)" completes "status" no eggtimer stat
check "completion completes a subcommand with bash-completion loaded" completes "status" yes eggtimer stat
check "completion offers both subcommands that start alike (st: status start)" completes "status start" no eggtimer st
check "completion completes the kitchen subcommand (ki: kitchen)" completes "kitchen" no eggtimer ki
check "completion completes options (--lo)" completes "--loops --long-break --long-break-after" yes eggtimer --lo
check "completion completes snooze's options" completes "--for" no eggtimer snooze --f

# A running timer's label after ack, from a private runtime folder.
completes_label() {
    runtime=$scratch/runtime
    mkdir -m 700 "$runtime"
    mkfifo "$scratch/events"
    XDG_RUNTIME_DIR=$runtime "$binary" 1h -D null --label pasta --json </dev/null >"$scratch/events" 2>&1 &
    timer=$!
    # Its first event (`started`) comes once its socket listens; EOF if it exits instead.
    head -n 1 "$scratch/events"
    got=$(XDG_RUNTIME_DIR=$runtime PATH=$root/bin:$PATH complete_words yes eggtimer ack pa)
    kill "$timer"
    wait "$timer"
    echo "got: $got"
    [ "$got" = pasta ]
}
check "completion completes a running timer's label (ack pa: pasta)" completes_label

units=$root/lib/systemd/user
# systemd-analyze verify in user mode (it needs a runtime folder) on copies of the units whose
# ExecStart points into DESTDIR, where the binary is; the instance is verified too. Warnings
# (unknown keys, bad values) do not change its status, so any output fails the check.
verify_units() {
    verify=$scratch/verify
    mkdir -p "$verify" "$scratch/xdg"
    chmod 700 "$scratch/xdg"
    for unit in $(cd "$units" && ls -- *.service); do
        grep -q "^ExecStart=$prefix/bin/eggtimer " "$units/$unit" || { echo "$unit: ExecStart is not $prefix/bin"; return 1; }
        sed "s|^ExecStart=$prefix/bin/|ExecStart=$root/bin/|" "$units/$unit" >"$verify/$unit"
    done
    cp "$verify/eggtimer@.service" "$verify/eggtimer@soft.service"
    for unit in "$verify"/*.service "$@"; do
        output=$(XDG_RUNTIME_DIR=$scratch/xdg systemd-analyze --user verify --man=no "$unit" 2>&1)
        status=$?
        [ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$unit: $output"; return 1; }
    done
}
check "systemd-analyze verify accepts every unit" verify_units
# The check above can fail: a unit with a bad value is refused.
refuses_bad_unit() {
    sed 's/^Type=simple/Type=bogus/' "$units/eggtimer@.service" >"$scratch/bad@x.service"
    ! verify_units "$scratch/bad@x.service"
}
check "systemd-analyze verify refuses a unit with a bad Type=" refuses_bad_unit
check "the recover unit can be enabled (WantedBy=default.target)" grep -q '^WantedBy=default.target' "$units/eggtimer-recover.service"
check "the kitchen unit can be enabled, comes back on failure and never kills its timers" sh -c \
    "grep -q '^WantedBy=default.target' '$units/eggtimer-kitchen.service' && grep -q '^Restart=on-failure' '$units/eggtimer-kitchen.service' && grep -q '^KillMode=process' '$units/eggtimer-kitchen.service' && grep -q '^LimitRTPRIO=1' '$units/eggtimer-kitchen.service' && grep -q '^ExecStart=$prefix/bin/eggtimer kitchen\$' '$units/eggtimer-kitchen.service'"
check "the timer unit is never restarted nor enabled" sh -c \
    "grep -q '^Restart=no' '$units/eggtimer@.service' && ! grep -q '^\[Install\]' '$units/eggtimer@.service'"

uninstalled() {
    "$make" -s uninstall DESTDIR="$destdir" PREFIX="$prefix" || return 1
    left=$(find "$destdir" -mindepth 1)
    echo "left: $left"
    [ -z "$left" ]
}
check "make uninstall leaves nothing in DESTDIR" uninstalled

echo "install checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
