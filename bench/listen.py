"""The kitchen's ears (issue 46): `eggtimer kitchen --listen mic`, the real listener, fed speech
synthesised by espeak-ng (the texts of bench/voice_corpus.py; the audio is made here and never kept)
through an ALSA capture device that reads a FIFO (alsa-lib's `file` plugin with `infile`, defined in
the `.asoundrc` of a private HOME), faster than real time except where time is the figure.

Figures: commands recognised exactly (the kitchen's `listen: heard "..."` line against the words
said), spoken starts whose duration was misheard and acted on without asking again, false wakes
(anything the kitchen acted on or asked again) per hour of unrelated speech and per hour of noise
(sox: white, pink and brown noise, noise bursts at 3 Hz, a slow swell), the end of speech to the
answer (fed in real time: the last sample of speech written to the kitchen's `voice: saying` line),
and the kitchen's CPU per second of audio while it listens, with the factor assumed for a
Raspberry Pi 4. Standard library only."""

import fcntl
import os
import random
import re
import statistics
import subprocess
import sys
import termios
import threading
import time
import warnings

from bench import voice_corpus
from bench.figures import Result
from bench.harness import child_env, now_ns, private_folder, track, untrack

RATE = 16000
# Writes are whole multiples of 100 ms periods and of 4 KiB pages (3.2 s): alsa-lib's file plugin
# pads a short read of its infile with stale samples.
BLOCK_BYTES = 102400
# The factor assumed from this machine's x86-64 core to a Raspberry Pi 4's Cortex-A72 at 1.5 GHz
# for PocketSphinx's decoding: 5 (single-thread integer and float benchmarks put the A72 at a
# quarter to a sixth of a recent x86-64 core; assumed, not measured here).
PI4_FACTOR = 5
NOISE = None


