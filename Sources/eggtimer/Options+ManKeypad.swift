// The eggtimer(1) man page's KEYPAD section: the kitchen's key map on Linux input devices (evdev),
// the devices it reads, the config keys, granting one device with a udev rule, and a GPIO button.

extension Options {
    /// The KEYPAD section of ``manPage``, in troff: what the keys of a USB keypad, a keyboard, a
    /// remote or a GPIO button do in the kitchen (``KeyMap``), and how to give eggtimer one device.
    static let manKeypad = #"""
        .SH KEYPAD
        The kitchen reads keys from Linux input devices (evdev): a USB numeric keypad or keyboard, a USB
        big button, a Bluetooth remote or presenter, or a push\-button on a Raspberry Pi's GPIO header. No
        screen is needed. The top row and the numeric keypad do the same:
        .TP
        .B 1 2 3
        Start a Soft, Medium or Hard egg.
        .TP
        .B 4 ... 9
        Start what the config file's \fBkey\-4\fR ... \fBkey\-9\fR says (\fBkey\-4 = pasta 9m\fR: a
        duration and a label in either order, or a preset); nothing when unset.
        .TP
        .B + \-
        Add a minute to, or take one from, the newest timer (KEY_KPPLUS or KEY_EQUAL, KEY_KPMINUS or
        KEY_MINUS).
        .TP
        .B 0 Backspace
        Cancel the newest timer in 3 s; pressed again within them, the cancel is withdrawn.
        .TP
        .B . Enter
        Say what runs: logged, and spoken ("Pasta: three minutes forty left", "Nothing is running").
        Held 1 s: make a web pairing code and speak it digit by digit ("Pairing code 1 2 3 4 5 6";
        KITCHEN), as \fBeggtimer kitchen \-\-pair\fR prints one.
        .TP
        .B *
        Play the alarm once: a speaker test.
        .PP
        While a timer rings, any key acknowledges every timer that rings, and a key still held 1 s
        after it went down snoozes them instead (judged by the events' own time stamps, or by the
        kitchen's clock when no release comes). Auto\-repeat never counts; each press counts once.
        Keys not in the map do nothing and are never logged, nor is any key code.
        .PP
        \fB\-\-keys auto\fR (\fBkeys = auto\fR in the config file; the default; the command line
        wins) reads every \fB/dev/input/event\fR\fIN\fR whose
        \fB/sys/class/input/event\fR\fIN\fR\fB/device/capabilities/key\fR shows a key (mice and
        joysticks, which only have buttons, are left alone) and grabs none of them.
        \fB\-\-keys\fR \fIPATH\fR reads one device, best by its link in \fB/dev/input/by\-id/\fR (the same
        across boots and ports), and grabs it (EVIOCGRAB) so its presses do not also type into a
        console. \fB\-\-keys none\fR reads no device. Each action is one line of the kitchen's log
        (\fIkey: Soft: alarm stopped\fR, \fIkey: pasta: 3:40 left; Soft: ringing\fR); a press that
        stops alarms adds one naming them all and those that never reached a speaker (\fIkey: Soft and
        pasta stopped; pasta never reached its speaker\fR), and says the same; the speaker test
        is not played within 2 s of a timer's deadline. A start, the report and a cancel are also
        answered by voice on the kitchen's device ("Soft egg, five minutes", "Cancelled"; in the
        config's \fBvoice\fR, English or German; SPOKEN LINE), never while a timer rings on its device
        nor within 2 s of a deadline (then only logged, \fIvoice: ... not said\fR; a timer ringing
        \fBsilent\fR, which reaches no device, holds no quiet after that: the kitchen's "pasta is
        ringing but cannot reach its speaker" is then its only sound); \fBannounce = no\fR in the
        config file keeps the kitchen and its timers quiet. Devices plugged in later are read at once and
        those unplugged are dropped with one line (\fIkeys: /dev/input/event3 is gone\fR); a device that cannot be opened is one line naming
        it, and the rest goes on.
        .PP
        Reading \fB/dev/input\fR needs access that could read every keyboard of the machine: rather
        than joining the \fBinput\fR group, give the kitchen's user the one device with a udev rule. Find
        its name with \fBcat /sys/class/input/event\fR\fIN\fR\fB/device/name\fR (or
        \fBudevadm info \-\-attribute\-walk /dev/input/by\-id/...\fR), then put in
        \fB/etc/udev/rules.d/70\-eggtimer\-keypad.rules\fR
        .PP
        \fBSUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="USB Keypad", OWNER="pi", MODE="0600"\fR
        .PP
        and run \fBsudo udevadm control \-\-reload\-rules && sudo udevadm trigger\fR (or plug it in
        again). \fBTAG+="uaccess"\fR instead of \fBOWNER\fR and \fBMODE\fR gives the device to
        whoever is logged in at the machine's own seat (a desktop): not to a service with nobody
        logged in, which is what a kitchen Pi runs.
        .PP
        A GPIO push\-button (between GPIO 17 and ground) becomes a key device with one line in the Pi's
        \fB/boot/firmware/config.txt\fR (\fB/boot/config.txt\fR before Bookworm), here as Enter:
        .PP
        \fBdtoverlay=gpio\-key,gpio=17,active_low=1,gpio_pull=up,keycode=28\fR
        .PP
        Any press of it acknowledges a ringing alarm and a held one snoozes it; otherwise Enter says
        what runs (\fBkeycode=2\fR, the digit 1, would start a Soft egg instead).
        """#
}
