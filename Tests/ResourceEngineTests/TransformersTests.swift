import Foundation
import ResourceEngine
import ResourceEngineTesting
import Testing

/// Runs a transformer over a success whose content is `content`.
private func run(_ transformer: any ResponseTransformer, _ content: any Sendable) -> Response {
    transformer.process(.success(Entity(content: content, contentType: "application/json", timestamp: 0)))
}

private func json(_ text: String) -> JSON { try! JSONParser.parse(text) }

private func output(_ response: Response) -> JSON? { response.entity?.content as? JSON }

@Suite struct SelectTests {
    let doc = json(#"{"items":[{"name":"a","id":1},{"name":"b","id":2},{"id":3}],"meta":{"odd.key":"x","n":5}}"#)

    @Test func selectsDottedAndIndexedPaths() throws {
        #expect(output(run(try Transformers.select("meta.n"), doc)) == 5)
        #expect(output(run(try Transformers.select("items[0].name"), doc)) == "a")
        #expect(output(run(try Transformers.select("items[-1].id"), doc)) == 3)
        #expect(output(run(try Transformers.select(#"meta["odd.key"]"#), doc)) == "x")
        #expect(output(run(try Transformers.select("$.meta.n"), doc)) == 5)
        #expect(output(run(try Transformers.select(""), doc)) == doc)
    }

    @Test func mapsOverArraysWithStar() throws {
        #expect(output(run(try Transformers.select("items[*].name"), doc)) == ["a", "b", nil])
        #expect(output(run(try Transformers.select("items[*].id"), doc)) == [1, 2, 3])
    }

    @Test func missingPathsFailNamingWhere() throws {
        let missing = try #require(run(try Transformers.select("items[0].price"), doc).error)
        #expect(missing.userMessage == #"select items[0].price: no member "price" at items[0]"#)
        let range = try #require(run(try Transformers.select("items[9]"), doc).error)
        #expect(range.userMessage == "select items[9]: index 9 out of range at items (3 items)")
        let kind = try #require(run(try Transformers.select("meta[0]"), doc).error)
        #expect(kind.userMessage == "select meta[0]: expected an array at meta but found object")
    }

    @Test func wrongInputTypeFails() throws {
        let error = try #require(run(try Transformers.select("a"), "plain text").error)
        #expect(error.userMessage == "select a expected JSON but got text")
    }

    @Test(arguments: ["items[", "items[x]", "a..b", "a.", "items]"])
    func invalidPathsAreRejectedUpFront(path: String) {
        #expect(throws: Transformers.TransformerError.self) { try Transformers.select(path) }
    }

    @Test func invalidPathMessageSaysWhere() {
        do {
            _ = try Transformers.select("items[x]")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == #"select: invalid path "items[x]": expected a number, * or a quoted name inside [ ] at position 7"#)
        }
    }
}

@Suite struct TextStepTests {
    @Test func linesSplitsText() {
        #expect(output(run(Transformers.lines(), "a\nb\r\nc\n")) == ["a", "b", "c"])
        #expect(output(run(Transformers.lines(), "")) == [])
        #expect(output(run(Transformers.lines(), Data("x\ny".utf8))) == ["x", "y"])
        #expect(output(run(Transformers.lines(), JSON.string("p\nq"))) == ["p", "q"])
    }

    @Test func linesRejectsNonText() throws {
        #expect(try #require(run(Transformers.lines(), json(#"{"a":1}"#)).error).userMessage == "lines: expected text but found JSON object")
        #expect(try #require(run(Transformers.lines(), Data([0xFF, 0xFE])).error).userMessage == "lines: the body is not valid UTF-8 text")
    }

    @Test func regexReturnsWholeMatchOneGroupOrAllGroups() throws {
        let metrics = "requests_total 1024\nerrors_total 7\n"
        #expect(output(run(try Transformers.regex("errors_total \\d+"), metrics)) == "errors_total 7")
        #expect(output(run(try Transformers.regex("^errors_total (\\d+)$"), metrics)) == "7")
        #expect(output(run(try Transformers.regex("(\\w+)_total (\\d+)"), metrics)) == ["requests", "1024"])
    }

