/// The parsed pattern.
indirect enum RegexNode {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case assert(LinearRegex.Assertion)
    case group(RegexNode, index: Int?)
    case sequence([RegexNode])
    case alternation([RegexNode])
    case repeated(RegexNode, min: Int, max: Int?, lazy: Bool)
}
