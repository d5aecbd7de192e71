#!/bin/sh
# Builds the libFuzzer targets (duration parser, MP3 decoding) with ASan and runs each for
# RUNS inputs (default one million). Corpora and crash files go to .build/fuzz/.
set -eu
runs="${RUNS:-1000000}"
out=.build/fuzz
mkdir -p "$out/corpus-duration" "$out/corpus-sound"
# Seeds: what users type, and the shipped sound's first 4 KiB.
for seed in 90 1:30 1:02:03 7m30s 1h2m3s 1.5m 1h30 0 abc 1:75 999:59:59; do
    printf '%s' "$seed" > "$out/corpus-duration/seed-$(printf '%s' "$seed" | tr ':.' '__')"
done
head -c 4096 Sounds/alarm_sound.mp3 > "$out/corpus-sound/seed-head"

swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzDuration \
    Tests/Fuzz/DurationParserFuzz.swift Sources/TimerCore/*.swift -o "$out/fuzz-duration"
# shellcheck disable=SC2046
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzSound \
    -I Sources/CAlsa -I Sources/CMpg123 $(pkg-config --cflags-only-I alsa libmpg123 | sed 's/-I/-Xcc -I/g') \
    Tests/Fuzz/SoundDecodeFuzz.swift Sources/AlarmAudio/*.swift -lasound -lmpg123 -o "$out/fuzz-sound"

cd "$out"
./fuzz-duration -runs="$runs" -max_len=64 -print_final_stats=1 corpus-duration
./fuzz-sound -runs="$runs" -max_len=8192 -print_final_stats=1 corpus-sound
