extension WebPage {
    /// The three egg pictures, soft to hard, as inline SVG for the egg buttons.
    ///
    /// A halved egg, the yolk runny, jammy, set; a fourth preset takes the first again. Fixed
    /// markup: nothing in them comes from data.
    static let eggPictures = [
        """
        <svg class="egg-svg" viewBox="0 0 64 80" width="64" height="80" aria-hidden="true" focusable="false">\
        <path class="shell" d="M32 3C17 3 5 27 5 47c0 17 12 30 27 30s27-13 27-30C59 27 47 3 32 3z"/>\
        <path class="white" d="M32 9C20 9 10 30 10 47c0 14 10 25 22 25s22-11 22-25C54 30 44 9 32 9z"/>\
        <path class="yolk soft" d="M32 34c-9 0-14 6-14 13s4 9 6 9c1 7 3 10 5 10s3-4 3-9c1 5 2 8 4 8s3-4 3-8c4 0 7-4 \
        7-10 0-7-5-13-14-13z"/></svg>
        """,
        """
        <svg class="egg-svg" viewBox="0 0 64 80" width="64" height="80" aria-hidden="true" focusable="false">\
        <path class="shell" d="M32 3C17 3 5 27 5 47c0 17 12 30 27 30s27-13 27-30C59 27 47 3 32 3z"/>\
        <path class="white" d="M32 9C20 9 10 30 10 47c0 14 10 25 22 25s22-11 22-25C54 30 44 9 32 9z"/>\
        <circle class="yolk medium" cx="32" cy="48" r="13"/><circle class="yolk-core" cx="32" cy="48" r="6"/></svg>
        """,
        """
        <svg class="egg-svg" viewBox="0 0 64 80" width="64" height="80" aria-hidden="true" focusable="false">\
        <path class="shell" d="M32 3C17 3 5 27 5 47c0 17 12 30 27 30s27-13 27-30C59 27 47 3 32 3z"/>\
        <path class="white" d="M32 9C20 9 10 30 10 47c0 14 10 25 22 25s22-11 22-25C54 30 44 9 32 9z"/>\
        <circle class="yolk hard" cx="32" cy="48" r="13"/></svg>
        """,
    ]

    /// The tomato of a pomodoro's row (it spins while the pomodoro counts: `.spin`).
    static let tomato = """
        <svg class="tomato-svg" viewBox="0 0 48 48" width="40" height="40" aria-hidden="true" focusable="false">\
        <circle class="fruit" cx="24" cy="27" r="18"/>\
        <path class="leaf" d="M24 11l-4-6 4 3 4-3-4 6 9-2-7 5 6 4-8-3-8 3 6-4-7-5z"/>\
        <ellipse class="shine" cx="16" cy="21" rx="4" ry="6"/></svg>
        """

    /// The bell of the ringing screen.
    static let bell = """
        <svg class="bell-svg" viewBox="0 0 64 64" width="96" height="96" aria-hidden="true" focusable="false">\
        <path class="bell-body" d="M32 6c-3 0-5 2-5 5v1c-9 2-15 10-15 20v12l-6 6v3h52v-3l-6-6V32c0-10-6-18-15-20v-1\
        c0-3-2-5-5-5z"/><circle class="bell-clapper" cx="32" cy="57" r="6"/></svg>
        """

    /// The home-screen icon (`/icon.svg`, also the pairing screen's picture): an egg with a
    /// clock's hands, on the page's brown.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" class="icon-svg" viewBox="0 0 96 96" width="96" height="96" \
        aria-hidden="true" focusable="false">\
        <rect width="96" height="96" rx="20" fill="#8a4b00"/>\
        <path d="M48 12C33 12 20 38 20 58c0 15 12 26 28 26s28-11 28-26C76 38 63 12 48 12z" fill="#fff8e7"/>\
        <circle cx="48" cy="58" r="17" fill="#f5a300"/>\
        <path d="M48 58V46M48 58l9 6" stroke="#4a2800" stroke-width="4" stroke-linecap="round" fill="none"/></svg>
        """

    /// The web app manifest (`/manifest.webmanifest`): name, start URL, standalone, the icon.
    static let manifest = """
        {"name":"eggtimer kitchen","short_name":"eggtimer","start_url":"/","scope":"/","display":"standalone",\
        "background_color":"#fffaf0","theme_color":"#8a4b00",\
        "icons":[{"src":"/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any"}]}
        """
}
