#!/bin/sh
# Builds the libFuzzer targets, one per parser of outside bytes, with ASan and runs each (one at a
# time, niced) for RUNS inputs (default one million): durations, times of day (eggtimer at),
# start requests (MQTT start payloads, the kitchen's socket),
# config lines, control-socket lines, MQTT payloads (commands, states, JSON), MP3 decoding with
# the sniffer, and timer records (the record's format, its resumption plan and a kept record's
# line live in TimerEngine: that fuzz target links it and the libraries below it, each built as a
# module, and none of the executable's sources).
# Corpora and crash files go to .build/fuzz/. FUZZ_TARGETS="duration time" runs only those.
set -eu
runs="${RUNS:-1000000}"
targets="${FUZZ_TARGETS:-duration time start config control bus sound record keys}"
out=.build/fuzz
mkdir -p "$out"
flags="-O -sanitize=fuzzer,address -parse-as-library -package-name eggtimer"
# The settings Package.swift gives every target (package imports need InternalImportsByDefault).
flags="$flags -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault"

# Seeds: what users and peers send, the boundary numbers (0, ±1, the 32- and 64-bit limits, huge
# exponents, NaN, inf, -0), and the shipped sound's first 4 KiB.
boundaries="0 -0 +0 1 -1 +1 2147483647 -2147483648 2147483648 4294967296 9223372036854775807
-9223372036854775808 9223372036854775808 18446744073709551616 1e999 -1e999 1e308 1e-999 4.9e-324
NaN nan inf -inf 0x10 0.0 -0.0"
seed() { # corpus name value
    mkdir -p "$out/corpus-$1"
    printf '%s' "$3" > "$out/corpus-$1/seed-$2"
}
n=0
for b in $boundaries; do
    n=$((n + 1))
    seed duration "b$n" "$b"; seed duration "b${n}h" "${b}h"; seed duration "b${n}c" "1:$b"
    seed time "b$n" "$b:00"; seed time "b${n}d" "$b-01-01 10:00"; seed time "b${n}o" "2026-12-24T18:00+$b"
    seed config "b$n" "volume = $b
soft = $b
weight = ${b}g
from = ${b}C"
    seed control "b$n" "eggtimer/1	snooze	$b"
    seed control "b${n}r" "ok	label=x	pid=$b	state=counting	remaining_ns=$b	deadline_ms=$b"
    seed bus "b$n" "add $b"
    seed start "b$n" "$b"; seed start "b${n}l" "${b}m tea"
    seed bus "b${n}s" "{\"state\":\"counting\",\"label\":\"l\",\"node\":\"n\",\"duration_s\":$b,\"remaining_s\":$b,\"deadline\":null}"
done
for s in 90 1:30 1:02:03 7m30s 1h2m3s 1.5m 1h30 abc 1:75 999:59:59; do seed duration "u$s" "$s"; done
for s in 14:30 7pm 7:30am noon midnight "tomorrow 07:00" "2026-12-24 18:00" 2026-12-24T18:00:30Z \
    2026-07-01T08:00-04:00 9999-12-31T23:59-23:59 0001-01-01T00:00+23:59; do
    seed time "u$(printf '%s' "$s" | tr ' :+' '_._')" "$s"
done
seed config readme '# eggtimer
device = "default"
ring-for = 5m
volume = 80
soft = 5:30
mqtt = mqtt://kitchen@hub:1883'
seed control status "eggtimer/1	status"
seed control watch "eggtimer/2	watch"
seed control reply "ok	label=tea	pid=42	state=counting	remaining_ns=1500000001	deadline_ms=1796000000000	at=2026-12-24T18:00:00+01:00"
seed bus state '{"state":"counting","label":"eggs","node":"kitchen","duration_s":420,"remaining_s":419.9,"deadline":"2026-11-30T11:02:03.123Z"}'
for s in soft Medium "hard eggs" pasta "7m30s pasta" "1:30 tea" "0.5s x" "90 rice:2" "7m --on-done x"; do
    seed start "u$(printf '%s' "$s" | tr ' :' '_.')" "$s"
done
for s in ack cancel snooze pause resume "add 60" "add -86400"; do seed bus "u$(printf '%s' "$s" | tr ' ' '_')" "$s"; done
mkdir -p "$out/corpus-record"
record_seed() { # name, deadline, remaining
    printf 'eggtimer-record 1\nlabel=tea\nkind=egg\npreset=Soft\ntotal_ns=300000000000\nstate=counting\ndeadline_boot_ns=%s\ndeadline_unix_ns=%s\nboot_id=00000000-0000-0000-0000-000000000000\npid=%s\ndevice=null\nloops=1\nvolume=100\nremaining_ns=%s\n' \
        "$2" "$2" "$3" "$3" > "$out/corpus-record/seed-$1"
}
n=0
for b in $boundaries; do n=$((n + 1)); record_seed "b$n" "$b" "$b"; done
record_seed plain 1796026323000000000 4242
mkdir -p "$out/corpus-keys"
printf '10000000000000 0\n' > "$out/corpus-keys/seed-power"
printf '120013 1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe\n' > "$out/corpus-keys/seed-keyboard"
mkdir -p "$out/corpus-sound"
head -c 4096 Sounds/alarm_sound.mp3 > "$out/corpus-sound/seed-head"
head -c 64 /dev/urandom > "$out/corpus-sound/seed-random"
for t in duration time start config control bus record keys; do head -c 48 /dev/urandom > "$out/corpus-$t/seed-random"; done

