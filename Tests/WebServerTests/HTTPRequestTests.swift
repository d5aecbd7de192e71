import Testing

@testable import WebServer

@Suite struct HTTPRequestTests {
    @Test func headerLookupIgnoresCase() {
        let request = HTTPRequest(method: "GET", path: "/", headers: [HTTPHeader("host", "a:1")])
        #expect(request.header("Host") == "a:1")
        #expect(request.header("origin") == nil)
    }
}
