# eggtimer: `make run` opens the egg menu, `make test` runs the tests. Both install the missing
# Debian packages first.
SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=
# The packages the build needs (pkg-config finds the two C libraries for SwiftPM; libmosquitto's
# header is read from /usr/include and the library is loaded at run time, only with --mqtt; so are
# libespeak-ng's and libsamplerate's, loaded only to speak, and libmicrohttpd's with GnuTLS's,
# loaded only for --http).
BUILD_PACKAGES := pkg-config libasound2-dev libmpg123-dev libmosquitto-dev libespeak-ng-dev libsamplerate0-dev libmicrohttpd-dev
RELEASE_FLAGS := -c release --static-swift-stdlib

# Link libstdc++ statically too. The toolchain's static-stdlib link line asks for -lstdc++; a
# linker script of that name, found first, points it at the archive. Loading libstdc++.so was
# half of the start-up time and ~1 MB of RSS (BENCHMARKS.md). Skipped where gcc has no archive.
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
LIBSTDCXX_ARCHIVE := $(shell gcc -print-file-name=libstdc++.a 2>/dev/null)
ifneq ($(filter /%,$(LIBSTDCXX_ARCHIVE)),)
RELEASE_FLAGS += -Xlinker -L$(STATIC_CXX_DIR)
# libgcc (the unwinder the static libstdc++ calls) goes in statically too, so the binary needs only
# libasound, libmpg123, libm, libc and the loader.
RELEASE_FLAGS += -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
RELEASE_PREREQUISITES := $(STATIC_CXX_DIR)/libstdc++.so
endif

# Reproducible: the clone's folder is mapped out of the debug info (paths in #file strings, the
# DWARF the linker's content-based build id hashes, the C modules' paths), so two clones of one
# commit in different folders link the same bytes (`make deb`, scripts/make-deb.sh). Two more
# things hash the folder: the debug info's references to the C modules' cache files (whose names
# hash their paths: no breadcrumbs, the modules are header-only shims) and the per-file LLVM
# module hashes kept for incremental release builds (off: a changed module's files are all
# compiled again, whole-module as before).
RELEASE_FLAGS += -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=.
RELEASE_FLAGS += -Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs
RELEASE_FLAGS += -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen
RELEASE_FLAGS += -Xlinker --build-id=sha1

.PHONY: lint all deps build release run test test-any-day test-services test-browser test-home-assistant test-audio generate install uninstall deb test-package sound sanitize-address sanitize-thread valgrind fuzz bench bench-quick clean

all: build

deps:
	@sh scripts/ensure-deps.sh $(BUILD_PACKAGES)

build: deps
	$(SWIFT) build

# The release binary (.build/release is SwiftPM's link to the folder of this machine's triple).
# Made by make's own freshness, not by asking SwiftPM: when no source is newer than the binary,
# `make run`, `make install` and `make deb` use it as it is and never start SwiftPM, which would
# plan the whole build again when run as another user (`sudo make install` after `make run`:
# 33 s, issue 24). The touch marks a build that found nothing to relink as up to date. Only the
# product is built: the test support libraries (TestSupport imports Testing) stay out of it.
RELEASE_BINARY := .build/release/eggtimer
# dist/eggtimer.1.in is built in through its link in Sources (which find's -type f skips).
RELEASE_SOURCES := Makefile Package.swift dist/eggtimer.1.in $(shell find Sources -type f 2>/dev/null)
release: $(RELEASE_BINARY)

$(RELEASE_BINARY): $(RELEASE_SOURCES) $(RELEASE_PREREQUISITES) | deps
	@$(SWIFT) build --product eggtimer $(RELEASE_FLAGS)
	@touch "$@" 2>/dev/null || true

$(STATIC_CXX_DIR)/libstdc++.so:
	@mkdir -p "$(STATIC_CXX_DIR)"
	@echo "INPUT($(LIBSTDCXX_ARCHIVE))" > "$@"

