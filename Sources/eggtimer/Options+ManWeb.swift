import TimerModel

// The man page's HTTP API section (issue 29): `eggtimer kitchen --http`, its routes, the fields
// of a timer, the states (from TimerState, the one list every front shares), the status codes
// and pairing.

extension Options {
    /// The HTTP API section, in troff, without a final newline.
    static let manHTTP: String =
        manHTTPHead + "\n" + manHTTPRoutes + "\n" + manHTTPFields + "\n" + manHTTPStates
        + "\n" + manHTTPCodes

    /// The routes, one `.TP` each: what the man page lists and the API's tests walk.
    static let httpRoutes: [(route: String, text: String)] = [
        (
            "GET /",
            "The phone page (HTML; it works without JavaScript). Its assets: \\fB/app.js\\fR, "
                + "\\fB/app.css\\fR, \\fB/manifest.webmanifest\\fR, \\fB/icon.svg\\fR, and for a paired device "
                + "\\fB/alarm.mp3\\fR."
        ),
        (
            "GET /api/session",
            "\\fB{\"paired\":false}\\fR, or for a paired device \\fB{\"paired\":true,"
                + "\"csrf\":\"...\",\"node\":\"...\"}\\fR: the CSRF token its POSTs send."
        ),
        (
            "POST /api/pair",
            "Field \\fBcode\\fR, the six digits of \\fBeggtimer kitchen \\-\\-pair\\fR (or of "
                + "the keypad's long press of \\fB.\\fR/Enter). Answers \\fB{\"paired\":true,\"csrf\":\"...\"}\\fR "
                + "and sets the session cookie; a wrong code 403, a sixth try on one code or too many wrong "
                + "ones from one address 429."
        ),
        (
            "POST /api/unpair",
            "Forgets this device's token (\\fBeggtimer kitchen \\-\\-unpair\\fR forgets "
                + "every device's) and clears the cookie."
        ),
        (
            "GET /api/timers",
            "The picture: \\fBnode\\fR, \\fBstates\\fR (the list below), \\fBpresets\\fR "
                + "(\\fBname\\fR, \\fBseconds\\fR) and \\fBtimers\\fR, this box's first, then with \\fB\\-\\-mqtt\\fR "
                + "the house's from their retained states (stale ones left out)."
        ),
        (
            "POST /api/timers",
            "Starts a timer as \\fBeggtimer start\\fR does: field \\fBstart\\fR (a preset "
                + "or a one\\-word duration: \\fBsoft\\fR, \\fB7m30s\\fR) or \\fBseconds\\fR (1 to \(KitchenAPI.startSecondsLimit)), and "
                + "optionally \\fBlabel\\fR; no field can add an option. Answered once the timer runs: 201 with "
                + "the timer; 409 for a label in use or a request the timer refused, 503 (Retry\\-After: 5) at "
                + "\\fB\\-\\-max\\-timers\\fR, 502 when it did not start."
        ),
        (
            "POST /api/timers/NODE/LABEL/ACTION",
            "ACTION is \\fBack\\fR, \\fBsnooze\\fR (optional \\fBseconds\\fR, "
                + "1 to 3596400), \\fBcancel\\fR, \\fBpause\\fR, \\fBresume\\fR or \\fBadd\\fR (\\fBseconds\\fR, "
                + "\\-86400 to 86400). NODE and LABEL are percent\\-encoded as in the MQTT topics (\\fB%2F\\fR for a "
                + "\\fB/\\fR). This box's timer answers 200 with its new state, or 409 with its refusal; another "
                + "node's (with \\fB\\-\\-mqtt\\fR) gets the command on its command topic: 202."
        ),
        (
            "POST /api/ack-all",
            "Stops every ringing timer (the house's too with \\fB\\-\\-mqtt\\fR): "
                + "\\fB{\"acknowledged\":N,\"stopped\":[...],\"silent\":[...],\"message\":...}\\fR: "
                + "this box's timers stopped, those of them never heard, and the page's line "
                + "(\\fISoft and pasta stopped; pasta never reached its speaker\\fR, or null)."
        ),
        (
            "GET /api/events",
            "Server\\-Sent Events: an event \\fBtimers\\fR carrying the picture of "
                + "\\fBGET /api/timers\\fR when the stream opens and whenever it changes (no polling: the timers' "
                + "own reports), \\fB: keepalive\\fR every 15 s; at most 128 streams (503 beyond). A stream ends, "
                + "its connection closed, when its device is unpaired."
        ),
    ]

