/// What the validator needs to know about a draft (`JSONSchemaDraft` itself is shared with the importer).
extension JSONSchemaDraft: Comparable {
    /// Drafts in publication order, so keyword availability reads as `draft >= .draft2019_09`.
    public static func < (a: JSONSchemaDraft, b: JSONSchemaDraft) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The folder name the JSON Schema Test Suite uses: `draft4`, `draft6`, `draft7`, `draft2019-09`,
    /// `draft2020-12`.
    public var suiteName: String {
        switch self {
        case .draft4: return "draft4"
        case .draft6: return "draft6"
        case .draft7: return "draft7"
        case .draft2019_09: return "draft2019-09"
        case .draft2020_12: return "draft2020-12"
        }
    }

    /// The draft a JSON Schema Test Suite folder name designates.
    public init?(suiteName: String) {
        guard let d = JSONSchemaDraft.allCases.first(where: { $0.suiteName == suiteName }) else { return nil }
        self = d
    }

    /// Draft 4 spells the identifier `id`; later drafts `$id`.
    var idKeyword: String { self == .draft4 ? "id" : "$id" }

    /// Before 2019-09 a `$ref` makes every sibling keyword (including `$id`) ignored.
    var refOverridesSiblings: Bool { self <= .draft7 }
}
