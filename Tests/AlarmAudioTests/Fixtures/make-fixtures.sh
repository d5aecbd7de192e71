#!/usr/bin/env bash
# Regenerates the small MP3 fixtures beside this script, which AlarmAudioTests decode.
#
# Each fixture is a sine tone at half of full scale made by SoX and encoded by LAME. Every file
# but two-frames.mp3 carries LAME's Info/Xing tag, so a gapless decoder (libmpg123) gives back
# exactly the source's frames: the tests check that count (FIXTURES.txt, written here) and that
# tagged, padded and junk-prefixed copies of cbr-44100-stereo.mp3 decode to the same samples.
# LAME leaves the Info tag out when a frame is too small to hold it (below about 170 bytes), so
# the low-rate fixtures use bitrates high enough for one.
# two-frames.mp3 has no Info tag (lame -t) and no bit reservoir, and is exactly two MPEG frames
# long: it decodes to 2 × 1152 frames.
#
# Needs: sox, lame, mpg123 (Debian: sox lame mpg123). Run from anywhere; the tests never run it.
# Usage: Tests/AlarmAudioTests/Fixtures/make-fixtures.sh
set -euo pipefail

for tool in sox lame mpg123; do
    command -v "$tool" >/dev/null || { echo "make-fixtures: '$tool' not found" >&2; exit 1; }
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

manifest="$here/FIXTURES.txt"
{
    echo "# name sample-rate channels frames (gapless frames libmpg123 must decode); made by make-fixtures.sh"
} > "$manifest"

# make NAME RATE CHANNELS FRAMES LAME-OPTIONS...
make() {
    local name=$1 rate=$2 channels=$3 frames=$4
    shift 4
    # -R repeatable, -D no dither: the same source on every run.
    sox -R -D -r "$rate" -b 16 -c "$channels" -n "$work/$name.wav" synth "${frames}s" sine 440 vol 0.5
    lame --quiet --noreplaygain "$@" "$work/$name.wav" "$here/$name.mp3"
    # Check what a gapless decoder makes of it before recording the expectation.
    local decoded=$(( $(mpg123 -q -s "$here/$name.mp3" | wc -c) / 2 / channels ))
    local expected=$frames
    [[ $name == two-frames ]] && expected=2304
    if (( decoded != expected )); then
        echo "make-fixtures: $name decodes to $decoded frames, expected $expected" >&2
        exit 1
    fi
    echo "$name.mp3 $rate $channels $expected" >> "$manifest"
}

make cbr-44100-stereo 44100 2 4410 -b 128
make vbr-44100-stereo 44100 2 8820 -V 4
make cbr-48000-stereo 48000 2 4800 -b 160
make cbr-32000-stereo 32000 2 3200 -b 96
make mono-44100 44100 1 4410 -m m -b 64
make mpeg2-22050 22050 2 4410 -b 64
make mpeg2-24000 24000 1 4800 -m m -b 64
make mpeg2-16000 16000 2 3200 -V 6
make mpeg25-11025 11025 2 2205 -b 32
make mpeg25-12000 12000 1 2400 -m m -b 32
make mpeg25-8000 8000 1 1600 -m m -b 24
# Tags written by LAME itself: ID3v2 (with padding) at the start, ID3v1 at the end.
make lame-tags 44100 2 4410 -b 128 --add-id3v2 --pad-id3v2-size 700 --tt "Egg" --ta "Timer" --tc "fixture"
# No Info tag (-t), no bit reservoir (--nores): 100 source frames fit in two MPEG frames.
make two-frames 44100 2 100 -t --nores -b 128

ls -l "$here"/*.mp3