# The egg menu (or: make run ARGS="soft -D null"). No command lines echoed; quitting or cancelling
# (status 1) is not a failure of make, any other failure is one line (scripts/run.sh).
run: release
	@sh scripts/run.sh $(RELEASE_BINARY) $(ARGS)

# HeardTests and BrokerTests need real services and run only from test-services (below). Then the install
# checks (scripts/test-install.sh: make install into a temporary DESTDIR, the binary, man page,
# completion and units there, make uninstall), outside `swift test` as they need a release build.
# Every program a test runs is named with its package in Tests/TestSupport/SystemTool.swift, and
# a test fails if that package is in none of these lists. The tests run in a private network
# namespace with only loopback (scripts/isolated.sh, iproute2), so nothing they do leaves the machine.
# SpeechTests load the real libespeak-ng (with its voice data) and libsamplerate; the reference
# synthesis the capture tests compare with (Tests/Shims/espeak-first.c) is built with gcc against
# libespeak-ng-dev, which `deps` (BUILD_PACKAGES) installs. WebServerTests load the real
# libmicrohttpd (and its GnuTLS) over loopback; their TLS test makes its certificate with openssl.
# ListeningTests load the real libpocketsphinx and libsphinxbase with the US English model, and
# recognise commands that the espeak-ng program speaks, resampled to 16 kHz with sox.
# Last, the benchmark's own unit tests (bench/tests: its statistics, gap detection and HTTP
# readers, python3's unittest), ending with their count for CI.
# (libpocketsphinx-dev and libsphinxbase-dev only for ListeningTests' check of the shim's
# hand-copied types against the headers: the build itself needs no recogniser header.)
TEST_PACKAGES := man-db bash-completion systemd binutils iproute2 util-linux coreutils dash bash gcc tzdata perl-base mount libespeak-ng1 espeak-ng-data libsamplerate0 libmicrohttpd12 openssl python3 libpocketsphinx3 libsphinxbase3 pocketsphinx-en-us espeak-ng sox libpocketsphinx-dev libsphinxbase-dev
ISOLATED := sh scripts/isolated.sh
test: deps
	@sh scripts/ensure-deps.sh $(TEST_PACKAGES)
	$(ISOLATED) $(SWIFT) test --skip HeardTests --skip BrokerTests --skip HostileFolderTests
	sh scripts/test-install.sh
	python3 -B -m bench.tests

# The same tests on another day in a far time zone: the whole suite and every process it starts
# read a wall clock SHIFT_DAYS days (and a few hours) ahead through the tests' preload shim
# (Tests/Shims/realtime-shift.c, CLOCK_REALTIME only), in TZ=Pacific/Kiritimati (UTC+14).
SHIFT_DAYS ?= 1000
test-any-day: deps
	@sh scripts/ensure-deps.sh $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	sh scripts/test-any-day.sh $(SHIFT_DAYS) $(ISOLATED) $(SWIFT) test --skip-build --skip HeardTests --skip BrokerTests --skip HostileFolderTests

# Tests against real services the tests start themselves on loopback, in private folders:
# what a listener hears (HeardTests: eggtimer through ALSA's pulse plugin into a private PulseAudio
# server with a null sink, its monitor recorded with parec) and the MQTT house bus (BrokerTests: a
# private Mosquitto broker per test on a free 127.0.0.1 port, mosquitto_sub/mosquitto_pub). Kept
# out of `make test`: while any PulseAudio server runs, the pulseaudio package points the system's
# ALSA `default` at it (/etc/alsa/conf.d/99-pulse.conf), and installing Debian's mosquitto enables a
# system broker; running tests must do neither to a kitchen Pi. HostileFolderTests (issue 40) need
# root: each gives a folder to another user id (chown) inside a mount namespace of its own.
SERVICE_TEST_PACKAGES := pulseaudio pulseaudio-utils libasound2-plugins mosquitto mosquitto-clients openssl iproute2 util-linux mount coreutils
test-services: deps
	@sh scripts/ensure-deps.sh $(SERVICE_TEST_PACKAGES)
	$(ISOLATED) $(SWIFT) test --filter 'HeardTests|BrokerTests|HostileFolderTests'