build() { # target, then sources and flags
    name=$1
    shift
    # shellcheck disable=SC2086
    nice swiftc $flags -module-name "Fuzz_$name" "$@" -o "$out/fuzz-$name"
}
# A library target as a module and a static library over the modules built before it, once per
# run: modules of an earlier run (older sources) are removed first.
rm -rf "$out/modules"
c_includes="-I Sources/CSystem -I Sources/CAlsa -I Sources/CMpg123 -I Sources/CMosquitto -I Sources/CEspeak -I Sources/CSamplerate -I Sources/CMicrohttpd"
c_includes="$c_includes $(pkg-config --cflags-only-I alsa libmpg123 | sed 's/-I/-Xcc -I/g')"
library() { # name
    [ -f "$out/modules/$1.swiftmodule" ] && return
    mkdir -p "$out/modules"
    # shellcheck disable=SC2086,SC2046
    nice swiftc $flags -module-name "$1" -emit-library -static -emit-module -I "$out/modules" $c_includes \
        -emit-module-path "$out/modules/$1.swiftmodule" $(find "Sources/$1" -name '*.swift' | sort) -o "$out/lib$1.a"
}
for t in $targets; do
    case $t in
    record)
        for l in TextCoding SystemKit TimerCore TimerModel TimerText AlarmAudio ControlChannel HouseBus TimerEngine; do
            library "$l"
        done
        # shellcheck disable=SC2086
        build record -I "$out/modules" $c_includes Tests/Fuzz/RecordFuzz.swift \
            "$out/libTimerEngine.a" "$out/libHouseBus.a" "$out/libControlChannel.a" "$out/libAlarmAudio.a" \
            "$out/libTimerText.a" "$out/libTimerModel.a" "$out/libTimerCore.a" "$out/libSystemKit.a" \
            "$out/libTextCoding.a" -lasound -lmpg123 -ldl
        ;;
    duration) build duration Tests/Fuzz/DurationParserFuzz.swift Sources/TimerCore/*.swift ;;
    time | config | start)
        library TextCoding
        library TimerCore
        library SystemKit
        source=Tests/Fuzz/AlarmTimeFuzz.swift
        [ "$t" = config ] && source=Tests/Fuzz/ConfigLineFuzz.swift
        [ "$t" = start ] && source=Tests/Fuzz/StartRequestFuzz.swift
        build "$t" -I "$out/modules" -I Sources/CSystem "$source" Sources/TimerText/*.swift "$out/libTimerCore.a" \
            "$out/libSystemKit.a" "$out/libTextCoding.a"
        ;;
    control)
        library TextCoding
        library SystemKit
        library TimerModel
        build control -I "$out/modules" -I Sources/CSystem Tests/Fuzz/ControlLineFuzz.swift \
            Sources/ControlChannel/*.swift "$out/libTimerModel.a" "$out/libSystemKit.a" "$out/libTextCoding.a"
        ;;
    bus)
        library TextCoding
        library SystemKit
        library TimerModel
        build bus -I "$out/modules" -I Sources/CSystem -I Sources/CMosquitto Tests/Fuzz/BusPayloadFuzz.swift \
            Sources/HouseBus/*.swift "$out/libTimerModel.a" "$out/libSystemKit.a" "$out/libTextCoding.a"
        ;;
    sound)
        library TextCoding
        library SystemKit
        # shellcheck disable=SC2046
        build sound -I "$out/modules" -I Sources/CAlsa -I Sources/CMpg123 -I Sources/CSystem \
            $(pkg-config --cflags-only-I alsa libmpg123 | sed 's/-I/-Xcc -I/g') \
            Tests/Fuzz/SoundDecodeFuzz.swift Sources/AlarmAudio/*.swift "$out/libSystemKit.a" "$out/libTextCoding.a" -lasound -lmpg123
        ;;
    keys)
        library TextCoding
        library SystemKit
        build keys -I "$out/modules" -I Sources/CSystem Tests/Fuzz/KeyEventFuzz.swift Sources/KeyInput/*.swift \
            "$out/libSystemKit.a" "$out/libTextCoding.a"
        ;;
    *) echo "fuzz.sh: unknown target '$t'" >&2; exit 64 ;;
    esac
done

cd "$out"
for t in $targets; do
    case $t in sound) max=8192 ;; config | record | keys) max=512 ;; start) max=256 ;; *) max=128 ;; esac
    nice "./fuzz-$t" -runs="$runs" -max_len="$max" -print_final_stats=1 "corpus-$t"
done
