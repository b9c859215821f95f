import ResourceEngine

/// Panes whose requests take values from other panes (`${pane:TITLE:PATH}`): each reference
/// names a pane of the file, its path parses, and no pane waits on itself through others.
extension ConfigLoader {
    /// Makes the pane's chain from what `reader` noted while its request was read, and clears it.
    static func takeChain(_ reader: inout NodeReader) -> PaneChain? {
        defer {
            reader.chainFields = []
            reader.chainReferences = []
        }
        guard !reader.chainFields.isEmpty else { return nil }
        let references = reader.chainReferences.map { PaneChain.Reference(written: $0.written, source: $0.written, path: nil, line: $0.line, column: $0.column) }
        return PaneChain(fields: reader.chainFields, references: references, interpolator: reader.interpolator)
    }

    /// Finds each reference's source pane and path among `titles` (every title the file gives,
    /// read or not), and reports a reference to no pane, a bad path and every cycle.
    static func linkChains(_ panes: inout [PaneSpec], titles: [String], reader: inout NodeReader) {
        let known = Set(titles)
        for index in panes.indices {
            guard var chain = panes[index].chain else { continue }
            var linked: [PaneChain.Reference] = []
            for reference in chain.references {
                guard let source = source(of: reference.written, among: known) else {
                    let guess = reference.written.lastIndex(of: ":").map { String(reference.written[..<$0]) } ?? reference.written
                    reader.problem(
                        line: reference.line, column: reference.column,
                        "${pane:\(reference.written)}: no pane is titled \"\(guess)\"" + Suggestions.hint(for: guess, in: titles))
                    continue
                }
                if source.title == panes[index].title {
                    reader.problem(line: reference.line, column: reference.column, "${pane:\(reference.written)}: a pane cannot take a value from itself")
                    continue
                }
                var path: JSONPath?
                if !source.path.isEmpty {
                    do {
                        path = try JSONPath(source.path)
                    } catch {
                        reader.problem(line: reference.line, column: reference.column, "${pane:\(reference.written)}: \(error)")
                        continue
                    }
                }
                linked.append(PaneChain.Reference(written: reference.written, source: source.title, path: path, line: reference.line, column: reference.column))
            }
            chain.references = linked
            panes[index].chain = chain
        }
        reportCycles(in: panes, reader: &reader)
    }

    /// The title a reference names and the path after it: the whole text when it is a title,
    /// else the longest title before a `:` (titles may hold colons; paths rarely do).
    private static func source(of written: String, among titles: Set<String>) -> (title: String, path: String)? {
        if titles.contains(written) { return (written, "") }
        var best: (title: String, path: String)?
        for colon in written.indices where written[colon] == ":" {
            let title = String(written[..<colon])
            if titles.contains(title) { best = (title, String(written[written.index(after: colon)...])) }
        }
        return best
    }

    /// Each cycle of panes waiting on each other once, at the reference that closes it.
    private static func reportCycles(in panes: [PaneSpec], reader: inout NodeReader) {
        for (reference, cycle) in cycles(in: panes, edges: { $0.chain?.references ?? [] }, target: \.source) {
            reader.problem(
                line: reference.line, column: reference.column,
                "${pane:\(reference.written)} makes a cycle: \(cycle.joined(separator: " → ")) (each would wait for the other)")
        }
    }

    /// Each cycle that `edges` (from a pane to the pane titled `target`) make among `panes`,
    /// once, with the edge that closes it and the titles around it.
    static func cycles<Edge>(in panes: [PaneSpec], edges: (PaneSpec) -> [Edge], target: (Edge) -> String) -> [(edge: Edge, cycle: [String])] {
        let byTitle = Dictionary(panes.enumerated().map { ($1.title, $0) }) { first, _ in first }
        var found: [(edge: Edge, cycle: [String])] = []
        var state = [Int: Bool]()  // false: on the current path; true: done
        var path: [Int] = []
        func visit(_ index: Int) {
            state[index] = false
            path.append(index)
            for edge in edges(panes[index]) {
                guard let next = byTitle[target(edge)] else { continue }
                switch state[next] {
                case false?: found.append((edge, path[path.firstIndex(of: next)!...].map { panes[$0].title } + [target(edge)]))
                case nil: visit(next)
                case true?: break
                }
            }
            path.removeLast()
            state[index] = true
        }
        for index in panes.indices where state[index] == nil && !edges(panes[index]).isEmpty { visit(index) }
        return found
    }
}
