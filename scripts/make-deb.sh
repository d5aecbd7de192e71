#!/bin/sh
# `make deb`: packs eggtimer_VERSION_ARCH.deb from the release binary and what `make generate`
# made for PREFIX=/usr (man page, completion, units), with dpkg-deb alone (no debhelper, no
# maintainer scripts: installing it enables nothing).
#
#   sh scripts/make-deb.sh BINARY DIST OUTDIR     prints the package's path on its last line
#
# Environment: DEB_RECOMMENDS (the libraries loaded with dlopen, space-separated: the Makefile's
# list), DEB_VERSION (the whole Debian version, overriding the computed one: for test-package's
# upgrade), SOURCE_DATE_EPOCH (default: HEAD's commit time, so one commit packs the same bytes).
#
# VERSION is `--version`'s, then `-1` (the packaging revision), with `+git<YYYYMMDD>.<HHMMSS>.<hash>`
# of the commit's UTC time between them unless HEAD is tagged v<version>: later commits sort
# higher, so each build upgrades the one before. ARCH is dpkg's: on a Pi with the Swift toolchain
# the same target makes the arm64 package. Needs dpkg-dev (dpkg-shlibdeps) and binutils (strip).
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: sh scripts/make-deb.sh BINARY DIST OUTDIR" >&2
    exit 64
fi
binary=$1 dist=$2 outdir=$3
maintainer="eggtimer maintainers <eggtimer@users.noreply.invalid>"

if ! commit=$(git rev-parse --short=7 HEAD 2>/dev/null); then
    echo "make deb: needs a git clone (the version and the build time come from its commit)" >&2
    exit 65
fi
git diff --quiet HEAD -- || echo "make deb: warning: uncommitted changes are packed as commit $commit" >&2
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct HEAD)}
export SOURCE_DATE_EPOCH
upstream=$("$binary" --version | sed -n '1s/^eggtimer //p')
case $upstream in
[0-9]*) ;;
*)
    echo "make deb: $binary --version gave no version: '$upstream'" >&2
    exit 65
    ;;
esac
if git describe --exact-match --tags --match "v$upstream" HEAD >/dev/null 2>&1; then
    snapshot=""
else
    snapshot=+git$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d.%H%M%S).$commit
fi
version=${DEB_VERSION:-$upstream$snapshot-1}
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps wants the debian/control layout: the files under debian/<package>/.
root=$work/debian/eggtimer
doc=$root/usr/share/doc/eggtimer
for folder in DEBIAN usr/bin usr/share/eggtimer usr/share/man/man1 usr/share/bash-completion/completions \
    usr/lib/systemd/user usr/share/doc/eggtimer; do
    install -d -m 755 "$root/$folder"
done
install -m 755 "$binary" "$root/usr/bin/eggtimer"
# As dh_strip does for an executable: no symbols, no debug info, no compiler notes.
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/eggtimer"
install -m 644 Sounds/alarm_sound.mp3 "$root/usr/share/eggtimer/alarm_sound.mp3"
gzip -9n <"$dist/eggtimer.1" >"$root/usr/share/man/man1/eggtimer.1.gz"
install -m 644 "$dist/eggtimer.bash" "$root/usr/share/bash-completion/completions/eggtimer"
install -m 644 "$dist"/*.service "$root/usr/lib/systemd/user/" # each made from dist/systemd/*.in
install -m 644 dist/debian/copyright "$doc/copyright"
# A snapshot gets an entry of its own above the released history, as its version must be the
# changelog's latest.
{
    if [ "$(sed -n '1s/^eggtimer (\([^)]*\)).*/\1/p' dist/debian/changelog)" != "$version" ]; then
        printf 'eggtimer (%s) unstable; urgency=medium\n\n  * Snapshot of commit %s.\n\n -- %s  %s\n\n' \
            "$version" "$commit" "$maintainer" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
    fi
    cat dist/debian/changelog
} | gzip -9n >"$doc/changelog.Debian.gz"
chmod 644 "$root/usr/share/man/man1/eggtimer.1.gz" "$doc/changelog.Debian.gz"

printf 'Source: eggtimer\n\nPackage: eggtimer\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -edebian/eggtimer/usr/bin/eggtimer | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make deb: dpkg-shlibdeps found no dependencies" >&2 && exit 70; }
recommends=$(printf '%s\n' ${DEB_RECOMMENDS:-} | paste -s -d, - | sed 's/,/, /g')
# As dpkg-gencontrol counts: KiB per file, rounded up, and one per folder.
size=$(find "$root" -path "$root/DEBIAN" -prune -o -type f -printf '%s\n' \
    | awk '{ kib += int(($1 + 1023) / 1024) } END { print kib }')
folders=$(find "$root" -path "$root/DEBIAN" -prune -o -type d -print | wc -l)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@INSTALLED_SIZE@|$((size + folders))|" \
    -e "s|@DEPENDS@|$depends|" -e "s|@RECOMMENDS@|$recommends|" -e '/^Recommends: $/d' \
    dist/debian/control.in >"$root/DEBIAN/control"
# For `dpkg --verify`.
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# Every mtime the commit's (dpkg-deb clamps too, and sorts the members by name).
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$outdir"
package=$outdir/eggtimer_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --threads-max=1 --build "$root" "$package" >/dev/null
echo "Depends: $depends"
echo "Recommends: $recommends"
echo "$(du -k "$package" | cut -f1) KiB, installed $((size + folders)) KiB"
echo "$package"
