import Testing
import TextCoding

/// The files embedded at build time and their slots (issue 38): a slot is `@NAME@`, any other `@`
/// is text.
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
}