# The phone page in real browsers (issues 30 and 44, Tests/browser/*.py, unittest), every test in
# two engines: headless Chromium through chromedriver, then WebKitGTK (the engine of Safari, not
# Safari on iOS) through WebKitWebDriver and its MiniBrowser on a private Xvfb that the tests start
# inside the namespace (software GL from libgl1-mesa-dri: without an EGL driver WebKitGTK's page
# process aborts). Driven by python3-selenium (Debian's python3, not another on PATH), against the
# debug build's `eggtimer kitchen --http` on loopback in private folders, a private Mosquitto for
# the house's timers; run isolated, fetching nothing from outside. Screenshots of its screens at
# 360x740 go to .build/screenshots/ENGINE/. It ends with `browser tests: N passed, 0 failed`,
# both engines counted.
BROWSER_TEST_PACKAGES := chromium chromium-driver webkit2gtk-driver xvfb libgl1-mesa-dri fonts-dejavu-core python3 python3-selenium libmicrohttpd12 mosquitto mosquitto-clients iproute2 util-linux
test-browser: deps
	@sh scripts/ensure-deps.sh $(BROWSER_TEST_PACKAGES)
	$(SWIFT) build
	$(ISOLATED) /usr/bin/python3 -B Tests/browser/run.py

# Against a real Home Assistant (issue 45, Tests/homeassistant/*.py, unittest): Home Assistant core
# from PyPI in a venv, .build/ha-venv, made with a Python >= 3.13 found on PATH or under pyenv
# (none: one line, exit 69), pinned in Tests/homeassistant/requirements.txt (its version is pinned
# there and nowhere else) and constraints.txt, reused while those pins hold (venv.py; pip runs
# outside the private namespace, as it needs PyPI). Then, isolated: a private Mosquitto, Home
# Assistant started once on loopback in a private config folder (--skip-pip: it installs
# nothing), onboarded and given its MQTT integration through its REST API, and the debug build's
# `eggtimer kitchen --mqtt --http` (on loopback) in private folders, checked only through Home Assistant's REST and
# websocket APIs and its log. It ends with `home assistant tests: N passed, 0 failed`.
HA_TEST_PACKAGES := python3 libmicrohttpd12 mosquitto mosquitto-clients iproute2 util-linux
test-home-assistant: deps
	@sh scripts/ensure-deps.sh $(HA_TEST_PACKAGES)
	$(SWIFT) build
	/usr/bin/python3 -B Tests/homeassistant/venv.py
	$(ISOLATED) .build/ha-venv/bin/python -B Tests/homeassistant/run.py

# The old name of test-services.
test-audio: test-services

# What install writes besides the binary and the sound, made from the release binary's option
# tables (hidden --print-man, --print-completion) and dist/systemd/*.in, for PREFIX: .build/dist/.
DIST := $(CURDIR)/.build/dist
UNITS := eggtimer@.service eggtimer-recover.service eggtimer-kitchen.service
generate: release
	mkdir -p "$(DIST)"
	$(RELEASE_BINARY) --print-man > "$(DIST)/eggtimer.1"
	$(RELEASE_BINARY) --print-completion bash > "$(DIST)/eggtimer.bash"
	for unit in $(UNITS); do sed 's|@BINDIR@|$(PREFIX)/bin|g' "dist/systemd/$$unit.in" > "$(DIST)/$$unit"; done

# PREFIX/bin/eggtimer (stripped), PREFIX/share/eggtimer/alarm_sound.mp3, the man page, the bash
# completion and the systemd user units; `make uninstall` with the same PREFIX/DESTDIR removes them.
install: generate
	@sh scripts/ensure-deps.sh binutils
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SERVICES="$(UNITS)" sh scripts/install.sh install $(RELEASE_BINARY) "$(DIST)"

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SERVICES="$(UNITS)" sh scripts/install.sh uninstall

