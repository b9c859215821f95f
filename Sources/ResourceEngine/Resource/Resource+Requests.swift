import FoundationEssentials
import TextBasics

extension Resource {
    /// A change to a `OutgoingRequest` before it is sent.
    public typealias RequestMutation = @MainActor (inout OutgoingRequest) -> Void

    /// Sends a request. Its outcome never changes this resource's state (use `load(using:)` for that).
    ///
    /// Headers come from configuration, then `requestMutation` runs, then configured mutations;
    /// configured decorators may wrap the request before it starts.
    @discardableResult
    public func request(_ method: RequestMethod, requestMutation: @escaping RequestMutation = { _ in }) -> Request {
        request(method, removedByLoad: false, requestMutation: requestMutation)
    }

    /// `removedByLoad`: the request becomes this resource's load at once, whose first hook
    /// removes completed requests from both lists, so it needs no hook of its own for that.
    func request(_ method: RequestMethod, removedByLoad: Bool, requestMutation: @escaping RequestMutation) -> Request {
        if isInvalid {
            return Resource.failedRequest(
                returning: RequestError(
                    userMessage: "Cannot send request with invalid URL",
                    cause: RequestError.Cause.InvalidURL(urlSource: invalidURLSource ?? nil)))
        }
        let delegate = NetworkRequestDelegate(resource: self) { [self] in
            buildRequest(method: method, requestMutation: requestMutation)
        }
        var request = Request(delegate: delegate)
        let decoratingMethod = RequestMethod(httpName: delegate.underlyingRequest.httpMethod)
        for decorator in configuration(for: decoratingMethod).requestDecorators {
            request = decorator(self, request)
        }
        allRequests.append(request)
        if !removedByLoad { request.onCompletion { [weak self] _ in self?.removeCompletedRequests() } }
        request.start()
        return request
    }

    /// Sends `data` as the body with the given content type.
    @discardableResult
    public func request(
        _ method: RequestMethod, data: Data, contentType: String,
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        request(method) { urlRequest in
            urlRequest.httpBody = data
            urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
            requestMutation(&urlRequest)
        }
    }

    /// Sends `text` encoded as `encoding`, with `; charset=…` added to the content type.
    @discardableResult
    public func request(
        _ method: RequestMethod, text: String, contentType: String = "text/plain",
        encoding: String.Encoding = .utf8, requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        let charset = TextEncodingNames.ianaName(for: encoding)
        guard let data = text.data(using: encoding, allowLossyConversion: false)
            ?? (try? Iconv.encode(text, charset: charset))
        else {
            return Resource.failedRequest(
                returning: RequestError(
                    userMessage: "Cannot send request",
                    cause: RequestError.Cause.UnencodableText(encodingName: charset, text: text)))
        }
        return request(method, data: data, contentType: "\(contentType); charset=\(charset)", requestMutation: requestMutation)
    }

    /// Sends `json` as the body.
    @discardableResult
    public func request(
        _ method: RequestMethod, json: JSON, contentType: String = "application/json",
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        guard let data = try? json.serialized() else {
            return Resource.failedRequest(
                returning: RequestError(userMessage: "Cannot send request", cause: RequestError.Cause.InvalidJSONObject()))
        }
        return request(method, data: data, contentType: contentType, requestMutation: requestMutation)
    }

    /// Sends `urlEncoded` as an `application/x-www-form-urlencoded` body.
    ///
    /// As in Siesta, the escaped `name=value` pairs are sorted as strings, so the same parameters
    /// always give the same body.
    @discardableResult
    public func request(
        _ method: RequestMethod, urlEncoded params: [String: String],
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        var pairs: [String] = []
        for (name, value) in params {
            guard let escapedName = Resource.formEscape(name) else {
                return Resource.failedRequest(returning: RequestError(userMessage: "Cannot send request", cause: RequestError.Cause.NotURLEncodable(offendingString: name)))
            }
            guard let escapedValue = Resource.formEscape(value) else {
                return Resource.failedRequest(returning: RequestError(userMessage: "Cannot send request", cause: RequestError.Cause.NotURLEncodable(offendingString: value)))
            }
            pairs.append("\(escapedName)=\(escapedValue)")
        }
        pairs.sort()
        return request(
            method, data: Data(pairs.joined(separator: "&").utf8),
            contentType: "application/x-www-form-urlencoded", requestMutation: requestMutation)
    }