    @Test func regexNoMatchFails() throws {
        let error = try #require(run(try Transformers.regex("missing (\\d+)"), "nothing here").error)
        #expect(error.userMessage == #"regex "missing (\d+)" did not match"#)
    }

    @Test func invalidRegexIsRejectedUpFront() {
        do {
            _ = try Transformers.regex("(unclosed")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == #"regex: missing ")" at character 10 in "(unclosed""#)
        }
    }

    @Test func regexRejectsNonText() throws {
        #expect(try #require(run(try Transformers.regex("x"), JSON.int(3)).error).userMessage == "regex: expected text but found JSON number")
    }

    @Test func base64DecodesIgnoringWhitespace() {
        let response = run(Transformers.base64(), "eyJh\nIjoxfQ==\n")
        #expect(response.entity?.content as? Data == Data(#"{"a":1}"#.utf8))
    }

    @Test func invalidBase64Fails() throws {
        #expect(try #require(run(Transformers.base64(), "not base64!!").error).userMessage == "base64: the body is not valid base64")
        #expect(try #require(run(Transformers.base64(), JSON.array([])).error).userMessage == "base64: expected text but found JSON array")
    }

    @Test func base64ThenJSONParses() {
        var pipeline = Pipeline()
        pipeline[.decoding].add(Transformers.base64())
        pipeline[.parsing].add(Transformers.json())
        let response = pipeline.process(.success(Entity(content: Data("eyJhIjoxfQ==".utf8), timestamp: 0)))
        #expect(output(response) == ["a": 1])
    }

    @Test func theJSONStepParsesTextAsWellAsBytes() throws {
        // etcd's /health is JSON served as text/plain: the text parser makes it a String first.
        #expect(output(run(Transformers.json(), #"{"health":"true"}"#)) == ["health": "true"])
        #expect(output(run(Transformers.json(), Data("[1,2]".utf8))) == [1, 2])
        #expect(output(run(Transformers.json(), JSON.array([true]))) == [true], "already JSON: passes through")
        #expect(try #require(run(Transformers.json(), "{nope").error).userMessage.hasPrefix("Invalid JSON"))
    }
}

@Suite struct CollectionStepTests {
    @Test func countCountsArraysAndObjects() throws {
        #expect(output(run(Transformers.count(), json("[1,2,3]"))) == 3)
        #expect(output(run(Transformers.count(), json(#"{"a":1,"b":2}"#))) == 2)
        #expect(try #require(run(Transformers.count(), json(#""x""#)).error).userMessage == "count: expected an array or object but found string")
        #expect(try #require(run(Transformers.count(), "text").error).userMessage == "count expected JSON but got text")
    }

    @Test func limitKeepsTheFirstItems() throws {
        #expect(output(run(try Transformers.limit(2), json("[1,2,3]"))) == [1, 2])
        #expect(output(run(try Transformers.limit(5), json("[1]"))) == [1])
        #expect(output(run(try Transformers.limit(1), json(#"{"a":1,"b":2}"#))) == ["a": 1])
        #expect(try #require(run(try Transformers.limit(1), json("7")).error).userMessage == "limit: expected an array or object but found number")
        #expect(throws: Transformers.TransformerError.self) { try Transformers.limit(-1) }
    }

