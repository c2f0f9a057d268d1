import GuidedSchema

/// A parsed expression of a Lark rule or terminal; `at` is where it starts (scalar offset).
indirect enum LarkExpr {
    case empty
    case alternatives([LarkExpr])
    case sequence([LarkExpr])
    /// `A & B` (terminals only): both.
    case intersection([LarkExpr], at: Int)
    /// `~A` (terminals only): any bytes but A's.
    case negation(LarkExpr, at: Int)
    case `repeat`(LarkExpr, min: Int, max: Int?)
    case name(String, at: Int)
    case string(String, caseInsensitive: Bool, at: Int)
    /// `"a".."z"`.
    case range(Unicode.Scalar, Unicode.Scalar, at: Int)
    case regex(String, flags: String, at: Int)
    case json(JSONValue, at: Int)
    case regexExtension(JSONValue, at: Int)
    case special(String, at: Int)
    case grammarReference(String, at: Int)
}

/// A parsed Lark file: definitions and directives in order.
struct LarkFile {
    struct Definition {
        var name: String
        var body: LarkExpr
        var at: Int
        var isTerminal: Bool
    }

    var definitions: [Definition] = []
    var ignores: [LarkExpr] = []
    /// `%import common.NAME -> ALIAS`: (common name, name defined, offset).
    var imports: [(common: String, alias: String, at: Int)] = []
    var allowInitialSkip = false
    var ignoreOnce = false
}
