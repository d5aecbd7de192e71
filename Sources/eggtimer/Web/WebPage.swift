import WebServer

/// The phone page of `eggtimer kitchen --http` (issue 30): the HTML, CSS, JavaScript, manifest
/// and icon, embedded in the binary (no CDN, no build step), and the server-rendered page that
/// works without JavaScript.
///
/// Pure: bytes in, responses out. The routes that serve it are the HTTP API's (Kitchen+Web).
enum WebPage {
    /// What the server-rendered page shows.
    struct View: Equatable, Sendable {
        /// Whether the device is paired (else the pairing screen).
        var paired: Bool
        /// The CSRF token for the forms; nil when not paired.
        var csrf: String?
        /// The picture; nil when not paired.
        var picture: WebPicture?
        /// A one-line message to show (an error of the last form post); nil for none.
        var message: String?
    }

    /// A static asset (`/app.js`, `/app.css`, `/manifest.webmanifest`, `/icon.svg`) with its
    /// content type and security headers; nil for any other path.
    static func asset(path: String) -> HTTPResponse? { nil }

    /// The page for `view`: 200, `text/html; charset=utf-8`, the strict CSP.
    static func page(_ view: View) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
            body: Array("<!doctype html><title>eggtimer</title>".utf8))
    }
}
