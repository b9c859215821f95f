import CYAML

/// Composes YAML text into `YAMLNode`s with libyaml's parser: the first document of the
/// stream, aliases replaced by their anchors' nodes. The tree is built with a stack of its own,
/// so no depth of nesting can exhaust the thread's stack.
enum YAMLDocument {
    /// How deep mappings and sequences may nest: far deeper than any config, shallow enough that
    /// walking or freeing the tree cannot exhaust a thread's stack.
    static let maximumDepth = 256

    /// Why text is not YAML, where the parser stopped, and what it was reading if it says.
    struct SyntaxError: Error, Equatable, CustomStringConvertible {
        enum Kind { case syntax, duplicateKeys, unreadable }
        let problem: String
        let mark: YAMLNode.Mark
        let context: String?
        let contextMark: YAMLNode.Mark?
        /// `unreadable`: libyaml's reader refused the text (a control character), and gives no line.
        var kind = Kind.syntax

        /// The problem as a config reports it, its place apart.
        var message: String {
            switch kind {
            case .duplicateKeys: return problem
            case .unreadable: return "YAML: \(problem)"
            case .syntax:
                var message = "YAML syntax: \(problem)"
                if let context, let contextMark, contextMark != mark {
                    message += " (\(context) that starts at line \(contextMark.line), column \(contextMark.column))"
                }
                return message
            }
        }

        var description: String { "\(message) at line \(mark.line), column \(mark.column)" }
    }

    /// The document's root node, or nil for a stream without one; a second document is a problem.
    static func compose(_ text: String) throws(SyntaxError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw SyntaxError(problem: "out of memory", mark: YAMLNode.Mark(line: 1, column: 1), context: nil, contextMark: nil)
        }
        defer { yaml_parser_delete(parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(SyntaxError) -> YAMLNode? in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var composer = Composer()
            return try composer.run(parser)
        }
    }

    /// Node under construction: a mapping's entries so far (and a key waiting for its value) or a
    /// sequence's items.
    private struct Open {
        let isMapping: Bool
        let anchor: String?
        let mark: YAMLNode.Mark
        var items: [YAMLNode] = []
        var entries: [(key: YAMLNode, value: YAMLNode)] = []
        var key: YAMLNode?
    }

    private struct Composer {
        var anchors: [String: YAMLNode] = [:]
        var stack: [Open] = []
        var root: YAMLNode?
        var documentDone = false

        mutating func run(_ parser: UnsafeMutablePointer<yaml_parser_t>) throws(SyntaxError) -> YAMLNode? {
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else { throw Self.error(parser.pointee) }
                defer { yaml_event_delete(&event) }
                let mark = YAMLNode.Mark(line: event.start_mark.line + 1, column: event.start_mark.column + 1)
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return root
                case YAML_DOCUMENT_END_EVENT:
                    documentDone = true
                case YAML_DOCUMENT_START_EVENT where documentDone:
                    throw SyntaxError(
                        problem: "but found another document", mark: mark, context: "expected a single document in the stream",
                        contextMark: YAMLNode.Mark(line: 1, column: 1))
                case YAML_SCALAR_EVENT:
                    let data = event.data.scalar
                    let string = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
                    let tag = data.quoted_implicit == 1 ? YAMLNode.strTag : Self.text(data.tag)
                    let node = YAMLNode.scalar(YAMLNode.Scalar(string: string, style: Self.style(data.style), tag: tag, mark: mark))
                    try add(node, anchor: Self.text(data.anchor), mark: mark)
                case YAML_ALIAS_EVENT:
                    let name = Self.text(event.data.alias.anchor) ?? ""
                    guard let node = anchors[name] else {
                        throw SyntaxError(problem: "found undefined alias", mark: mark, context: nil, contextMark: nil)
                    }
                    try add(node, anchor: nil, mark: mark)
                case YAML_SEQUENCE_START_EVENT where stack.count == YAMLDocument.maximumDepth,
                    YAML_MAPPING_START_EVENT where stack.count == YAMLDocument.maximumDepth:
                    throw SyntaxError(problem: "nesting deeper than \(YAMLDocument.maximumDepth) levels", mark: mark, context: nil, contextMark: nil)
                case YAML_SEQUENCE_START_EVENT:
                    stack.append(Open(isMapping: false, anchor: Self.text(event.data.sequence_start.anchor), mark: mark))
                case YAML_MAPPING_START_EVENT:
                    stack.append(Open(isMapping: true, anchor: Self.text(event.data.mapping_start.anchor), mark: mark))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let open = stack.removeLast()
                    let node: YAMLNode
                    if open.isMapping {
                        try Self.checkDuplicates(open.entries)
                        node = .mapping(YAMLNode.Mapping(entries: open.entries, mark: open.mark))
                    } else {
                        node = .sequence(YAMLNode.List(items: open.items, mark: open.mark))
                    }
                    try add(node, anchor: open.anchor, mark: open.mark)
                default:
                    break
                }
            }
        }

        private mutating func add(_ node: YAMLNode, anchor: String?, mark: YAMLNode.Mark) throws(SyntaxError) {
            if let anchor { anchors[anchor] = node }
            guard !stack.isEmpty else {
                root = node
                return
            }
            let top = stack.count - 1
            if !stack[top].isMapping {
                stack[top].items.append(node)
            } else if let key = stack[top].key {
                stack[top].entries.append((key, node))
                stack[top].key = nil
            } else {
                stack[top].key = node
            }
        }

        /// Keys written twice in one mapping, as one problem at the first of them in order of their text.
        private static func checkDuplicates(_ entries: [(key: YAMLNode, value: YAMLNode)]) throws(SyntaxError) {
            guard entries.count > 1 else { return }
            var counts: [String: (count: Int, mark: YAMLNode.Mark)] = [:]
            for entry in entries {
                guard let key = entry.key.scalar else { continue }
                counts[key.string, default: (0, key.mark)].count += 1
            }
            let duplicates = counts.filter { $0.value.count > 1 }.keys.sorted()
            guard let first = duplicates.first, let mark = counts[first]?.mark else { return }
            throw SyntaxError(
                problem: "duplicate keys \(duplicates.joined(separator: ", "))", mark: mark, context: nil, contextMark: nil, kind: .duplicateKeys)
        }

        private static func error(_ parser: yaml_parser_t) -> SyntaxError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
            if parser.error == YAML_READER_ERROR {
                return SyntaxError(problem: problem, mark: YAMLNode.Mark(line: 1, column: 1), context: nil, contextMark: nil, kind: .unreadable)
            }
            let mark = YAMLNode.Mark(line: parser.problem_mark.line + 1, column: parser.problem_mark.column + 1)
            let context = parser.context.map { String(cString: $0) }
            let contextMark = context == nil ? nil : YAMLNode.Mark(line: parser.context_mark.line + 1, column: parser.context_mark.column + 1)
            return SyntaxError(problem: problem, mark: mark, context: context, contextMark: contextMark)
        }

        private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }

        private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Scalar.Style {
            switch style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
        }
    }
}
