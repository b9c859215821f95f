/// Turns a `RegexNode` tree into the Pike machine's program.
struct RegexCompiler {
    var program: [LinearRegex.Instruction] = []

    mutating func emit(_ instruction: LinearRegex.Instruction) {
        program.append(instruction)
    }

    mutating func compile(_ node: RegexNode) {
        guard program.count <= 100_000 else { return }  // reported by the caller
        switch node {
        case .empty: break
        case .scalar(let s): emit(.scalar(s))
        case .any: emit(.any)
        case .set(let set): emit(.set(set))
        case .assert(let assertion): emit(.assert(assertion))
        case .group(let inner, let index):
            if let index { emit(.save(2 * index)) }
            compile(inner)
            if let index { emit(.save(2 * index + 1)) }
        case .sequence(let items):
            for item in items { compile(item) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (i, branch) in branches.enumerated() {
                if i < branches.count - 1 {
                    let split = program.count
                    emit(.split(split + 1, -1))
                    compile(branch)
                    jumps.append(program.count)
                    emit(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    compile(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum, let lazy):
            for _ in 0..<minimum { compile(inner) }
            if let maximum {
                // Each optional copy: split over it; all skip to the end.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    emit(.split(-1, -1))
                    compile(inner)
                }
                let end = program.count
                for split in splits { program[split] = lazy ? .split(end, split + 1) : .split(split + 1, end) }
            } else {
                let loop = program.count
                emit(.split(-1, -1))
                compile(inner)
                emit(.jump(loop))
                let end = program.count
                program[loop] = lazy ? .split(end, loop + 1) : .split(loop + 1, end)
            }
        }
    }
}
