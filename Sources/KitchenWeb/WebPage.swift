package import AlarmAudio
import Glibc
import SystemKit
import TimerModel
package import WebServer

/// The phone page of `eggtimer kitchen --http` (issue 30): the HTML, CSS, JavaScript, manifest
/// and icon, files in `page/` embedded in the binary at build time (no CDN, no build step of
/// our own), and the server-rendered page that works without JavaScript.
///
/// Pure but for ``alarmSound(path:)`` (which reads a file): bytes in, responses out. The routes
/// that serve it are the HTTP API's (the kitchen's Kitchen+Web). Every response carries `nosniff` and
/// `Referrer-Policy: same-origin` (``common``); every HTML one the strict
/// ``contentSecurityPolicy`` (no inline script or style).
/// The HTML fragments are filled by `WebPage+HTML`, the script's tables made by `WebPage+Script`;
/// `WebPage+Assets` names the embedded files (the style, the script, the pictures, the manifest).
package enum WebPage {
    /// What the server-rendered page shows.
    package struct View: Equatable, Sendable {
        /// Whether the device is paired (else the pairing screen).
        var paired: Bool
        /// The CSRF token for the forms; nil when not paired.
        var csrf: String?
        /// The picture; nil when not paired.
        var picture: WebPicture?
        /// A one-line message to show (an error of the last form post); nil for none.
        var message: String?
        /// The id the start forms carry without JavaScript (field `id`: a form sent again after a
        /// failure is one start, issue 42); nil for none (the field is sent empty).
        var startID: String?

        /// The view of these fields.
        package init(paired: Bool, csrf: String?, picture: WebPicture?, message: String?, startID: String? = nil) {
            (self.paired, self.csrf, self.picture, self.message) = (paired, csrf, picture, message)
            self.startID = startID
        }
    }

    /// The Content-Security-Policy of every HTML response (the HTTP API's contract): scripts,
    /// styles, pictures, sounds and connections from the page's own origin only, no inline script
    /// or style, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; "
        + "connect-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The largest alarm sound ``alarmSound(path:)`` serves, in bytes (the shipped one is ~40 KiB).
    static let soundLimit = 8 * 1024 * 1024

    /// The paths ``asset(path:)`` serves.
    static let assetPaths = ["/app.js", "/app.css", "/manifest.webmanifest", "/icon.svg"]

    /// A static asset (`/app.js`, `/app.css`, `/manifest.webmanifest`, `/icon.svg`) with its
    /// content type and security headers; nil for any other path.
    /// - Parameter path: The request's path, still percent-encoded, without the query.
    /// - Returns: 200 with the asset (`Cache-Control: no-cache`: revalidated, so an upgraded
    ///   binary's page is seen at once), or nil.
    package static func asset(path: String) -> HTTPResponse? {
        let type: String
        let body: String
        switch path {
        case "/app.js": (type, body) = ("text/javascript; charset=utf-8", script)
        case "/app.css": (type, body) = ("text/css; charset=utf-8", style)
        case "/manifest.webmanifest": (type, body) = ("application/manifest+json", manifest)
        case "/icon.svg": (type, body) = ("image/svg+xml", icon)
        default: return nil
        }
        return HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", type), HTTPHeader("Cache-Control", "no-cache")] + common,
            body: Array(body.utf8))
    }

    /// The page for `view`: 200, `text/html; charset=utf-8`, the strict CSP, `no-store` (its
    /// forms carry the CSRF token).
    /// - Parameter view: What to show: the pairing screen, or the kitchen with its timers.
    /// - Returns: The response.
    package static func page(_ view: View) -> HTTPResponse {
        HTTPResponse(status: 200, headers: htmlHeaders, body: Array(html(view).utf8))
    }

    /// The headers of an HTML response: its type, the CSP, `no-store` and the common ones.
    static let htmlHeaders =
        [
            HTTPHeader("Content-Type", "text/html; charset=utf-8"),
            HTTPHeader("Content-Security-Policy", contentSecurityPolicy),
            HTTPHeader("Cache-Control", "no-store"),
        ] + common

    /// The headers every response of the page carries.
    ///
    /// `Referrer-Policy: same-origin`, not `no-referrer`: under `no-referrer` a browser sends
    /// `Origin: null` with a form's POST (the Fetch standard; Chromium does), which the API's
    /// Origin check rightly refuses, so the page without JavaScript could not pair. Nothing leaves
    /// for another origin either way: the page links nowhere else.
    static let common = [
        HTTPHeader("X-Content-Type-Options", "nosniff"), HTTPHeader("Referrer-Policy", "same-origin"),
    ]

    /// `/alarm.mp3`: the kitchen's alarm sound file, for the page's Web Audio (paired only: the
    /// route checks that).
    ///
    /// Blocks for the read of one local file (opened `O_NONBLOCK`, so a FIFO cannot hang it;
    /// only a regular file of at most ``soundLimit`` bytes is served).
    /// - Parameter path: The sound file (SoundLocator's, or the config's `sound`).
    /// - Returns: 200 `audio/mpeg`; 404 when there is no such regular file; 500 when it cannot be
    ///   read or is too long. C: `open`, `fstat`, `read` (``RegularFile/read(_:limit:)``).
    static func alarmSound(path: String) -> HTTPResponse { alarmSound(pathBytes: Array(path.utf8)) }

    /// `/alarm.mp3` of a kitchen: its configured sound file (config key `sound`, `--sound`), else
    /// the shipped one beside the program (``SoundLocator``); as ``alarmSound(path:)``.
    /// - Parameter configured: The kitchen's `Options.soundPath`; nil when none is configured.
    /// - Returns: 200 `audio/mpeg`; 404 when there is no such file (the kitchen then rings its
    ///   built-in tone, which the page does not get); 500 when it cannot be read or is too long.
    package static func alarmSound(configured: SoundFilePath?) -> HTTPResponse {
        if let configured { return alarmSound(pathBytes: configured.bytes) }
        guard let found = SoundLocator.locate() else { return failure(404, "no alarm sound") }
        return alarmSound(path: found)
    }

    /// ``alarmSound(path:)`` for a path as bytes (not necessarily UTF-8); one with a NUL is 404.
    private static func alarmSound(pathBytes: [UInt8]) -> HTTPResponse {
        guard !pathBytes.contains(0) else { return failure(404, "no alarm sound") }
        let cPath = pathBytes.map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return failure(404, "no alarm sound") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return failure(404, "no alarm sound")
        }
        guard info.st_size <= soundLimit else { return failure(500, "the alarm sound is too long") }
        guard let contents = try? RegularFile.read(descriptor, limit: soundLimit) else {
            return failure(500, "the alarm sound cannot be read")
        }
        guard contents.count <= soundLimit else { return failure(500, "the alarm sound is too long") }
        return HTTPResponse(
            status: 200,
            headers: [HTTPHeader("Content-Type", "audio/mpeg"), HTTPHeader("Cache-Control", "no-store")] + common,
            body: contents)
    }

    /// A JSON error as the API words them: `{"error":"…"}` (``KitchenAPI/errorBody(_:)``).
    private static func failure(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Cache-Control", "no-store")] + common,
            body: KitchenAPI.errorBody(text))
    }
}
