#!/usr/bin/env bash
# Regenerates Sounds/alarm_sound.mp3: the default eggtimer alarm, synthesized from scratch.
#
# The sound: 1.5 s, 44.1 kHz, 16-bit, stereo (both channels identical), 66150 frames.
# Three identical 0.5 s slots, each a rising two-tone beep (B5 988 Hz for 90 ms, 40 ms gap,
# E6 1319 Hz for 120 ms) followed by 250 ms of silence, so looping the file keeps an even rhythm.
# Each beep has a half-sine attack (8 ms) and release (30 ms): no clicks, not harsh.
# The peak is normalised to -4 dBFS before encoding so the decoded MP3 stays at or below -3 dBFS.
#
# Encoded with LAME, 128 kbps CBR, written to a seekable file so LAME fills in its Info tag
# (encoder delay and padding): a gapless decoder (libmpg123, the default) then returns exactly
# the 66150 source frames. The script checks that, and the peak, and fails if either is off.
#
# Needs: sox, lame, mpg123 (Debian: sox lame mpg123).
# Usage: scripts/make-alarm-sound.sh [OUTPUT.mp3]   (default: Sounds/alarm_sound.mp3)
set -euo pipefail

readonly rate=44100
readonly slot_seconds=0.5
readonly slots=3
readonly expected_frames=$((rate * 3 / 2))   # 1.5 s
readonly peak_limit_dbfs=-3

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
output=${1:-"$repo_root/Sounds/alarm_sound.mp3"}

for tool in sox lame mpg123; do
    command -v "$tool" >/dev/null || { echo "make-alarm-sound: '$tool' not found" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# sox: -R repeatable, -D no dither (silence stays exactly zero), 16-bit stereo at $rate.
fmt=(-R -D -r "$rate" -b 16 -c 2)
beep() {  # beep FILE HZ SECONDS
    sox "${fmt[@]}" -n "$1" synth "$3" sine "$2" fade h 0.008 -0 0.030
}
silence() {  # silence FILE SECONDS
    sox "${fmt[@]}" -n "$1" trim 0 "$2"
}

beep "$work/low.wav" 988 0.090
silence "$work/gap.wav" 0.040
beep "$work/high.wav" 1319 0.120
silence "$work/rest.wav" 0.250
sox -R -D "$work/low.wav" "$work/gap.wav" "$work/high.wav" "$work/rest.wav" "$work/slot.wav"

slot_list=()
for ((i = 0; i < slots; i++)); do slot_list+=("$work/slot.wav"); done
sox -R -D "${slot_list[@]}" "$work/source.wav" gain -n -4

source_frames=$(soxi -s "$work/source.wav")
if [[ "$source_frames" != "$expected_frames" ]]; then
    echo "make-alarm-sound: source has $source_frames frames, expected $expected_frames" >&2
    exit 1
fi

mkdir -p "$(dirname "$output")"
lame --quiet --cbr -b 128 -q 2 -m j --noreplaygain "$work/source.wav" "$work/alarm.mp3"

# Verify: gapless decode gives back exactly the source frames, and the peak is at most -3 dBFS.
mpg123 --quiet --encoding s16 -s "$work/alarm.mp3" > "$work/decoded.raw"
decoded_bytes=$(stat -c %s "$work/decoded.raw")
decoded_frames=$((decoded_bytes / 4))
if [[ "$decoded_frames" != "$source_frames" ]]; then
    echo "make-alarm-sound: decoded $decoded_frames frames, source has $source_frames" >&2
    exit 1
fi
peak_dbfs=$(sox -t raw -r "$rate" -e signed -b 16 -c 2 "$work/decoded.raw" -n stats 2>&1 \
    | awk '/^Pk lev dB/ { print $4 }')
if ! awk -v p="$peak_dbfs" -v l="$peak_limit_dbfs" 'BEGIN { exit !(p <= l) }'; then
    echo "make-alarm-sound: decoded peak $peak_dbfs dBFS is above $peak_limit_dbfs dBFS" >&2
    exit 1
fi

mv "$work/alarm.mp3" "$output"
echo "make-alarm-sound: wrote $output ($(stat -c %s "$output") bytes, $decoded_frames frames," \
     "peak $peak_dbfs dBFS)"