# The Debian package: .build/eggtimer_VERSION_ARCH.deb (or in DEBDIR) from the release binary and
# `generate`'s files for PREFIX /usr (scripts/make-deb.sh: the version, Depends by dpkg-shlibdeps,
# the layout, reproducible bytes). On a Pi with the Swift toolchain it makes the arm64 package.
DEBDIR ?= $(CURDIR)/.build
DEB_DIST := $(CURDIR)/.build/deb-dist
# The libraries eggtimer loads with dlopen only when a feature asks for them (libmosquitto1:
# --mqtt; libespeak-ng1 with its voices espeak-ng-data, and libsamplerate0: a spoken line;
# libmicrohttpd12, which brings GnuTLS: --http), which the package recommends rather than depends on. Later features add theirs here.
DEB_RECOMMENDS := libmosquitto1 libespeak-ng1 espeak-ng-data libsamplerate0 libmicrohttpd12
DEB_PACKAGES := dpkg-dev binutils
deb: deps
	@sh scripts/ensure-deps.sh $(DEB_PACKAGES)
	@$(MAKE) --no-print-directory -s generate PREFIX=/usr DIST="$(DEB_DIST)"
	@DEB_RECOMMENDS="$(DEB_RECOMMENDS)" sh scripts/make-deb.sh $(RELEASE_BINARY) "$(DEB_DIST)" "$(DEBDIR)"

# The package tried for real, as root (scripts/test-package.sh): lintian, apt-get install (always
# purged after), the installed binary, man page, completion and units, a ringing timer, an
# upgrade while a timer runs, purge leaving nothing, and a second clone packing the same bytes
# (REPRODUCIBLE=0 skips that slow part).
PACKAGE_TEST_PACKAGES := lintian dpkg-dev binutils man-db bash-completion systemd apt git iproute2 util-linux
test-package: deps
	@sh scripts/ensure-deps.sh $(PACKAGE_TEST_PACKAGES)
	$(ISOLATED) sh scripts/test-package.sh

# Regenerates Sounds/alarm_sound.mp3 from synthesized tones.
sound:
	@sh scripts/ensure-deps.sh sox lame
	sh scripts/make-alarm-sound.sh

# libFuzzer on every parser of outside bytes (durations, times of day, config lines, control lines,
# MQTT payloads, MP3 decoding with its sniffer), a million inputs each, one at a time (not in CI).
fuzz: deps
	sh scripts/fuzz.sh

# An end-to-end run under valgrind: no definitely-lost bytes, no invalid accesses.
valgrind: build
	@sh scripts/ensure-deps.sh valgrind
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    "$$($(SWIFT) build --show-bin-path)/eggtimer" 1 -D null --loops 2 --json </dev/null

sanitize-address: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt $(SWIFT) test --sanitize=address --build-path .build/asan

sanitize-thread: deps
	$(SWIFT) test --sanitize=thread --build-path .build/tsan

# Benchmarks: eggtimer and its peers side by side; writes BENCHMARKS.md (bench/README.md). The
# kitchen's HTTP figures need libmicrohttpd at run time (the kitchen loads it with dlopen for --http).
BENCH_PACKAGES := valgrind mpg123 alsa-utils sox espeak-ng libpocketsphinx3 libsphinxbase3 pocketsphinx-en-us python3 python3-pip pulseaudio pulseaudio-utils libasound2-plugins mosquitto mosquitto-clients iproute2 util-linux libmicrohttpd12
bench: release
	@sh scripts/ensure-deps.sh $(BENCH_PACKAGES)
	-python3 bench/bench.py --install-peers
	$(ISOLATED) python3 bench/bench.py --binary "$(CURDIR)/$(RELEASE_BINARY)"

# A few seconds of the same measurements, so the benchmark cannot rot; never fails on a figure.
bench-quick: release
	@sh scripts/ensure-deps.sh $(BENCH_PACKAGES)
	-python3 bench/bench.py --install-peers
	$(ISOLATED) python3 bench/bench.py --quick --binary "$(CURDIR)/$(RELEASE_BINARY)"

# swift-format with the project's rules (.swift-format): doc comments, no force-try.
lint:
	$(SWIFT) format lint --strict -r Sources Tests

clean:
	rm -rf .build
