import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

@MainActor
@Suite struct ResponseDataHandlingTests {
    let h = Harness()

    private func load(_ response: FakeNetworkingProvider.FakeResponse) async throws -> Response {
        h.network.stub(.get, h.resource.url.absoluteString, response)
        return try await h.resource.load().awaitResult()
    }

    private func bytes(_ data: [UInt8], contentType: String, status: Int = 200) -> FakeNetworkingProvider.FakeResponse {
        .init(status: status, headers: ["Content-Type": contentType], body: Data(data))
    }

    // MARK: Text

    @Test func decodesTextAsUTF8WhenNoCharsetIsNamed() async throws {
        _ = try await load(bytes(Array("café ✓".utf8), contentType: "text/plain"))
        #expect(h.resource.text == "café ✓")
    }

    @Test func honoursTheCharset() async throws {
        _ = try await load(bytes([0x63, 0x61, 0x66, 0xE9], contentType: "text/plain; charset=ISO-8859-1"))
        #expect(h.resource.text == "café")
        _ = try await load(bytes([0x00, 0x68, 0x00, 0x69], contentType: "text/csv; charset=\"utf-16be\""))
        #expect(h.resource.text == "hi")
    }

    /// Foundation on Linux cannot convert these; the C library's iconv can.
    @Test(arguments: [
        ("euc-jp", [0xC6, 0xFC, 0xCB, 0xDC] as [UInt8], "日本"),
        ("EUC-JP", [0x61, 0xA4, 0xA2], "aあ"),
        ("iso-2022-jp", [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x42], "日本"),
        ("koi8-r", [0xD0, 0xD2, 0xC9], "при"),
        ("gb18030", [0xC4, 0xE3, 0xBA, 0xC3], "你好"),
        ("big5", [0xA4, 0xA4], "中"),
    ])
    func decodesCharsetsThroughIconv(charset: String, body: [UInt8], text: String) async throws {
        _ = try await load(bytes(body, contentType: "text/plain; charset=\(charset)"))
        #expect(h.resource.text == text)
    }

    @Test func bytesThatAreNotValidEUCJPAreUndecodableNotUnknown() async throws {
        let error = try #require(try await load(bytes([0x61, 0xA4], contentType: "text/plain; charset=euc-jp")).error)
        #expect(error.cause is RequestError.Cause.UndecodableText)
        #expect(error.userMessage == "Response is not valid euc-jp text")
    }

    @Test func charsetNamesThatLookLikeIconvOptionsAreUnknown() async throws {
        for name in ["utf-8//TRANSLIT", "../../etc/x", String(repeating: "x", count: 41)] {
            let error = try #require(try await load(bytes([0x41], contentType: "text/plain; charset=\(name)")).error)
            #expect(error.cause is RequestError.Cause.InvalidTextEncoding, "\(name)")
        }
    }

    @Test func treatsAnUnknownCharsetAsAnError() async throws {
        let error = try #require(try await load(bytes([0x41], contentType: "text/plain; charset=oops-9")).error)
        #expect(error.userMessage == #"Unknown text encoding "oops-9""#)
        #expect(error.cause is RequestError.Cause.InvalidTextEncoding)
    }

    @Test func invalidUTF8InATextBodyIsAnError() async throws {
        let error = try #require(try await load(bytes([0x68, 0xFF, 0xFE, 0x69], contentType: "text/plain; charset=utf-8")).error)
        #expect(error.userMessage == "Response is not valid utf-8 text")
        #expect(error.cause is RequestError.Cause.UndecodableText)
        #expect(h.resource.latestData == nil)
    }

    @Test func transformsTextErrorBodies() async throws {
        let error = try #require(try await load(.text("gateway exploded", status: 502)).error)
        #expect(error.userMessage == "Bad Gateway")
        #expect(error.text == "gateway exploded")
    }

    // MARK: JSON