    /// What a form value keeps unescaped: letters, digits and `-._~/?`.
    private static func formEscape(_ string: String) -> String? {
        string.percentEncoded { $0.isURIUnreserved || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
    }

    /// The request `method` sends now: the configuration's headers (computed ones asked now), the
    /// caller's mutation, the configured mutations, the load request's omitted headers.
    func buildRequest(method: RequestMethod, requestMutation: RequestMutation) -> OutgoingRequest {
        var request = OutgoingRequest(url: url)
        if method != .get { request.httpMethod = method.httpName }
        let configuration = configuration(for: method)
        request.timeoutInterval = configuration.timeout
        for (name, value) in configuration.headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        for (name, value) in configuration.computedHeaders {
            if let value = value() { request.setValue(value, forHTTPHeaderField: name) }
        }
        requestMutation(&request)
        for mutation in configuration.requestMutations {
            mutation(&request)
        }
        for name in loadRequest?.omittedHeaders ?? [] {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }

    // MARK: Requests that are not network requests

    /// A request driven by a custom delegate. It is not started.
    public static func prepareRequest(using delegate: any RequestDelegate) -> Request {
        Request(delegate: delegate)
    }

    /// A request that has already failed with `error`. Its hooks still run asynchronously.
    public static func failedRequest(returning error: RequestError) -> Request {
        Request(delegate: HardWiredRequestDelegate(ResponseInfo(response: .failure(error)))).start()
    }

    /// A request that has already completed with `response`. No network, no pipeline.
    public static func hardWiredRequest(returning response: Response) -> Request {
        Request(delegate: HardWiredRequestDelegate(ResponseInfo(response: response))).start()
    }
}

/// IANA charset names for the encodings `request(text:)` accepts.
enum TextEncodingNames {
    static func ianaName(for encoding: String.Encoding) -> String {
        switch encoding {
        case .utf8: "utf-8"
        case .ascii: "us-ascii"
        case .isoLatin1: "iso-8859-1"
        case .isoLatin2: "iso-8859-2"
        case .utf16: "utf-16"
        case .utf16BigEndian: "utf-16be"
        case .utf16LittleEndian: "utf-16le"
        case .utf32: "utf-32"
        case .utf32BigEndian: "utf-32be"
        case .utf32LittleEndian: "utf-32le"
        case .windowsCP1252: "windows-1252"
        case .windowsCP1250: "windows-1250"
        case .windowsCP1251: "windows-1251"
        case .japaneseEUC: "euc-jp"
        case .shiftJIS: "shift_jis"
        case .iso2022JP: "iso-2022-jp"
        case .macOSRoman: "macintosh"
        default: "utf-8"
        }
    }

    /// The encoding for an IANA charset name, or nil if unknown.
    static func encoding(forIANAName name: String) -> String.Encoding? {
        switch name.lowercased() {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": .isoLatin1
        case "iso-8859-2", "latin2": .isoLatin2
        case "utf-16": .utf16
        case "utf-16be": .utf16BigEndian
        case "utf-16le": .utf16LittleEndian
        case "utf-32": .utf32
        case "utf-32be": .utf32BigEndian
        case "utf-32le": .utf32LittleEndian
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "euc-jp": .japaneseEUC
        case "shift_jis", "shift-jis", "sjis": .shiftJIS
        case "iso-2022-jp": .iso2022JP
        case "macintosh", "mac": .macOSRoman
        default: nil
        }
    }
}