    private static let manHTTPHead = #"""
        .SH HTTP API
        \fBeggtimer kitchen \-\-http\fR \fIADDRESS:PORT\fR (config key \fBhttp\fR; off by default) serves
        the phone page and this API on the kitchen's own event loop (libmicrohttpd, loaded at run time).
        \fB127.0.0.1:8080\fR serves this machine only, \fB0.0.0.0:8080\fR the kitchen's Wi\-Fi too.
        Plain HTTP shows the session cookie to anyone on that Wi\-Fi: give \fB\-\-http\-cert\fR and
        \fB\-\-http\-key\fR (PEM files) for HTTPS, where libmicrohttpd has GnuTLS.
        .PP
        \fBPairing.\fR Nothing but the page, its assets, \fBGET /api/session\fR and \fBPOST /api/pair\fR
        answers a device that is not paired (401), on every address, loopback too. \fBeggtimer kitchen
        \-\-pair\fR prints a six\-digit code; it lasts 10 minutes, allows five tries and works once, and
        is sent by POST, never in a URL. It is exchanged for a random token in an HttpOnly,
        SameSite=Strict cookie \fBeggtimer_session\fR (Secure over HTTPS), kept by the kitchen only as
        a SHA\-256 hash (\fI~/.local/state/eggtimer/kitchen/paired\-devices\fR, mode 0600). Wrong codes, and
        wrong tokens on a route that needs a session, are limited per address and logged once; on the
        others a stale cookie (its device unpaired) is no session, and every answer to one clears it.
        .PP
        \fBChecks\fR, in this order, each refusal a JSON \fB{"error":"..."}\fR and nothing done: the
        \fBHost\fR header is the configured address, \fBlocalhost\fR, \fB127.0.0.1\fR, \fB[::1]\fR, this
        machine's name, \fINAME\fB.local\fR or an \fB\-\-http\-host\fR, with the port (else 403: against
        DNS rebinding); the session cookie (401); on every POST the CSRF token of \fBGET /api/session\fR
        in \fBX\-CSRF\-Token\fR or a form field \fBcsrf\fR (else 403) and an \fBOrigin\fR, when sent, of an
        allowed host (else 403); a body of at most 16384 bytes (413), JSON or a form (415). A
        connection has 10 s in all to send its request (the kitchen drops a slow one); event streams
        are exempt once open. At most 16 connections are open from one address (more are closed at
        once), 256 in all. Bodies are a flat JSON object of strings and integers, or a form
        (\fBapplication/x\-www\-form\-urlencoded\fR: answered 303 to \fB/\fR, for the page without
        JavaScript). Labels and node names are data, never markup.
        .PP
        The routes (any other path 404, a known path with another method 405 with \fBAllow\fR;
        \fBHEAD\fR wherever \fBGET\fR, answering its status and headers alone):
        """#

    private static let manHTTPRoutes: String = httpRoutes.map {
        ".TP\n.B \(roff($0.route).replacingSpaces())\n\($0.text)"
    }
    .joined(separator: "\n")

    private static let manHTTPFields = #"""
        .PP
        A timer's object: \fBnode\fR, \fBlabel\fR, \fBstate\fR, \fBremaining_s\fR (seconds, to the
        millisecond), \fBduration_s\fR and \fBdeadline\fR (UTC ISO 8601 with milliseconds; each null when
        unknown or not counting), \fBkind\fR (\fBegg\fR, \fBplain\fR, \fBpomodoro\fR, \fBalarm\fR or null),
        \fBpreset\fR, \fBphase\fR (strings or null), \fBdevice\fR (\fBok\fR, or \fBdown\fR when its alarm
        reaches no device), \fBsilent\fR (why it reaches no device, once over why it was never heard;
        null when it does) and \fBlocal\fR (whether it runs on this box). An acknowledgement's answer
        also has \fBmessage\fR, the page's line: \fISoft stopped\fR, or \fIpasta stopped; pasta never
        reached its speaker\fR.
        """#

    private static let manHTTPStates: String =
        ".PP\nA timer's \\fBstate\\fR is one of the words of STATES, as \\fBstates\\fR lists them: "
        + KitchenAPI.stateWords.map { "\\fB\($0)\\fR" }.joined(separator: ", ") + "."

    private static let manHTTPCodes = #"""
        .PP
        Status codes: 200, 201 (started), 202 (sent to another node), 303 (a form post), 400 (a bad
        field: one line naming it), 401 (not paired), 403 (Host, Origin, CSRF token, a wrong code),
        404, 405, 409 (refused by the timer or a label in use), 413, 415, 429 (Retry\-After: 60),
        431 (more than 64 header fields), 502, 503 (Retry\-After: 5). A request line or header block
        too long for libmicrohttpd's buffer is refused by libmicrohttpd itself (414 or 431, its own
        body, not JSON).
        """#
}

extension String {
    /// The text with spaces as troff's unbreakable `\ ` (a `.B` argument of several words).
    fileprivate func replacingSpaces() -> String {
        String(flatMap { $0 == " " ? ["\\", " "] : [$0] })
    }
}