    @Test(arguments: ["application/json", "application/foo+json", "foo/json", "application/json; charset=utf-8", "Application/JSON", "text/json"])
    func parsesJSONContentTypes(contentType: String) async throws {
        _ = try await load(.text(#"{"b":2,"a":[1,2]}"#, contentType: contentType))
        #expect(h.resource.json == ["b": 2, "a": [1, 2]])
        #expect(h.resource.jsonDict.keys == ["b", "a"], "document order is kept")
    }

    @Test(arguments: ["application/jsonx", "application/json+foo", "text/plain", "json", "application/vnd/json"])
    func doesNotParseOtherContentTypesAsJSON(contentType: String) async throws {
        _ = try await load(.text(#"{"a":1}"#, contentType: contentType))
        #expect(h.resource.json == nil)
    }

    @Test func acceptsTopLevelScalars() async throws {
        _ = try await load(.json("42"))
        #expect(h.resource.json == 42)
        _ = try await load(.json(#""UP""#))
        #expect(h.resource.json == "UP")
    }

    @Test func anEmptyJSONBodyIsNullNotAnError() async throws {
        _ = try await load(.init(status: 204, headers: ["Content-Type": "application/json"]))
        #expect(h.resource.latestError == nil)
        #expect(h.resource.json == .null)
    }

    /// JSON in UTF-16 and UTF-32, with or without a byte-order mark, named by the charset or
    /// not, is read as RFC 4627 and Siesta's parser read it; a UTF-8 mark is skipped.
    @Test(arguments: [
        ("application/json", [0xFF, 0xFE] + utf16LE(#"{"a":"é✓"}"#)),
        ("application/json", [0xFE, 0xFF] + utf16BE(#"{"a":"é✓"}"#)),
        ("application/json", utf16LE(#"{"a":"é✓"}"#)),
        ("application/json", utf16BE(#"{"a":"é✓"}"#)),
        ("application/json", [0xFF, 0xFE, 0x00, 0x00] + utf32LE(#"{"a":"é✓"}"#)),
        ("application/json", [0x00, 0x00, 0xFE, 0xFF] + utf32BE(#"{"a":"é✓"}"#)),
        ("application/json", utf32LE(#"{"a":"é✓"}"#)),
        ("application/json", utf32BE(#"{"a":"é✓"}"#)),
        ("application/json", [0xEF, 0xBB, 0xBF] + Array(#"{"a":"é✓"}"#.utf8)),
        ("application/json; charset=utf-16", [0xFF, 0xFE] + utf16LE(#"{"a":"é✓"}"#)),
        ("application/json; charset=utf-16", utf16BE(#"{"a":"é✓"}"#)),
        ("application/json; charset=UTF-16LE", utf16LE(#"{"a":"é✓"}"#)),
        ("application/json; charset=utf-32be", utf32BE(#"{"a":"é✓"}"#)),
    ] as [(String, [UInt8])])
    func readsJSONInUTF16AndUTF32(contentType: String, body: [UInt8]) async throws {
        _ = try await load(bytes(body, contentType: contentType))
        #expect(h.resource.latestError == nil, "\(h.resource.latestError?.userMessage ?? "")")
        #expect(h.resource.json == ["a": "é✓"])
    }

    @Test func jsonThatIsNotValidInItsEncodingSaysSo() async throws {
        // A lone high surrogate in UTF-16LE.
        let error = try #require(try await load(bytes([0xFF, 0xFE, 0x7B, 0x00, 0x00, 0xD8, 0x7D, 0x00], contentType: "application/json")).error)
        #expect(error.userMessage == "Response is not valid utf-16le text")
    }

    @Test func invalidJSONIsAnErrorThatSaysWhere() async throws {
        let error = try #require(try await load(.json("{\n  \"a\": 1,\n  \"b\": tru\n}")).error)
        #expect(error.userMessage == "Invalid JSON: unexpected character 't' at line 3, column 8")
        #expect(error.cause is JSONParser.Failure)
        #expect(error.httpStatusCode == nil)
    }

    @Test func transformsJSONErrorBodies() async throws {
        let error = try #require(try await load(.json(#"{"message":"no such order"}"#, status: 404)).error)
        #expect(error.json?["message"] == "no such order")
        #expect(error.userMessage == "Not Found", "the message is only lifted by errorMessage")
    }

    @Test func preservesRootErrorIfErrorResponseIsUnparsable() async throws {
        let error = try #require(try await load(.json("<html>oops</html>", status: 500)).error)
        #expect(error.userMessage == "Internal Server Error")
        #expect(error.httpStatusCode == 500)
        #expect(error.entity?.content is Data)
    }

    // MARK: Standard transformers

    @Test func canBeSelectivelyDisabledOnServiceCreation() async throws {
        let network = FakeNetworkingProvider()
        let service = Service(baseURL: Harness.base, standardTransformers: [.text], networking: network, clock: ManualClock())
        let resource = service.resource("/x")
        network.stub(.get, resource.url.absoluteString, .json(#"{"a":1}"#))
        _ = try await resource.load().awaitResult()
        #expect(resource.latestData?.content is Data)
        network.stub(.get, resource.url.absoluteString, .text("t"))
        _ = try await resource.load().awaitResult()
        #expect(resource.text == "t")
    }

    @Test func canBeClearedAndReAddedInConfiguration() async throws {
        h.service.configure("/a/**") { $0.pipeline[.parsing].removeTransformers() }
        _ = try await load(.json(#"{"a":1}"#))
        #expect(h.resource.latestData?.content is Data)
        h.service.configure("/a/b") { $0.pipeline[.parsing].add(Parsers.json(), contentTypes: ["*/json"]) }
        _ = try await load(.json(#"{"a":1}"#))
        #expect(h.resource.json == ["a": 1])
    }

    @Test func textParserReportsAnErrorIfAnotherTransformerAlreadyMadeItAString() async throws {
        h.service.configure("**") {
            $0.pipeline[.decoding].add(ResponseContentTransformer<Data, String> { data, _ in String(decoding: data, as: UTF8.self) })
        }
        let error = try #require(try await load(.text("words")).error)
        #expect(error.cause is RequestError.Cause.WrongInputTypeInTransformerPipeline)
        #expect(error.userMessage == "text expected bytes but got text")
    }

    @Test func jsonParserReportsAnErrorIfAnotherTransformerAlreadyMadeItJSON() async throws {
        h.service.configure("**") {
            $0.pipeline[.decoding].add(ResponseContentTransformer<Data, JSON> { _, _ in JSON.array([]) })
        }
        let error = try #require(try await load(.json(#"{"a":1}"#)).error)
        #expect(error.cause is RequestError.Cause.WrongInputTypeInTransformerPipeline)
    }

    @Test func theConfigTextStepPassesTextTheStandardParserAlreadyDecoded() async throws {
        h.service.configure("**") { $0.pipeline[.model].add(Transformers.text()) }
        _ = try await load(.text("plain"))
        #expect(h.resource.text == "plain")
    }

    @Test func jsonParserReportsAnErrorIfAnotherTransformerAlreadyMadeItAString() async throws {
        h.service.configure("**") {
            $0.pipeline[.decoding].add(ResponseContentTransformer<Data, String> { data, _ in String(decoding: data, as: UTF8.self) })
        }
        let error = try #require(try await load(.json(#"{"a":1}"#)).error)
        #expect(error.cause is RequestError.Cause.WrongInputTypeInTransformerPipeline)
        #expect(error.userMessage == "json expected bytes but got text")
    }

    // MARK: Content transformers

    @Test func leavesErrorsUntouchedByDefault() async throws {
        h.service.configureTransformer("**") { (text: String, _) in text.uppercased() }
        let error = try #require(try await load(.text("quiet", status: 500)).error)
        #expect(error.text == "quiet")
    }

    @Test func transformsErrorsWhenAsked() async throws {
        h.service.configureTransformer("**", transformErrors: true) { (text: String, _) in text.uppercased() }
        let error = try #require(try await load(.text("loud", status: 500)).error)
        #expect(error.text == "LOUD")
    }

    @Test func inputTypeMismatchFailsWithAClearMessage() async throws {
        h.service.configureTransformer("**", description: "to int") { (json: JSON, _) in json.intValue }
        let error = try #require(try await load(.text("not json")).error)
        #expect(error.userMessage == "to int expected JSON but got text")
        #expect(error.cause is RequestError.Cause.WrongInputTypeInTransformerPipeline)
    }

    @Test func skipsTheTransformerOnSkip() async throws {
        h.service.configureTransformer("**", onInputTypeMismatch: .skip) { (json: JSON, _) in json.intValue }
        _ = try await load(.text("plain"))
        #expect(h.resource.text == "plain")
    }

    @Test func skipIfOutputTypeMatchesPassesOnlyTheOutputType() async throws {
        h.service.configureTransformer("**", onInputTypeMismatch: .skipIfOutputTypeMatches) { (data: Data, _) in
            String(decoding: data, as: UTF8.self)
        }
        _ = try await load(.text("already text"))
        #expect(h.resource.text == "already text")
        let error = try #require(try await load(.json("[1]")).error)
        #expect(error.cause is RequestError.Cause.WrongInputTypeInTransformerPipeline)
    }

    @Test func canThrowARequestError() async throws {
        h.service.configureTransformer("**") { (_: String, _) -> String in
            throw RequestError(userMessage: "custom failure", cause: nil)
        }
        #expect(try await load(.text("x")).error?.userMessage == "custom failure")
    }

    @Test func otherThrownErrorsBecomeRequestErrorsWithTheirDescription() async throws {
        struct Oops: Error, CustomStringConvertible { var description: String { "oops happened" } }
        h.service.configureTransformer("**") { (_: String, _) -> String in throw Oops() }
        let error = try #require(try await load(.text("x")).error)
        #expect(error.userMessage == "oops happened")
        #expect(error.cause is Oops)
    }

    @Test func canReturnNilToSignalFailure() async throws {
        h.service.configureTransformer("**", description: "maybe") { (_: String, _) -> String? in nil }
        let error = try #require(try await load(.text("x")).error)
        #expect(error.cause is RequestError.Cause.TransformerReturnedNil)
        #expect(error.userMessage == "maybe produced no value")
    }

    @Test func contentTypeGatingIgnoresParametersAndCase() {
        let matcher = ContentTypeMatcher(["*/json", "*/*+json", "text/*"])
        #expect(matcher.matches("application/json"))
        #expect(matcher.matches("APPLICATION/JSON ; charset=utf-8"))
        #expect(matcher.matches("application/problem+json"))
        #expect(matcher.matches("text/csv"))
        #expect(!matcher.matches("application/xml"))
        #expect(!matcher.matches("text/"))
        #expect(!matcher.matches("xtext/plain"))
        #expect(!matcher.matches("application/json-seq"))
        #expect(matcher.matches("text/plain\t;x"))
        #expect(!matcher.matches("image/svg+xml"))
        let literal = ContentTypeMatcher(["application/vnd.api+json"])
        #expect(literal.matches("Application/VND.api+JSON"))
        #expect(!literal.matches("application/vndXapi+json"), "a dot is a dot, not any character")
        #expect(!ContentTypeMatcher([]).matches("application/json"))
    }

    @Test func aMatcherAnswersTheSameWhenAskedAgainAndBetweenManyContentTypes() {
        // The matcher keeps its last few answers: asked about more types than it keeps, in turns
        // and twice over, each answer is still the one a fresh matcher gives.
        let asked = [
            "application/json", "text/csv", "application/xml", "application/problem+json", "image/png",
            "APPLICATION/JSON; charset=utf-8", "application/json-seq", "text/plain",
        ]
        let kept = ContentTypeMatcher(["*/json", "*/*+json", "text/*"])
        for round in 0..<3 {
            for contentType in asked + asked.reversed() {
                let fresh = ContentTypeMatcher(["*/json", "*/*+json", "text/*"]).matches(contentType)
                #expect(kept.matches(contentType) == fresh, "round \(round): \(contentType)")
            }
        }
        #expect(kept.matches("application/json") && !kept.matches("application/xml"))
        // Two matchers never share answers.
        #expect(!ContentTypeMatcher(["text/*"]).matches("application/json"))
    }

    @Test func starsMatchOneOrMoreBytesUpToASlashOrPlus() {
        let star = ContentTypeMatcher(["*/*+json", "*"])
        #expect(star.matches("application/ld+json"))
        #expect(!star.matches("application/+json"), "a star matches at least one byte")
        #expect(!star.matches("a/b+c+json"), "a star does not cross a plus")
        #expect(star.matches("plain"))
        #expect(!star.matches("text/plain"), "a lone star does not cross a slash")
        // A star followed by other bytes tries every length.
        let infix = ContentTypeMatcher(["application/x-*son", "*t/x*"])
        #expect(infix.matches("application/x-json"))
        #expect(infix.matches("application/x-sonson"))
        #expect(!infix.matches("application/x-son"))
        #expect(infix.matches("text/xml"))
        #expect(infix.matches("tt/xy"))
        #expect(!infix.matches("t/xy"))
    }

    @Test func gatedTransformersRunOnlyForMatchingContentTypes() async throws {
        h.service.configure("**") { $0.pipeline[.model].add(Appender(marker: "!"), contentTypes: ["text/csv"]) }
        _ = try await load(.text("a,b", contentType: "text/csv"))
        #expect(h.resource.text == "a,b!")
        _ = try await load(.text("plain"))
        #expect(h.resource.text == "plain")
    }
}

private func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
private func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
private func utf32LE(_ text: String) -> [UInt8] { text.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } } }
private func utf32BE(_ text: String) -> [UInt8] { text.unicodeScalars.flatMap { s in (0..<4).reversed().map { UInt8((s.value >> (8 * $0)) & 0xFF) } } }
