// The eggtimer(1) man page's reference sections beyond the option table: the eggs by physics, the
// commands from another shell, alarms at a time, the log, the config file, the never-silent rules
// and the kitchen Pi. Moved from the README (issue 24), which now points here.

extension Options {
    /// The reference sections that follow the keys and states in ``manPage``, in troff.
    ///
    /// The config file's keys are listed from ``configSpecs``, so the page names every key the parser
    /// accepts.
    static let manDetails: String = [
        manEggs, manOtherShell, manAlarmsAtATime, manLog, manConfiguration, manNeverSilent, manSpokenLine,
        manKitchenPi, manKitchen, manKeypad,
    ].joined(separator: "\n")

    /// Paragraphs that continue the MQTT section of ``manPage``: addresses, passwords, the
    /// subcommands with `--mqtt`, `follow`, reconnects and discovery's device.
    static let manMQTTDetails = #"""
        .PP
        \fIURL\fR: \fBmqtt://\fR[\fIuser\fR@]\fIhost\fR[:\fIport\fR] (port 1883) or \fBmqtts://\fR
        (8883, with \fB\-\-mqtt\-cafile\fR). The password comes from \fB\-\-mqtt\-password\-file\fR (its
        first line) or EGGTIMER_MQTT_PASSWORD, never from the command line: a password in the URL exits
        64. Both files must be regular files (a FIFO or a device is refused at once, never waited on): one
        that is not, or cannot be read, exits 66 naming it. All of them are config\-file keys too, so a
        kitchen Pi joins with no options. Discovery configs carry \fBavailability_topic\fR and a
        \fBdevice\fR per node, and are removed when the timer ends. The availability's Last Will shows a
        Pi that lost power offline after 1.5 \(mu the keepalive (30 s), until the timer runs again.
        .PP
        \fBstatus\fR, \fBack\fR, \fBcancel\fR, \fBsnooze\fR, \fBpause\fR, \fBresume\fR and
        \fBadd\fR with \fB\-\-mqtt\fR [\fINODE\fR/\fILABEL\fR|\fILABEL\fR] collect the retained
        states (a probe message they publish to themselves marks the end: no fixed wait), then publish the
        command with QoS 1 and exit once the broker has it: 3 when no timer fits, when it is \fBoffline\fR
        (\fIkitchen/stew is offline\fR) or \fBstale\fR, or when \fBack\fR or \fBsnooze\fR names one not
        ringing (\fIsoup is counting, not ringing\fR); 64 when several fit (listed); 69 when the broker
        cannot be reached within 5 s. They read \fB\-\-mqtt\fR from the command line only.
        .PP
        \fBfollow\fR rings through its own device (\fB\-D\fR, \fB\-\-sound\fR, \fB\-\-volume\fR,
        \fB\-\-ramp\fR; the terminal bell while no device works), prints which timer rings, and a key or
        \fBkill \-USR1\fR \fIPID\fR sends \fBack\fR to every timer it shows ringing; it keeps running
        (Ctrl\-C: 130, SIGTERM: 143), says \fIkitchen/tea: stale\fR when a ringing one goes stale, and two
        followers may share a node (when one ends, the other sets the availability online again). A broker
        that is down is retried with a backoff of 1 s doubling to 30 s, and the state published again;
        host names are resolved off the event loop.
        """#

    private static let manEggs = #"""
        .SH EGGS
        \fB\-\-size\fR, \fB\-\-weight\fR, \fB\-\-from\fR, \fB\-\-altitude\fR or \fB\-\-water\fR switch
        Soft, Medium and Hard from their fixed times to Williams' heat\-conduction formula,
        t = 0.451 \(mu M^(2/3) \(mu ln(0.76 \(mu (T_egg \- T_water) / (T_yolk \- T_water)) minutes,
        M the weight in grams, the yolk at 63, 70 and 77 C, the water boiling by the standard atmosphere
        at \fB\-\-altitude\fR. The sizes are the middles of the EU weight classes; \fB\-\-from fridge\fR
        means 4 C unless \fB\-\-fridge\-temperature\fR says otherwise. The screen and the JSON
        (\fBcomputed\fR) say how: "Soft, 68 g (size L) from the fridge at 1500 m (boiling at 95 C): 5:47".
        A time given with \fB\-\-soft\fR wins; an egg that has no answer (too warm for the yolk target,
        water below it) is a usage error (exit 64).
        .PP
        Each option fits where the OPTIONS headings say: the timer options with any timer (the menu, an
        egg, a duration, \fBpomodoro\fR, \fBat\fR), the egg options with the menu and the eggs. An option
        given where it does nothing is refused (exit 64), naming it and the mode:
        \fIoption '\-\-soft' does not work with a timer of a given duration (only with the egg menu or 'soft')\fR.
        Ctrl\-C, Ctrl\-\e and SIGTERM stop the audio, restore the terminal exactly and exit 130, 131 and 143.
        """#

    private static let manOtherShell = #"""
        .SH FROM ANOTHER SHELL
        A label is one word of letters, digits, \fB\-\fR, \fB_\fR, \fB.\fR, \fB:\fR and \fB+\fR (every default label is one); a second running timer
        with the same label is refused (exit 64). \fB\-\-on\-done\fR \fICMD\fR runs \fB/bin/sh \-c\fR
        \fICMD\fR at the deadline (never for a cancelled timer), in its own process group, with a clean
        signal state and without EGGTIMER_MQTT_PASSWORD in its environment; its failure is logged, not
        fatal. \fBkill \-USR1\fR \fIPID\fR acknowledges. Nothing to act on exits 3; several candidates
        exit 64 and are listed.
        .PP
        A timer that takes the connection but does not answer within 1 s is still running:
        \fBstatus\fR counts it under the table (\fI1 timer running, not answering:\fR), one line each
        (\fIjc: stopped (SIGSTOP or Ctrl\-Z), not answering (pid 4242; ...)\fR, or \fIno answer within
        1 s\fR); with \fB\-\-json\fR it is said on standard error. A socket whose timer is gone is passed
        over in silence.
        .PP
        \fBstatus\fR also lists every timer that can still come back: a record kept by a timer that was
        killed (\fBkill\fR, \fBsystemctl stop\fR: "ended by SIGTERM"; \fBkill \-9\fR or a crash:
        "process gone") or left by an earlier boot ("earlier boot"), with its state and the time left or
        how overdue. \fBeggtimer recover\fR starts it again; \fBeggtimer cancel\fR \fILABEL\fR forgets it
        (\fItea: not running; its kept record is removed\fR). With \fB\-\-json\fR these are objects with
        \fB"state":"kept"\fR, \fB"ended"\fR (\fBSIGTERM\fR, \fBgone\fR, \fBreboot\fR),
        \fB"recorded_state"\fR, \fBremaining_s\fR and, once the deadline passed, \fBoverdue_s\fR; a
        detached timer has \fB"detached":true\fR. A timer whose alarm reaches no device (its device
        cannot be opened, or failed while ringing: state \fBsilent\fR) is \fBsilent\fR with why: a line
        under the table, \fIwarning: Soft: silent: cannot open audio device 'hw:0': No such file or
        directory\fR, and \fB"silent":"\fR\fIREASON\fR\fB"\fR in the JSON. A kept record that cannot be removed (a read\-only state
        folder) makes \fBcancel\fR \fILABEL\fR say so and exit 71; while an \fBeggtimer recover\fR runs,
        \fBcancel\fR \fILABEL\fR waits for it (saying so) and then cancels the timer if it brought it
        back. The table ends with a line for timers that run without a control socket (a runtime folder
        too deep or refused: \fIrunning without a control socket: tea (pid 4242)\fR; \fBkill \-USR1\fR
        \fIPID\fR stops the alarm) and one naming records that cannot be read (\fBeggtimer recover\fR
        says why).
        """#

    private static let manAlarmsAtATime = #"""
        .SH ALARMS AT A TIME
        A countdown runs on the boot clock; \fBeggtimer at\fR waits on a CLOCK_REALTIME timer armed at
        its deadline and cancelled when the clock is set (NTP, \fBdate \-s\fR, a Pi without a real\-time
        clock getting its time after boot), so the local time is resolved to UTC again at once. Example
        of the rules: in Europe/Berlin 2026\-03\-29 02:30 (in the gap) rings at 03:00, and 2026\-10\-25
        02:30 (twice) at its first occurrence (CEST); the screen and the \fBstarted\fR event (\fBrule\fR)
        say which applied. JSON events carry \fBat\fR, the scheduled local time with its offset
        (\fB2026\-11\-30T07:00:00+01:00\fR); \fBstatus\fR shows the next occurrence and the series.
        .PP
        With \fB\-\-every\fR, an acknowledged or missed ring schedules the next one, \fBsnooze\fR delays
        only this ring and \fBcancel\fR ends the series. A series is recorded like a timer:
        \fBeggtimer recover\fR brings it back after a reboot or a \fBkill \-9\fR, reports in one line
        the occurrences missed meanwhile, and rings only the latest of them at once if it is within
        \fB\-\-ring\-for\fR (else an hour). \fBpause\fR, \fBresume\fR and \fBadd\fR do not apply to an
        alarm at a time: snooze or cancel it. While the kernel says the clock is not synchronised
        (\fBadjtimex\fR: STA_UNSYNC), the screen, the plain log and \fBstatus\fR warn.
        """#

    private static let manLog = #"""
        .SH LOG
        Plain log lines lead with the local time: \fI09:12:03 Soft: time is up\fR. With \fB\-\-json\fR
        each event is one object with \fBevent\fR, \fBlabel\fR, \fBduration_s\fR, \fBremaining_s\fR,
        \fBt_mono_ns\fR (CLOCK_BOOTTIME nanoseconds) and \fBtime\fR (UTC,
        \fB2026\-11\-30T09:12:03.456Z\fR), then extras (a pomodoro's \fBphase\fR, \fBcomputed\fR,
        \fBat\fR, \fBrule\fR). \fBfinished\fR means the deadline was reached; \fBsounding\fR the first
        alarm frame reached the device; \fBacknowledged\fR is logged once the device was dropped and
        carries \fBaudio_stopped_t_mono_ns\fR, and \fBsilent\fR (why) when the alarm was heard on no
        device (exit 69): the plain line is \fI09:12:03 Soft: alarm stopped (silent: cannot open audio
        device 'hw:0': No such file or directory)\fR. The label and the field names never change while the
        timer runs: \fB+\fR and \fB\-\fR change the time, not the label.
        """#

    private static var manConfiguration: String {
        #"""
        .SH CONFIGURATION
        The file (see FILES and EGGTIMER_CONFIG) holds one \fIkey\fR = \fIvalue\fR a line. A key is the
        long option's name without \fB\-\-\fR and takes what the option takes (\fBkey\-4\fR ...
        \fBkey\-9\fR, what the kitchen's keypad starts, are the file's alone: see KEYPAD); these
        are all the keys:
        """# + "\n" + configSpecs.map { "\\fB" + roff($0.key) + "\\fR" }.joined(separator: ", ") + ".\n"
            + #"""
            Spaces and tabs around the key, the \fB=\fR and the value do not count. Blank lines and lines
            starting with \fB#\fR are ignored; a \fB#\fR after a value is part of it. Double quotes keep
            leading and trailing spaces (\fBdevice = "  odd name "\fR); inside them \fB\e"\fR is a quote and
            \fB\e\e\fR a backslash, no other escape exists. Values are never empty. A relative \fBsound\fR is
            taken from the file's folder. The file is UTF\-8 (a byte\-order mark at its start is ignored). A
            missing default file is fine; a missing EGGTIMER_CONFIG file is not. Keys apply where they fit
            (\fBsoft\fR, \fBsize\fR to the menu and the eggs) and are left unused elsewhere: a key is never
            refused for the mode, as the same option on the command line is. A bad file exits 78 with one
            line naming the file, the line and the key:
            \fIeggtimer: /home/u/.config/eggtimer/config:3: volume: needs a whole number from 10 to 100
            (percent), got '200'\fR. So do an unknown key, a key given twice, a line without \fB=\fR, text
            that is not UTF\-8, a file that cannot be read, and a folder. The one\-shot subcommands never
            read it, so a broken file cannot stop an alarm.
            """#
    }

    private static let manNeverSilent = #"""
        .SH NEVER SILENT
        The sound is decoded before the countdown starts: a missing \fB\-\-sound\fR file exits 66, one that
        is not audio exits 65. A damaged install (the shipped sound missing or broken) warns and rings a
        built\-in tone through the same ALSA path. The device is tried at start (a warning names it, the
        reason, and \fB\-D\fR/\fBaplay \-L\fR), then opened again 1.5 s before the deadline so the first
        frame goes out on time. While ringing, underruns and suspends are recovered; a vanished device is
        reopened with backoff (100 ms doubling to 1 s: a device that comes back plays again within a
        second). A device another process holds is no fault: a \fBhw:\fR or \fBplughw:\fR
        card lets one process at a time play, and opening it then fails with EBUSY (another timer rings on
        it). Busy at start only warns; busy at the deadline, the timer is \fBsilent\fR ("is busy") while
        it asks again every 200 ms, without backoff, and plays its sound from the start within 200 ms
        of the other one letting the device go (acknowledged): one log line when busy and one
        (\fBdevice_recovered\fR) once it plays, and a \fB\-\-loops\fR count waits for it too. Alarms
        due together so ring one after the other, none silenced; to hear them at once, see KITCHEN PI
        (\fBdmix\fR). While no device works the terminal bell rings and the title flashes; an
        alarm that reached no device exits 69, never 0. A device call that has not returned within 500 ms
        (a stalled sound server, a Bluetooth sink or USB speaker waking from power saving, a driver stuck
        in the kernel) declares the device stalled: the timer is \fBsilent\fR, the bell takes over, the
        stuck thread is abandoned, and 250 ms later the device is tried again on a new thread, for as long
        as the alarm rings: a new try at most every 750 ms, with at most 4 stuck threads at once (then the
        next try starts the moment one of them returns, which is when the device answers again). When
        the device answers, the alarm plays again from the start of its sound (\fBdevice_recovered\fR);
        every stall in one ringing recovers the same way. \fB\-\-fallback\-device\fR \fINAME\fR (config
        \fBfallback\-device\fR) names a second device (another card, or PipeWire's or PulseAudio's
        \fBdefault\fR): a ringing whose device cannot be opened, is lost or stalls moves to it at once,
        and plays there until it ends (the next ringing tries the device first again); the start\-up check
        tries it too. Keys, Ctrl\-C and SIGTERM work throughout. A lost
        log never silences the alarm: standard output that fails (\fB| head \-n 1\fR, \fB>/dev/full\fR,
        journald restarting) stops the log with one line on standard error, and the countdown, the alarm
        and the exit status go on; standard descriptors closed at start are opened on /dev/null. Keys
        typed while the process was stopped across the deadline are dropped. Where the system allows it
        (root, CAP_SYS_NICE, or \fBLimitRTPRIO=1\fR, as the user unit sets) eggtimer asks for SCHED_FIFO
        priority 1, so a loaded machine still wakes it on time; otherwise it runs at normal priority.
        .PP
        No setting rings in silence. The alarm's gain is never below 10\~% of the sound's own amplitude
        (\-20\~dB), from its first loop frame: \fB\-\-volume\fR takes 10 to 100, and less is one line
        naming it and the least value, exit 64 (78 from the config file, naming the file and line).
        \fB\-\-ramp\fR rises from that floor, not from silence, to the volume, along the square of the
        time passed (so it sounds like an even rise), and is at most 60\~s (longer is refused the same
        way): the gain is at the floor at the first loop frame and at the full volume within 60\~s of
        it. Why: the shipped sound peaks at 60\~% of full scale, so \fB\-\-volume 1\fR peaked at 0.6\~%
        and \fB\-\-volume 0\fR wrote pure silence while the timer said \fBringing\fR; at the floor it
        still peaks at 6\~%. A timer record written by an older eggtimer with a lower volume or a
        longer ramp is recovered at 10\~% and with a 60\~s ramp, not refused.
        """#

    private static let manSpokenLine = #"""
        .SH SPOKEN LINE
        \fB\-\-say\fR \fITEXT\fR (1 to 200 bytes, no control characters) or \fB\-\-announce\fR (the
        timer's ring sentence: "Soft eggs are ready", "pasta is ready", "Five minutes are up" for a
        countdown named by its length (\fBeggtimer 5min\fR), in German "Die weichen Eier sind fertig"
        with a German voice; \fB\-\-say\fR wins over it) puts a
        spoken line at the head of each ringing, then 400\~ms of silence, then the alarm loop, in the
        same stream on the same device: three pots ringing in turn are three sentences. The first spoken
        sample goes out at the deadline exactly as the first alarm sample does without one, and the loop
        after the pause is the plain loop, sample for sample. eggtimer speaks at 140 words a minute
        (espeak\-ng's own default is 175: "pasta is ready" took 0.8\~s, now 1.0\~s), the kitchen's
        answers too: slower speech is better understood in noise and with hearing loss, and the pause
        lets the last word end before the alarm covers it. \fB\-\-volume\fR and \fB\-\-ramp\fR apply to
        the loop only: the line plays as it was spoken, and the ramp starts after the pause. Every ringing starts with it again: after
        a snooze, and when a lost device is reopened or a busy one got. \fB\-\-voice\fR \fINAME\fR picks
        an espeak\-ng voice (letters, digits, \fB\-\fR and \fB+\fR, at most 40 bytes: \fBen\-gb\fR,
        \fBde\fR, \fBen+f3\fR; by name, else by language); one espeak\-ng does not have is one line
        naming it and exit 64 at start, for a timer that speaks and for the kitchen, never a silent
        other voice. A label is spoken in any voice; the sentence around it and spoken durations are
        German for a \fBde\fR voice and English for every other. Config keys \fBannounce = yes\fR and
        \fBvoice =\fR. The record keeps all three, so a recovered timer still speaks (its voice is not
        checked again: a voice removed since is the plain alarm with one line).
        .PP
        The alarm never waits for the line. It is made when the timer starts, off the event loop, on the
        speech layer's own thread with a time bound (a one\-second line takes milliseconds), so it is
        ready long before the deadline (a timer shorter than the device's early open, 1.5 s, opens it
        before the line is made, and is started again with the line when it comes, at the same
        instant); a pause, a resume, \fBadd\fR or a snooze makes no new one. A
        line that fails is one line on standard error and the plain alarm; one still not ready when the
        device is opened for the deadline (1.5 s before it) is one line and the plain alarm for that
        ringing (later ones start with it once it comes). Without the speech library (libespeak\-ng),
        one warning at start and the plain alarm.
        """#

    private static let manKitchenPi = #"""
        .SH KITCHEN PI
        Pick the device by name (\fBaplay \-L\fR, the lines that do not start with a space; the bash
        completion offers them after \fB\-D\fR): card numbers change with the order USB devices appear.
        On Raspberry Pi OS Lite (plain ALSA) name the card: \fBsysdefault:CARD=Headphones\fR for the jack,
        \fBsysdefault:CARD=vc4hdmi0\fR for HDMI, \fBplughw:CARD=...,DEV=0\fR to convert rates too;
        \fBdefault\fR is card 0, which may be HDMI with no speaker. On the desktop, PipeWire owns the cards
        while a session runs: use \fB\-D default\fR (with pipewire\-alsa) or \fB\-D pulse\fR.
        .PP
        Pots finish together. On \fBhw:\fR, \fBplughw:\fR, or a card whose ALSA configuration does not
        mix, one timer plays at a time and the next waits for the device (NEVER SILENT). To hear them
        together, name a mixing device: ALSA's \fBdmix\fR, in \fB~/.asoundrc\fR (or
        \fB/etc/asound.conf\fR for every user), then \fBdevice = kitchen\fR in the config file
        (\fBaplay \-L\fR lists it):
        .PP
        \fBpcm.kitchen { type plug slave.pcm "dmix:CARD=Headphones,DEV=0" }\fR
        .PP
        \fBdefault\fR through PipeWire or PulseAudio mixes already, as does \fBsysdefault:\fR of a USB
        speaker (alsa\-lib's USB\-Audio configuration is built on dmix).
        .PP
        \fBmake deb\fR packs \fI.build/eggtimer_VERSION_ARCH.deb\fR (ARCH is the building machine's: build
        on the Pi for arm64), the same bytes from any clone of one commit;
        \fBsudo apt install ./eggtimer_*.deb\fR installs it under \fI/usr\fR and enables nothing. It
        depends on libasound2, libmpg123\-0 and libc and recommends libmosquitto1 (loaded only for
        \fB\-\-mqtt\fR) and libespeak\-ng1, espeak\-ng\-data and libsamplerate0 (only to speak).
        Without those three the plain alarm rings (one warning).
        \fBsudo env "PATH=$PATH" make install\fR (under \fI/usr/local\fR) keeps the toolchain on sudo's
        path. A service timer whose alarm rang unacknowledged leaves its unit failed (\fBsystemctl \-\-user reset\-failed\fR clears it); \fBsystemctl \-\-user
        stop\fR keeps its record, as a reboot does (cancel it to end it for good). A duration with other
        characters needs escaping: \fBsystemctl \-\-user start "eggtimer@$(systemd\-escape '2 hours')"\fR.
        .PP
        After a reboot a timer whose deadline passed while the Pi was off rings at once; one more than an
        hour overdue is only reported (\fBjournalctl \-\-user \-u eggtimer\-recover\fR). In a read\-only
        state folder \fBrecover\fR still starts the timers, says so and keeps the records it could not
        update. Pausing or moving a recovered countdown makes it a countdown of real time again. A
        \fB\-\-mqtt\fR timer rejoins the same broker and topics (its record keeps the URL, node, prefix
        and file paths, never the password): a password from EGGTIMER_MQTT_PASSWORD must be in
        \fBrecover\fR's environment too (\fBEnvironment=\fR in \fBsystemctl \-\-user edit
        eggtimer\-recover.service\fR), or use \fB\-\-mqtt\-password\-file\fR.
        """#

    private static let manKitchen = #"""
        .SH KITCHEN
        \fBeggtimer kitchen\fR is a long\-running front for this box's timers, run as the user service
        \fBeggtimer\-kitchen.service\fR. It counts no time itself: \fBeggtimer start WHAT\fR (a preset,
        \fBsoft\fR, or a duration, \fB7m30s\fR; \fB\-\-label L\fR names it) asks it on its socket to start
        a timer, and it runs \fBeggtimer WHAT \-\-label L \-\-json\fR as a shell would: detached, in a
        session of its own, standard input on /dev/null, its log in \fILABEL.log\fR beside the records,
        so \fBstatus\fR, \fBack\fR, \fBrecover\fR and MQTT see it as any other timer. The command line is
        built only from the typed preset or duration and label: \fBstart '7m \-\-on\-done x'\fR is refused
        (64) and starts nothing. The timer reads the config file itself (device, sound, volume, egg
        times, MQTT); the kitchen passes nothing else but \fB\-\-announce\fR (each says its name when it
        rings: SPOKEN LINE) and, with \fB\-\-mqtt\fR, its own broker options (see MQTT). A second
        timer of a preset's or a duration's own label is numbered (\fBSoft\-2\fR); a label you chose
        that runs already is refused (64). It follows every timer of this user (also those
        started from a shell) through its socket's \fBwatch\fR and logs one line when it finds one and
        when one ends; a restarted kitchen finds them again; a socket that does not answer is one line
        and is tried again later. At most \fB\-\-max\-timers\fR (config key \fBmax\-timers\fR, 1 to 99,
        default 12) run at once: one more \fBstart\fR is refused with one line and exit 75. A label
        already running is refused (64), as the kitchen's own, \fBkitchen\fR (with \fB\-\-mqtt\fR a timer's
        \fB\-\-label kitchen\fR is refused: \fIP/NODE/kitchen/availability\fR is the kitchen's). SIGTERM,
        SIGINT or SIGQUIT ends the kitchen with 0, never its timers; Ctrl\-Z stops it as any program
        (its timers count on) until \fBfg\fR or \fBbg\fR. Without a kitchen, \fBstart\fR starts the timer
        directly, the same way. Either way it waits until the timer runs (5 s at most) and prints
        \fBSoft: started, rings in 5:00 (pid 4242)\fR; a timer that exits first is 70, one that does not
        answer in time 69. Its answer comes after the timer tried its device: when the device cannot
        be opened, one more line goes to standard error (\fIeggtimer: start: warning: Soft will ring
        silent: cannot open audio device 'hw:0': No such file or directory; it runs anyway ...\fR) and
        the exit status stays 0, since the timer runs and its other fronts (the terminal bell, the
        page, MQTT, the kitchen's voice) still tell. The kitchen's log says \fISoft: rings silent:
        \fR\fIREASON\fR when a followed timer rings on no device (and its voice says "Soft egg is ringing
        but cannot reach its speaker" through the kitchen's own \fBdevice\fR), and the end of a timer
        whose alarm was never heard as \fISoft: ended (pid 4242, done, silent: \fR\fIREASON\fR\fI)\fR.
        .PP
        Web pairing (the HTTP API): \fBeggtimer kitchen \-\-pair\fR asks the running kitchen for a
        one\-time code and prints \fBpairing code 123456, valid for 10 minutes (5 tries)\fR (exit 69 with
        one line when no kitchen runs); holding the keypad's \fB.\fR or Enter 1 s speaks a new one. A
        code is 6 digits drawn uniformly from getrandom(2), valid 10 minutes on the boot clock, for five
        tries in all (the fifth wrong one ends it), compared in constant time; a new code replaces the
        old. A device that sends it gets a random token (32 bytes, 64 hex digits) in its cookie, kept
        only as its SHA\-256 in the kitchen's \fIpaired\-devices\fR file (FILES), at most 64 devices
        (the oldest goes). Five wrong codes or tokens from one address in a minute refuse it for the
        rest of that minute, logged once. \fBeggtimer kitchen \-\-unpair\fR forgets every paired
        device (through the running kitchen, else by removing the file) and prints
        \fBunpaired 2 devices\fR.
        """#
}