def _noise(length):
    """`length` bytes of quiet noise (±20 of 32767), the same every run: pure digital silence is no
    microphone's, and PocketSphinx's cepstral mean goes wrong on it."""
    global NOISE
    if NOISE is None:
        generator = random.Random(46)
        NOISE = b"".join(generator.randint(-20, 20).to_bytes(2, "little", signed=True) for _ in range(RATE * 4))
    return (NOISE * (length // len(NOISE) + 1))[:length]


def _mix(samples, noise):
    """`samples` + `noise` (S16LE bytes of one length), saturating."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import audioop
        return audioop.add(samples, noise, 2)
    except ImportError:
        a = memoryview(samples).cast("h")
        b = memoryview(noise).cast("h")
        return b"".join(max(-32768, min(32767, x + y)).to_bytes(2, "little", signed=True) for x, y in zip(a, b))


def speech(folder, text, voice, speed, lead_s=0.5, tail_s=1.0):
    """`text` said by espeak-ng, 16 kHz mono S16LE, between quiet stretches, over the quiet noise."""
    wave, raw = os.path.join(folder, "say.wav"), os.path.join(folder, "say.raw")
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", wave, "--", text], check=True,
                   capture_output=True)
    subprocess.run(["sox", "-D", wave, "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-L",
                    "-t", "raw", raw], check=True, capture_output=True)
    with open(raw, "rb") as f:
        said = f.read()
    quiet = lambda seconds: bytes(int(seconds * RATE) * 2)
    signal = quiet(lead_s) + said + quiet(tail_s)
    return _mix(signal, _noise(len(signal)))


def noise_kinds(folder, seconds):
    """Kitchen-like noises from sox, each `seconds` long: (name, S16LE bytes)."""
    kinds = [
        ("white noise", ["synth", str(seconds), "whitenoise", "vol", "0.05"]),
        ("pink noise", ["synth", str(seconds), "pinknoise", "vol", "0.3"]),
        ("brown noise swelling", ["synth", str(seconds), "brownnoise", "tremolo", "0.2", "90"]),
        ("noise bursts at 3 Hz", ["synth", str(seconds), "whitenoise", "vol", "0.2", "tremolo", "3", "100"]),
        ("loud white noise", ["synth", str(seconds), "whitenoise", "vol", "0.5"]),
    ]
    out = []
    for name, effects in kinds:
        raw = os.path.join(folder, "noise.raw")
        subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-L",
                        "-t", "raw", raw] + effects, check=True, capture_output=True)
        with open(raw, "rb") as f:
            out.append((name, f.read()))
        os.remove(raw)
    return out


class Kitchen:
    """`eggtimer kitchen --listen mic` with its log read by a thread, each line stamped on arrival."""

    def __init__(self, binary, folder):
        self.home = os.path.join(folder, "home")
        os.makedirs(self.home, exist_ok=True)
        self.fifo = os.path.join(self.home, "mic.fifo")
        if not os.path.exists(self.fifo):
            os.mkfifo(self.fifo, 0o600)
        with open(os.path.join(self.home, ".asoundrc"), "w") as f:
            f.write(f'pcm.mic {{ type file slave.pcm "null" file "/dev/null" infile "{self.fifo}" format "raw" }}\n')
        config = os.path.join(folder, "config")
        with open(config, "w") as f:
            f.write("device = null\n")
        self.env = child_env({"HOME": self.home, "EGGTIMER_CONFIG": config})
        self.writer = os.open(self.fifo, os.O_RDWR | os.O_CLOEXEC)
        fcntl.fcntl(self.writer, 1031, 1 << 20)  # F_SETPIPE_SZ
        self.binary = binary
        self.lines = []
        self.lock = threading.Lock()
        self.process = track(subprocess.Popen(
            [binary, "kitchen", "--keys", "none", "--listen", "mic", "--listen-labels", "pasta"],
            env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            with self.lock:
                self.lines.append((now_ns(), raw.decode("utf-8", "replace").rstrip("\n")))

    def wait_line(self, pattern, after=0, timeout_s=15.0):
        """The first line from index `after` matching `pattern`: (index, t_ns, text), or None."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                for index in range(after, len(self.lines)):
                    if re.search(pattern, self.lines[index][1]):
                        return index, self.lines[index][0], self.lines[index][1]
            time.sleep(0.005)
        return None

    def count(self):
        with self.lock:
            return len(self.lines)

    def since(self, index):
        with self.lock:
            return [text for _, text in self.lines[index:]]

    def hear(self, samples):
        """Writes `samples`, padded with the quiet noise to whole blocks."""
        padding = (-len(samples)) % BLOCK_BYTES
        data = samples + _noise(padding)
        view = memoryview(data)
        while view:
            written = os.write(self.writer, view)
            view = view[written:]

    def drained(self, timeout_s=60.0):
        """Waits until the kitchen has read everything written (FIONREAD on the FIFO is 0)."""
        deadline = time.monotonic() + timeout_s
        buffer = bytearray(4)
        while time.monotonic() < deadline:
            fcntl.ioctl(self.writer, termios.FIONREAD, buffer)
            if int.from_bytes(buffer, sys.byteorder) == 0:
                return True
            time.sleep(0.005)
        return False

    def cpu_s(self):
        """The kitchen's user + system CPU time so far, in seconds (/proc/PID/stat)."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        subprocess.run([self.binary, "cancel", "--all"], env=self.env, capture_output=True, timeout=30)
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        untrack(self.process)
        os.close(self.writer)


HEARD = re.compile(r'^listen: heard "([^"]*)"( \(unsure\))?')
DURATION = re.compile(r"(minute|minutes|hour|a half)$")


def _settle(kitchen, mark):
    """After a write: waits until the kitchen read it all, then up to 1.5 s for a `listen: heard`
    line after `mark` (the cutter ends an utterance after its 600 ms tail, the decoding takes a
    tenth of its length); the heard line's words and whether it was unsure, or None."""
    kitchen.drained()
    found = kitchen.wait_line(r"^listen: heard ", after=mark, timeout_s=1.5)
    if found is None:
        return None
    match = HEARD.match(found[2])
    return (match.group(1), match.group(2) is not None) if match else None


def measure(bench):
    result = Result("the real kitchen's log lines against what espeak-ng was made to say")
    missing = [tool for tool in ("espeak-ng", "sox") if subprocess.run(["sh", "-c", f"command -v {tool}"],
                                                                       capture_output=True).returncode != 0]
    if missing or not os.path.exists("/usr/share/pocketsphinx/model/en-us/en-us/mdef"):
        result.detail(f"### Listening\n\nNot measured: {', '.join(missing) or 'pocketsphinx-en-us'} missing.\n")
        return result
    quick = bench.s.quick
    folder = os.path.join(private_folder(), "listen")
    os.makedirs(folder, exist_ok=True)
    kitchen = Kitchen(bench.binary, folder)
    try:
        if kitchen.wait_line(r"^kitchen: listening on") is None:
            result.detail("### Listening\n\nThe kitchen did not start listening:\n\n    "
                          + "\n    ".join(kitchen.since(0)[-5:]) + "\n")
            return result
        _commands(kitchen, folder, quick, result)
        _false_wakes(kitchen, folder, quick, result)
        _answer_time(kitchen, folder, quick, result)
    finally:
        kitchen.close()
    return result


def _commands(kitchen, folder, quick, result):
    lines = [line.split("\t") for line in voice_corpus.lines(quick=quick)]
    commands = [fields for fields in lines if fields[0] == "command"]
    if quick:
        commands = commands[::9]
    exact, unsure, wrong, wrong_acted, uncaught, unheard = 0, 0, [], [], [], 0
    cpu_before, audio_s = kitchen.cpu_s(), 0.0
    for _, voice, speed, said, expected in commands:
        mark = kitchen.count()
        samples = speech(folder, said, voice, int(speed))
        kitchen.hear(samples)
        audio_s += len(samples) / 2 / RATE
        heard = _settle(kitchen, mark)
        if heard is None:
            unheard += 1
            continue
        words, was_unsure = heard
        if words == expected and not was_unsure:
            exact += 1
        elif was_unsure:
            unsure += 1
        is_start = not was_unsure and (DURATION.search(words) or words.endswith(" egg"))
        started = is_start and kitchen.wait_line(r": started, rings in", after=mark, timeout_s=5) is not None
        if words != expected and DURATION.search(expected) and DURATION.search(words):
            wrong.append(f"{voice}@{speed} {expected[10:]} → {words[10:]}" + (" (asked again)" if was_unsure else ""))
            if started:
                # The cook hears the answer ("Timer, thirty minutes") and says "no", in the same voice.
                wrong_acted.append(wrong[-1])
                undo = kitchen.count()
                kitchen.hear(speech(folder, "no", voice, int(speed)))
                kitchen.drained()
                if kitchen.wait_line(r"^listen: .*: cancelled", after=undo, timeout_s=3) is None:
                    uncaught.append(wrong[-1])
        if started:
            subprocess.run([kitchen.binary, "cancel", "--all"], env=kitchen.env, capture_output=True, timeout=30)
    commands_cpu = kitchen.cpu_s() - cpu_before
    durations = sum(1 for fields in commands if DURATION.search(fields[4]))
    # Every command is a whole utterance, so each is decoded: the listener's worst case.
    result.add("listen_cpu_core_s_per_audio_s_commands", commands_cpu / max(audio_s, 0.1))
    result.add("listen_cpu_pi4_estimate", commands_cpu / max(audio_s, 0.1) * PI4_FACTOR)
    result.add("listen_commands", len(commands))
    result.add("listen_commands_exact_pct", 100.0 * exact / max(1, len(commands)))
    result.add("listen_durations_misheard_acted_pct", 100.0 * len(wrong_acted) / max(1, durations))
    result.add("listen_durations_misheard_acted", len(wrong_acted))
    result.add("listen_durations_misheard_uncaught", len(uncaught))
    result.detail(
        f"### Listening: commands\n\n{len(commands)} commands ({'every 9th of the quick corpus' if quick else 'the corpus'} "
        f"of bench/voice_corpus.py: voices {', '.join(voice_corpus.VOICES[:2] if quick else voice_corpus.VOICES)}, "
        f"{' and '.join(map(str, voice_corpus.SPEEDS))} words a minute, after \"egg timer,\"), each written to the "
        f"kitchen's microphone and read from its `listen: heard` line: {exact} exact, {unsure} asked again "
        f"(unsure), {unheard} not heard (no line), {len(wrong)} durations of {durations} heard as another, "
        f"{len(wrong_acted)} of them started (answered with the wrong time); the cook's \"no\" after the answer, "
        f"said in the same voice, cancelled all but {len(uncaught)} ({'; '.join(uncaught) or 'none'}). Each "
        f"start was cancelled (`eggtimer cancel --all`) before the next command. The kitchen's CPU (user + system, /proc/PID/stat, all threads) over the "
        f"{audio_s:.0f} s of speech and quiet said: {commands_cpu:.2f} s, "
        f"{commands_cpu / max(audio_s, 0.1):.4f} core-seconds per second of audio on one core here, every "
        f"utterance decoded; on a Raspberry Pi 4 assumed {PI4_FACTOR}x slower (single-thread benchmarks put its "
        f"Cortex-A72 at 1.5 GHz at a quarter to a sixth of a recent x86-64 core; not measured here): "
        f"{commands_cpu / max(audio_s, 0.1) * PI4_FACTOR:.3f}, real time with room to spare when below 0.5. Misheard: {'; '.join(wrong[:40]) or 'none'}{' …' if len(wrong) > 40 else ''}.\n")


def _false_wakes(kitchen, folder, quick, result):
    paragraphs = voice_corpus.UNRELATED
    voices = ["en-us", "en", "en-us+f2", "en+m3", "en-gb"]
    speeds = [130, 170] if quick else list(range(120, 230, 10))
    budget_s = 120 if quick else 3600
    audio_s, woken = 0.0, []
    cpu_before, audio_before = kitchen.cpu_s(), 0.0
    mark = kitchen.count()
    done = False
    for speed in speeds:
        for voice in voices:
            for paragraph in paragraphs:
                samples = speech(folder, paragraph, voice, speed, lead_s=0.3, tail_s=0.7)
                kitchen.hear(samples)
                audio_s += (len(samples) + (-len(samples)) % BLOCK_BYTES) / 2 / RATE
                if audio_s >= budget_s:
                    done = True
                    break
            if done:
                break
        if done:
            break
    kitchen.drained(timeout_s=600)
    time.sleep(1.5)  # the last utterance's decoding and line
    woken = [line for line in kitchen.since(mark) if line.startswith("listen: heard")]
    speech_cpu = kitchen.cpu_s() - cpu_before
    result.add("listen_false_wakes_per_h_speech", len(woken) * 3600.0 / audio_s)
    noise_s = 60 if quick else 720
    mark = kitchen.count()
    noise_audio, names = 0.0, []
    cpu_before = kitchen.cpu_s()
    for name, samples in noise_kinds(folder, noise_s):
        kitchen.hear(samples)
        noise_audio += (len(samples) + (-len(samples)) % BLOCK_BYTES) / 2 / RATE
        names.append(name)
    kitchen.drained(timeout_s=600)
    time.sleep(1.5)  # the last utterance's decoding and line
    noise_woken = [line for line in kitchen.since(mark) if line.startswith("listen: heard")]
    noise_cpu = kitchen.cpu_s() - cpu_before
    result.add("listen_false_wakes_per_h_noise", len(noise_woken) * 3600.0 / noise_audio)
    per_audio_s = (speech_cpu + noise_cpu) / (audio_s + noise_audio)
    result.add("listen_cpu_core_s_per_audio_s", per_audio_s)
    result.detail(
        f"### Listening: false wakes and CPU\n\nUnrelated speech: the {len(paragraphs)} paragraphs of "
        f"bench/voice_corpus.py in voices {', '.join(voices)} at {speeds[0]} to {speeds[-1]} words a minute, "
        f"{audio_s / 60:.1f} min in all: {len(woken)} acted on or asked again ({'; '.join(woken) or 'none'}). "
        f"Noise from sox ({', '.join(names)}; {noise_s} s each, {noise_audio / 60:.1f} min): {len(noise_woken)} "
        f"({'; '.join(noise_woken) or 'none'}). Both fed faster than real time. The kitchen's CPU (user + "
        f"system, /proc/PID/stat, all threads) over that audio: {speech_cpu + noise_cpu:.1f} s for "
        f"{(audio_s + noise_audio) / 60:.1f} min, {per_audio_s:.4f} core-seconds per second of audio on one "
        f"core here (a piece of a long stretch is not decoded: only an utterance that stands alone may be a "
        f"command).\n")


def _answer_time(kitchen, folder, quick, result):
    """End of speech to the answer, fed in real time: 100 ms blocks written on the wall clock's
    pace, the instant the last block holding speech was written against the arrival of the
    kitchen's `voice: saying` line (the answer made, about to play)."""
    times = []
    runs = 3 if quick else 10
    for index in range(runs):
        voice = ["en-us", "en", "en-us+f2", "en+m3"][index % 4]
        lead = bytes(int(0.5 * RATE) * 2)
        said = speech(folder, "egg timer, how long is left", voice, 150, lead_s=0, tail_s=0)
        tail = bytes(int(2.0 * RATE) * 2)
        audio = _mix(lead, _noise(len(lead))) + said + _mix(tail, _noise(len(tail)))
        speech_end = len(lead) + len(said)
        block = RATE // 10 * 2
        audio += _noise((-len(audio)) % block)
        mark = kitchen.count()
        start = time.monotonic()
        end_ns = None
        for offset in range(0, len(audio), block):
            delay = start + offset / 2 / RATE - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            os.write(kitchen.writer, audio[offset:offset + block])
            if end_ns is None and offset + block >= speech_end:
                end_ns = now_ns()
        found = kitchen.wait_line(r"^voice: saying ", after=mark, timeout_s=5)
        if found is not None and end_ns is not None:
            times.append((found[1] - end_ns) / 1e6)
        kitchen.drained()
    if times:
        result.add("listen_answer_ms_median", statistics.median(times), samples=times, unit="ms")
        result.add("listen_answer_ms_max", max(times), samples=times, unit="ms")
    result.detail(
        f"### Listening: end of speech to answer\n\n\"egg timer, how long is left\" in {runs} voices, written "
        f"in 100 ms blocks at the pace of real time: the instant the block holding the last sample of speech "
        f"was written to the arrival of the kitchen's `voice: saying` line (the answer synthesised, about to "
        f"play), in ms: {', '.join(f'{t:.0f}' for t in times) or 'none answered'}. It holds the 600 ms of "
        f"quiet that end an utterance, the decoding and espeak-ng's synthesis of the answer.\n")
