extension NumberScanners {
    /// Literals with at most `n` digits in each of the integer part, the fraction and the exponent
    /// (`JSONSchemaCompileOptions.maxNumberDigits`): a filter, intersected with the syntax.
    static func digitRuns(atMost n: Int) -> NumberDFA {
        struct S: Hashable { var part = 0; var digits = 0 }
        return NumberDFA.build(start: S(), step: { s, sym in
            switch sym {
            case 0...9: return s.digits < n ? S(part: s.part, digits: s.digits + 1) : nil
            case 11: return S(part: 1, digits: 0)
            case 12: return S(part: 2, digits: 0)
            default: return s   // `-`, `+`
            }
        }, accepts: { _ in true }, limit: 3 * (n + 1) + 1)!
    }
}
