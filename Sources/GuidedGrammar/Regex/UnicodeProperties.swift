/// Unicode general categories as `CodePointSet`s, for `\p{..}` / `\P{..}`.
///
/// The table is built once, on first use, by one pass over all scalars with Swift's
/// `Unicode.Scalar.Properties.generalCategory` (so it follows the Unicode version of the Swift
/// runtime). A `static let` is initialized lazily and exactly once under the runtime's `swift_once`,
/// which makes the cache thread-safe without locks.
public enum UnicodeProperties {
    /// Every general category's members, in `Unicode.GeneralCategory` order.
    static let categoryTable: [Unicode.GeneralCategory: CodePointSet] = {
        var ranges: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = [:]
        var runStart: UInt32 = 0
        var runCategory: Unicode.GeneralCategory? = nil
        func close(_ end: UInt32) {
            if let c = runCategory { ranges[c, default: []].append(runStart...end) }
        }
        var v: UInt32 = 0
        while v <= CodePointSet.maxScalar {
            if v == 0xD800 { close(0xD7FF); runCategory = nil; v = 0xE000; continue }
            let c = Unicode.Scalar(v)!.properties.generalCategory
            if c != runCategory { close(v &- 1); runStart = v; runCategory = c }
            v += 1
        }
        close(CodePointSet.maxScalar)
        return ranges.mapValues { CodePointSet(ranges: $0) }
    }()

    /// Names accepted by `\p{..}`: short and long general-category names (and `gc=`/`General_Category=`
    /// forms, handled by `set(named:)`), the groups L, LC, M, N, P, S, Z, C, and `Any`, `ASCII`, `Assigned`.
    static let groups: [String: [Unicode.GeneralCategory]] = {
        typealias G = Unicode.GeneralCategory
        let table: [(String, String, [G])] = [
            ("L", "Letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            ("LC", "Cased_Letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            ("Lu", "Uppercase_Letter", [.uppercaseLetter]),
            ("Ll", "Lowercase_Letter", [.lowercaseLetter]),
            ("Lt", "Titlecase_Letter", [.titlecaseLetter]),
            ("Lm", "Modifier_Letter", [.modifierLetter]),
            ("Lo", "Other_Letter", [.otherLetter]),
            ("M", "Mark", [.nonspacingMark, .spacingMark, .enclosingMark]),
            ("Mn", "Nonspacing_Mark", [.nonspacingMark]),
            ("Mc", "Spacing_Mark", [.spacingMark]),
            ("Me", "Enclosing_Mark", [.enclosingMark]),
            ("N", "Number", [.decimalNumber, .letterNumber, .otherNumber]),
            ("Nd", "Decimal_Number", [.decimalNumber]),
            ("Nl", "Letter_Number", [.letterNumber]),
            ("No", "Other_Number", [.otherNumber]),
            ("P", "Punctuation", [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                  .initialPunctuation, .finalPunctuation, .otherPunctuation]),
            ("Pc", "Connector_Punctuation", [.connectorPunctuation]),
            ("Pd", "Dash_Punctuation", [.dashPunctuation]),
            ("Ps", "Open_Punctuation", [.openPunctuation]),
            ("Pe", "Close_Punctuation", [.closePunctuation]),
            ("Pi", "Initial_Punctuation", [.initialPunctuation]),
            ("Pf", "Final_Punctuation", [.finalPunctuation]),
            ("Po", "Other_Punctuation", [.otherPunctuation]),
            ("S", "Symbol", [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            ("Sm", "Math_Symbol", [.mathSymbol]),
            ("Sc", "Currency_Symbol", [.currencySymbol]),
            ("Sk", "Modifier_Symbol", [.modifierSymbol]),
            ("So", "Other_Symbol", [.otherSymbol]),
            ("Z", "Separator", [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            ("Zs", "Space_Separator", [.spaceSeparator]),
            ("Zl", "Line_Separator", [.lineSeparator]),
            ("Zp", "Paragraph_Separator", [.paragraphSeparator]),
            ("C", "Other", [.control, .format, .surrogate, .privateUse, .unassigned]),
            ("Cc", "Control", [.control]),
            ("Cf", "Format", [.format]),
            ("Cs", "Surrogate", [.surrogate]),
            ("Co", "Private_Use", [.privateUse]),
            ("Cn", "Unassigned", [.unassigned]),
        ]
        var out: [String: [G]] = [:]
        for (short, long, cats) in table { out[short] = cats; out[long] = cats }
        out["punct"] = out["P"]; out["digit"] = out["Nd"]; out["Combining_Mark"] = out["M"]
        return out
    }()

    /// The set for a property name as written inside `\p{..}`, or nil when unknown or unsupported.
    public static func set(named rawName: String) -> CodePointSet? {
        var name = rawName
        for prefix in ["General_Category=", "gc="] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
            guard groups[name] != nil else { return nil }
        }
        switch name {
        case "Any": return .all
        case "ASCII": return CodePointSet(ranges: [0...0x7F])
        case "Assigned": return set(named: "Cn")!.complement()
        default: break
        }
        guard let cats = groups[name] else { return nil }
        var result = CodePointSet()
        for c in cats { if let s = categoryTable[c] { result = result.union(s) } }
        return result
    }
}
