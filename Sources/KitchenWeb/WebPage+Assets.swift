import TextCoding

extension WebPage {
    // The page's files (page/), embedded at build time by SwiftPM's `embedInCode` as
    // `PackageResources` byte arrays: no Foundation, no file read at run time, no second copy to
    // install. Read once, on first use.

    /// `/app.css`, the file page/app.css.
    ///
    /// One column for a 360 px phone, touch targets of at least 48 px, colours of AA contrast
    /// (text 4.5:1 or more on its background) in light and dark (`prefers-color-scheme`), the
    /// ringing screen over everything, the tomato's spin.
    static let style = String(decoding: PackageResources.app_css, as: UTF8.self)

    /// The fixed part of `/app.js` (page/app.js), after the tables ``stateTable`` makes: the
    /// session, the event stream (reconnecting), the rows (text set with `textContent` only, never
    /// markup), the time left ticking from each `deadline`, the forms sent as JSON with the CSRF
    /// header, the ringing screen and the phone's alarm (Web Audio after the first tap,
    /// `/alarm.mp3` looping until STOP or the ring ends).
    static let behaviour = String(decoding: PackageResources.app_js, as: UTF8.self)

    /// The three egg pictures, soft to hard, as inline SVG for the egg buttons (page/egg-*.svg).
    ///
    /// A halved egg, the yolk runny, jammy, set; a fourth preset takes the first again. Fixed
    /// markup: nothing in them comes from data.
    static let eggPictures = [
        PackageResources.egg_soft_svg, PackageResources.egg_medium_svg, PackageResources.egg_hard_svg,
    ].map(inline)

    /// The tomato of a pomodoro's row, the file page/tomato.svg.
    ///
    /// It spins while the pomodoro counts (`.spin`).
    static let tomato = inline(PackageResources.tomato_svg)

    /// The bell of the ringing screen, the file page/bell.svg.
    static let bell = inline(PackageResources.bell_svg)

    /// The home-screen icon `/icon.svg`, the file page/icon.svg.
    ///
    /// Also the pairing screen's picture: an egg with a clock's hands, on the page's brown.
    static let icon = inline(PackageResources.icon_svg)

    /// The web app manifest `/manifest.webmanifest`, the file page/manifest.webmanifest.
    ///
    /// Its name, start URL, standalone display and the icon.
    static let manifest = inline(PackageResources.manifest_webmanifest)

    /// The HTML fragments ``html(_:)`` fills (page/*.html): blocks keep their file's final newline,
    /// the fragments that sit inside a line (the CSRF field, a row's button) drop it.
    enum Template {
        static let page = FileTemplate(PackageResources.page_html)
        static let refresh = FileTemplate(PackageResources.refresh_html)
        static let pairing = FileTemplate(PackageResources.pairing_html)
        static let kitchen = FileTemplate(PackageResources.kitchen_html)
        static let egg = FileTemplate(PackageResources.egg_html)
        static let ringing = FileTemplate(PackageResources.ringing_html)
        static let row = FileTemplate(PackageResources.row_html)
        static let message = FileTemplate(PackageResources.message_html)
        static let button = FileTemplate(PackageResources.button_html, trimmingFinalNewline: true)
        static let csrfField = FileTemplate(PackageResources.csrf_field_html, trimmingFinalNewline: true)
    }

    /// A picture or the manifest as it is put in a line or served: the file without its final newline.
    private static func inline(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
