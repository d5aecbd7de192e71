import TestSupport
import Testing

@testable import eggtimer

/// The files embedded at build time and their slots (issue 38): a slot is `@NAME@`, any other `@`
/// is text, and what the binary serves is the repository's file.
@Suite struct FileTemplateTests {
    private func template(_ text: String, trimming: Bool = false) -> FileTemplate {
        FileTemplate(Array(text.utf8), trimmingFinalNewline: trimming)
    }

    @Test(arguments: [
        ("a @X@ b", ["X"], ["X": "1"], "a 1 b"),
        ("@A@@B_2@@A@", ["A", "B_2"], ["A": "x", "B_2": "y"], "xyx"),
        // Not slots: a lower-case or empty name, a lone or unclosed at sign, a name starting with a digit.
        (
            "eggtimer@.service pi@homeassistant.local @x@ @@ @2X@ @OPEN", [], [:],
            "eggtimer@.service pi@homeassistant.local @x@ @@ @2X@ @OPEN"
        ),
        ("user@HOST@ home", ["HOST"], ["HOST": "h"], "userh home"),
        ("", [], [:], ""),
    ])
    func slotsAreCapitalNamesBetweenAtSigns(text: String, slots: [String], values: [String: String], filled: String) {
        let parsed = template(text)
        #expect(parsed.slots == slots)
        #expect(parsed.filled(values) == filled)
    }

    @Test func aFragmentInsideALineDropsItsFileFinalNewlineOnly() {
        #expect(template("<i>@X@</i>\n", trimming: true).filled(["X": "1"]) == "<i>1</i>")
        #expect(template("<i>@X@</i>\n\n", trimming: true).filled(["X": "1"]) == "<i>1</i>\n")
        #expect(template("<p>@X@</p>\n").filled(["X": "1"]) == "<p>1</p>\n")
    }

    /// A file from the repository, as text.
    private func file(_ path: String) throws -> String {
        String(decoding: try #require(readFile(repositoryRoot + "/" + path), "no \(path)"), as: UTF8.self)
    }

    @Test func theServedAssetsAreThePageFolderFiles() throws {
        let folder = "Sources/eggtimer/Web/page/"
        func served(_ path: String) throws -> String {
            String(decoding: try #require(WebPage.asset(path: path)).body, as: UTF8.self)
        }
        #expect(try served("/app.css") == file(folder + "app.css"))
        #expect(try served("/app.js") == WebPage.stateTable + file(folder + "app.js"))
        #expect(try served("/icon.svg") + "\n" == file(folder + "icon.svg"))
        #expect(try served("/manifest.webmanifest") + "\n" == file(folder + "manifest.webmanifest"))
    }
}
