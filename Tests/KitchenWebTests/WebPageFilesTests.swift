import TestSupport
import Testing

@testable import KitchenWeb

/// The page's files embedded at build time (issue 38): what the kitchen serves is the repository's file.
@Suite struct WebPageFilesTests {
    /// A file from the repository, as text.
    private func file(_ path: String) throws -> String {
        String(decoding: try #require(readFile(repositoryRoot + "/" + path), "no \(path)"), as: UTF8.self)
    }

    @Test func theServedAssetsAreThePageFolderFiles() throws {
        let folder = "Sources/KitchenWeb/page/"
        func served(_ path: String) throws -> String {
            String(decoding: try #require(WebPage.asset(path: path)).body, as: UTF8.self)
        }
        #expect(try served("/app.css") == file(folder + "app.css"))
        #expect(try served("/app.js") == WebPage.stateTable + file(folder + "app.js"))
        #expect(try served("/icon.svg") + "\n" == file(folder + "icon.svg"))
        #expect(try served("/manifest.webmanifest") + "\n" == file(folder + "manifest.webmanifest"))
    }
}
