#!/bin/sh
# `make install` and `make uninstall`: eggtimer's files under DESTDIR/PREFIX.
#
#   sh scripts/install.sh install BINARY DIST   the stripped binary, the sound, and what DIST holds
#                                               (made by `make dist`: man page, completion, units)
#   sh scripts/install.sh uninstall             removes them, and the folders install created
#
# PREFIX (default /usr/local), DESTDIR and SERVICES (the systemd user units' names, from the
# Makefile's UNITS: the one list of them) come from the environment. Install writes the folders it
# had to create into PREFIX/share/eggtimer/created-folders, so uninstall removes exactly those
# (when empty) and never a folder that was there before (/usr/local/share/man, say).
set -eu
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}$prefix
record=$root/share/eggtimer/created-folders
# Destination of each file, relative to PREFIX.
BIN=bin/eggtimer
SOUND=share/eggtimer/alarm_sound.mp3
MAN=share/man/man1/eggtimer.1
COMPLETION=share/bash-completion/completions/eggtimer
UNITS=lib/systemd/user
SERVICES=${SERVICES:?set SERVICES to the units to install (the Makefile passes its UNITS)}
FOLDERS="bin share/eggtimer share/man/man1 share/bash-completion/completions $UNITS"

# Creates folder $1 (under root) and its missing parents, remembering each one created.
make_folder() {
    missing=""
    folder=$root/$1
    while [ ! -d "$folder" ]; do
        missing="$folder
$missing"
        folder=$(dirname "$folder")
    done
    [ -z "$missing" ] && return 0
    mkdir -p "$root/$1"
    created="$created$missing"
}

install_files() {
    binary=$1 dist=$2
    created=""
    [ -f "$record" ] && created=$(cat "$record")
    for folder in $FOLDERS; do make_folder "$folder"; done
    install -s -m 755 "$binary" "$root/$BIN"
    install -m 644 Sounds/alarm_sound.mp3 "$root/$SOUND"
    install -m 644 "$dist/eggtimer.1" "$root/$MAN"
    install -m 644 "$dist/eggtimer.bash" "$root/$COMPLETION"
    for unit in $SERVICES; do install -m 644 "$dist/$unit" "$root/$UNITS/"; done
    # Deepest first, each once, for uninstall's rmdir.
    printf '%s\n' "$created" | grep -v '^$' | sort -u -r > "$record"
    echo "eggtimer installed in $root"
}

uninstall_files() {
    rm -f "$root/$BIN" "$root/$SOUND" "$root/$MAN" "$root/$COMPLETION"
    for unit in $SERVICES; do rm -f "$root/$UNITS/$unit"; done
    folders=""
    [ -f "$record" ] && folders=$(cat "$record")
    rm -f "$record"
    rmdir "$root/share/eggtimer" 2>/dev/null || true
    # Reverse order of names puts a folder's children before it.
    printf '%s\n' "$folders" | grep -v '^$' | sort -u -r | while IFS= read -r folder; do
        rmdir "$folder" 2>/dev/null || true
    done
    echo "eggtimer removed from $root"
}

case ${1-} in
install) install_files "$2" "$3" ;;
uninstall) uninstall_files ;;
*)
    echo "usage: sh scripts/install.sh install BINARY DIST | uninstall" >&2
    exit 64
    ;;
esac
