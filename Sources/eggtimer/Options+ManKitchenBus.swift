import TimerCore

// The man page's part on the kitchen over MQTT (issue 26): its start topic, its availability and
// its Home Assistant entities, after the MQTT section's details.

extension Options {
    /// The MQTT section's paragraphs on `eggtimer kitchen --mqtt`, in troff.
    /// - Parameter presets: The eggs, one Home Assistant button each (their names and payloads).
    /// - Returns: The text, without a final newline.
    static func manMQTTKitchen(_ presets: [Preset]) -> String {
        let names = presets.map { "\\fB\($0.name) egg\\fR" }
        let payloads = presets.map { "\\fB\($0.name.lowercased())\\fR" }
        let entities = presets.map { "\\fI.../start\\-\($0.name.lowercased())\\fR" }
        let first = presets.first.map { $0.name.lowercased() } ?? "soft"
        return #"""
            .PP
            \fBkitchen\fR with \fB\-\-mqtt\fR (or \fBmqtt =\fR in the config file) takes starts from
            the broker, and gives every timer it starts its own broker options (\fB\-\-mqtt\fR,
            \fB\-\-node\fR, \fB\-\-mqtt\-prefix\fR, the CA and password files), so they are on the
            same broker under the same node:
            .TP
            .I P/NODE/start
            A preset or a duration and at most one label, as \fBeggtimer start\fR takes them:
            \fBsoft\fR, \fBMedium eggs\fR, \fB7m30s pasta\fR (at most 160 bytes of UTF\-8, the label
            by the label rule). The timer's command line is made from the parsed values only, so no
            payload adds an option. A payload that does not parse, is longer, holds an option
            (\fB7m \-\-on\-done 'curl ... | sh'\fR) or names the label \fBfollow\fR or \fBkitchen\fR is
            one line on standard error and starts nothing; a start over \fB\-\-max\-timers\fR is one
            line on standard output (\fIpasta: not started: 12 timers run already\fR ...). Starts are
            events: one the broker keeps retained is ignored with one line (once per payload); clear it
            with \fBmosquitto_pub \-r \-n \-t\fR \fIP/NODE/start\fR.
            .TP
            .I P/NODE/kitchen/availability
            \fBonline\fR (retained) while the kitchen runs; \fBoffline\fR (retained) once it ended
            cleanly, and as its Last Will. Another kitchen's or an earlier one's \fBoffline\fR there
            is answered with \fBonline\fR. A timer's \fB\-\-label kitchen\fR is therefore refused
            with \fB\-\-mqtt\fR, as \fBfollow\fR is.
            .TP
            .I homeassistant/button/NODE/start\-\#(first)/config
            Home Assistant discovery of the kitchen, retained and never removed (the kitchen is a
            service that comes back: while it is away its entities show unavailable): a button per
            egg, \#(names.joined(separator: ", ")) (\#(entities.joined(separator: ", "))), whose
            \fBpayload_press\fR on \fIP/NODE/start\fR is \#(payloads.joined(separator: ", ")); and
            \fIhomeassistant/text/NODE/start/config\fR, a \fBtext\fR entity \fBstart\fR that sends
            what is typed there (\fBmin\fR 1, \fBmax\fR 160, \fBmode\fR \fBtext\fR, and a
            \fBpattern\fR of the request's shape: one word of letters, digits, \fB.\fR, \fB:\fR,
            \fB_\fR and \fB\-\fR, then at most one label, so Home Assistant refuses a wrong one before
            sending it). Each has the availability \fIP/NODE/kitchen/availability\fR, a
            \fBunique_id\fR \fBeggtimer_NODE_\fR\fIentity\fR and the node's device, \fINODE\fR
            escaped as in the node's entities.
            """#
    }
}
