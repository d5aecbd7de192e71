import TestSupport
import Testing

@Suite struct ShimTypeTests {
    /// The shim declares PocketSphinx's function pointer types by hand; gcc checks them against
    /// the installed headers (Tests/Shims/pocketsphinx-types.c), so a header that changed fails here.
    @Test func theShimsFunctionTypesAreTheHeadersTypes() throws {
        let folder = makePrivateDirectory("eggtimer-shim")
        defer { removeDirectory(folder) }
        let header = SystemTool.pocketsphinxHeader.path
        let headerFolder = String(header[..<(header.lastIndex(of: "/") ?? header.endIndex)])
        try Child.run(
            SystemTool.gcc.path,
            [
                "-fsyntax-only", "-std=gnu11", "-I", repositoryRoot + "/Sources/CPocketsphinx", "-I", headerFolder,
                repositoryRoot + "/Tests/Shims/pocketsphinx-types.c",
            ], stderrPath: folder + "/gcc.err")
    }
}