    @Test func sortOrdersByPathWithMissingLast() throws {
        let items = json(#"[{"n":"b","v":10},{"n":"A","v":2},{"n":"c"},{"n":"a2","v":2.5}]"#)
        let byValue = output(run(try Transformers.sort(by: "v"), items))
        #expect(byValue?.arrayValue?.map { $0["n"] } == ["A", "a2", "b", "c"])
        let descending = output(run(try Transformers.sort(by: "-v"), items))
        #expect(descending?.arrayValue?.map { $0["n"] } == ["b", "a2", "A", "c"])
        let byName = output(run(try Transformers.sort(by: "n"), items))
        #expect(byName?.arrayValue?.map { $0["n"] } == ["A", "a2", "b", "c"])
    }

    @Test func sortIsStableAndRejectsNonArrays() throws {
        let items = json(#"[{"k":1,"i":0},{"k":0,"i":1},{"k":1,"i":2},{"k":0,"i":3}]"#)
        #expect(output(run(try Transformers.sort(by: "k"), items))?.arrayValue?.map { $0["i"] } == [1, 3, 0, 2])
        #expect(try #require(run(try Transformers.sort(by: "k"), json("{}")).error).userMessage == "sort: expected an array but found object")
        #expect(throws: Transformers.TransformerError.self) { try Transformers.sort(by: "a[") }
    }

    @Test func stepsCompose() throws {
        var pipeline = Pipeline()
        pipeline[.model].add(try Transformers.select("orders"))
        pipeline[.model].add(try Transformers.sort(by: "-total"))
        pipeline[.model].add(try Transformers.limit(2))
        pipeline[.model].add(try Transformers.select("[*].id"))
        let body = json(#"{"orders":[{"id":1,"total":5},{"id":2,"total":50},{"id":3,"total":20}]}"#)
        #expect(output(pipeline.process(.success(Entity(content: body, timestamp: 0)))) == [2, 3])
    }
}

@Suite struct ErrorMessageTests {
    private func failure(_ body: String, contentType: String = "application/json", parsed: Bool = true) -> Response {
        let content: any Sendable = parsed ? json(body) : Data(body.utf8)
        return .failure(RequestError(
            userMessage: "Bad Request", cause: nil,
            entity: Entity(content: content, contentType: contentType, timestamp: 0), httpStatusCode: 400))
    }

    private func message(_ transformer: ErrorMessageTransformer, _ response: Response) -> String? {
        transformer.process(response).error?.userMessage
    }

    @Test func knowsCommonConventions() {
        let t = ErrorMessageTransformer()
        #expect(message(t, failure(#"{"message":"Order not found"}"#)) == "Order not found")
        #expect(message(t, failure(#"{"error":"invalid_token"}"#)) == "invalid_token")
        #expect(message(t, failure(#"{"error":{"code":7,"message":"Quota exceeded"}}"#)) == "Quota exceeded")
        #expect(message(t, failure(#"{"type":"about:blank","title":"Out of credit","detail":"Your balance is 30"}"#, contentType: "application/problem+json")) == "Out of credit: Your balance is 30")
        #expect(message(t, failure(#"{"title":"Forbidden"}"#)) == "Forbidden")
        #expect(message(t, failure(#"{"errors":[{"message":"first"},{"message":"second"}]}"#)) == "first")
    }

    @Test func knowsServiceStackResponseStatusWithFieldErrors() {
        let body = #"""
            {"responseStatus":{"errorCode":"ValidationException","message":"Validation failed",
              "errors":[{"errorCode":"NotEmpty","fieldName":"Name","message":"'Name' must not be empty."},
                        {"errorCode":"Email","fieldName":"Email","message":"not an email"}]}}
            """#
        #expect(message(ErrorMessageTransformer(), failure(body)) == "Validation failed (Name: 'Name' must not be empty.; Email: not an email)")
        #expect(message(ErrorMessageTransformer(), failure(#"{"responseStatus":{"message":"Boom"}}"#)) == "Boom")
    }

    @Test func configuredPathsComeFirst() throws {
        let t = try ErrorMessageTransformer(pathTexts: ["data.reason", "message"])
        #expect(message(t, failure(#"{"message":"generic","data":{"reason":"specific"}}"#)) == "specific")
        #expect(message(t, failure(#"{"message":"generic"}"#)) == "generic")
        #expect(message(t, failure(#"{"data":{"reason":42}}"#)) == "42")
    }

    @Test func worksOnRawBytesThatAreJSON() {
        #expect(message(ErrorMessageTransformer(), failure(#"{"message":"raw"}"#, parsed: false)) == "raw")
    }

    @Test func keepsTheOriginalMessageWhenNothingFits() {
        #expect(message(ErrorMessageTransformer(), failure(#"{"unrelated":true}"#)) == "Bad Request")
        #expect(message(ErrorMessageTransformer(), failure("<html>", contentType: "text/html", parsed: false)) == "Bad Request")
        let noBody = Response.failure(RequestError(userMessage: "Timed out", cause: nil))
        #expect(message(ErrorMessageTransformer(), noBody) == "Timed out")
    }

    @Test func passesSuccessesThrough() {
        let success = Response.success(Entity(content: json(#"{"message":"fine"}"#), timestamp: 0))
        #expect(ErrorMessageTransformer().process(success).entity?.content as? JSON == ["message": "fine"])
    }

    @Test func rejectsInvalidPaths() {
        #expect(throws: Transformers.TransformerError.self) { try ErrorMessageTransformer(pathTexts: ["a["]) }
    }

    @Test @MainActor func liftsMessagesEndToEndEvenWithParsingCleared() async throws {
        let h = Harness()
        h.service.configure("/legacy/**") {
            $0.pipeline[.parsing].removeTransformers()
            $0.pipeline[.cleanup].add(ErrorMessageTransformer(paths: [try! JSONPath("responseStatus.message")]))
        }
        let legacy = h.service.resource("/legacy/orders")
        h.network.stub(.get, legacy.url.absoluteString, .json(#"{"responseStatus":{"message":"Legacy says no"}}"#, status: 503))
        _ = try await legacy.load().awaitResult()
        #expect(legacy.latestError?.userMessage == "Legacy says no")
        #expect(legacy.latestError?.httpStatusCode == 503)
    }
}

@Suite struct JSONParserTests {
    @Test func parsesAllValueKinds() throws {
        let value = try JSONParser.parse(#" {"s":"x","i":-12,"d":1.5e2,"t":true,"f":false,"n":null,"a":[],"o":{}} "#)
        #expect(value == ["s": "x", "i": -12, "d": 150.0, "t": true, "f": false, "n": nil, "a": [], "o": [:]])
    }

    /// Identical means the very value (a copy): two parses of one text are equal, not identical.
    @Test func identicalIsACopyNotAnEqualValue() throws {
        let text = #"{"a":[1,2],"s":"x"}"#
        let parsed = try JSONParser.parse(text)
        let copy = parsed
        #expect(parsed.isIdentical(to: copy))
        #expect(parsed["a"]!.isIdentical(to: copy["a"]!))
        let again = try JSONParser.parse(text)
        #expect(parsed == again)
        #expect(!parsed.isIdentical(to: again))
        #expect(!parsed["a"]!.isIdentical(to: again["a"]!))
        #expect(JSON.string("x").isIdentical(to: again["s"]!), "text is compared as text")
        #expect(JSON.int(1).isIdentical(to: .int(1)) && !JSON.int(1).isIdentical(to: .double(1)))
        #expect(JSON.double(0).isIdentical(to: .double(0)) && !JSON.double(0).isIdentical(to: .double(-0.0)))
        #expect(JSON.null.isIdentical(to: .null) && !JSON.null.isIdentical(to: .bool(false)))
    }

    @Test func keepsIntegersExact() throws {
        #expect(try JSONParser.parse("9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try JSONParser.parse("1.0") == .double(1.0))
        // Beyond Int64 the digits are kept (an id must not come back rounded), and still compare as numbers.
        let big = try JSONParser.parse("123456789012345678901234567890")
        #expect(big == .bigInteger("123456789012345678901234567890"))
        #expect(try String(decoding: big.serialized(), as: UTF8.self) == "123456789012345678901234567890")
        #expect(try JSONParser.parse("-99999999999999999999") == .bigInteger("-99999999999999999999"))
        #expect(try JSONParser.parse("99999999999999999999") == .double(1e20), "equal as numbers")
        #expect(big.kindName == "number" && big.doubleValue == 1.2345678901234568e29)
    }

    @Test func integersAtEveryLengthAndSign() throws {
        for digits in 1...18 {
            let text = String(repeating: "9", count: digits)
            #expect(try JSONParser.parse(text) == .int(Int(text)!), "\(digits) digits")
            #expect(try JSONParser.parse("-" + text) == .int(-Int(text)!), "-\(digits) digits")
        }
        #expect(try JSONParser.parse("9223372036854775807") == .int(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(.min))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try JSONParser.parse("-0") == .int(0))
        #expect(try JSONParser.parse("[0,-1,10]") == [0, -1, 10])
    }

    @Test func stringsMixingRunsEscapesAndNonASCII() throws {
        #expect(try JSONParser.parse(#""é\n✓\u0041ü""#) == .string("é\n✓Aü"))
        #expect(try JSONParser.parse(#""\n""#) == .string("\n"))
        #expect(try JSONParser.parse(#""""#) == .string(""))
        #expect(try JSONParser.parse(#"{"ключ":"значение"}"#) == ["ключ": "значение"])
        do {
            _ = try JSONParser.parse(Data(Array(#""ok\n"#.utf8) + [0xC3, 0x28, 0x22]))
            Issue.record("expected a failure")
        } catch {
            #expect(error.description == "Invalid JSON: invalid UTF-8 in string at line 1, column 6", "the bad run after an escape is named")
        }
    }

    @Test func keepsKeyOrderAndLastDuplicateWins() throws {
        let object = try #require(try JSONParser.parse(#"{"z":1,"a":2,"m":3,"a":4}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["a"] == 4)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try JSONParser.parse("\"caf\u{e9} ✓\"") == .string("café ✓"))
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == [1])
    }

    @Test(arguments: [
        ("", "Invalid JSON: empty document at line 1, column 1"),
        ("[1,]", "Invalid JSON: unexpected character ']' at line 1, column 4"),
        (#"{"a" 1}"#, #"Invalid JSON: expected ':' after key "a" but found character '1' at line 1, column 6"#),
        ("[1] x", "Invalid JSON: unexpected character 'x' after the value at line 1, column 5"),
        ("01", "Invalid JSON: leading zero in number at line 1, column 2"),
        (#"{"a":"x"#, "Invalid JSON: unterminated string at line 1, column 6"),
        ("{'a':1}", "Invalid JSON: expected a quoted key but found character ''' at line 1, column 2"),
        ("[\"\\x\"]", "Invalid JSON: invalid escape \\character 'x' at line 1, column 4"),
        ("\"\\ud800\"", "Invalid JSON: unpaired surrogate \\ud800 at line 1, column 8"),
        ("[\n 1,\n nul]", "Invalid JSON: unexpected character 'n' at line 3, column 2"),
        ("\"a\u{1}\"", "Invalid JSON: unescaped control character in string at line 1, column 3"),
    ])
    func reportsErrorsWithPositions(text: String, message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("expected a failure for \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        do {
            _ = try JSONParser.parse(Data([0x22, 0x61, 0xFF, 0x22]))
            Issue.record("expected a failure")
        } catch {
            #expect(error.message == "invalid UTF-8 in string")
        }
    }

    @Test func limitsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("expected a failure")
        } catch {
            #expect(error.message == "nesting deeper than 512 levels")
        }
        let ok = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? JSONParser.parse(ok)) != nil)
    }

    @Test func serializesBackInOrder() throws {
        let text = #"{"z":[1,2.5,"x\n",null,true],"a":{}}"#
        #expect(String(data: try JSONParser.parse(text).serialized(), encoding: .utf8) == text)
        #expect(JSON.object(["a": [1]]).prettyPrinted() == "{\n  \"a\": [\n    1\n  ]\n}")
    }
}
