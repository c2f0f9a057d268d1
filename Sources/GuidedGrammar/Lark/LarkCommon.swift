/// The terminals `%import common.NAME` brings in: the names of Lark's `common.lark` that llguidance
/// and XGrammar also provide, each written here as one regex (read like a Lark `/…/`, so `.` does not
/// match a line break).
enum LarkCommon {
    static let float = #"(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+"#

    static let patterns: [String: String] = [
        "DIGIT": "[0-9]",
        "HEXDIGIT": "[a-fA-F0-9]",
        "INT": "[0-9]+",
        "SIGNED_INT": "[+-]?[0-9]+",
        "DECIMAL": #"[0-9]+\.[0-9]*|\.[0-9]+"#,
        "_EXP": "[eE][+-]?[0-9]+",
        "FLOAT": float,
        "SIGNED_FLOAT": "[+-]?(?:\(float))",
        "NUMBER": "[0-9]+|\(float)",
        "SIGNED_NUMBER": "[+-]?(?:[0-9]+|\(float))",
        // A double-quoted string whose quotes and backslashes inside are escaped.
        "ESCAPED_STRING": #""(?:[^"\\]|\\.)*""#,
        "LCASE_LETTER": "[a-z]",
        "UCASE_LETTER": "[A-Z]",
        "LETTER": "[A-Za-z]",
        "WORD": "[A-Za-z]+",
        "CNAME": "[_A-Za-z][_A-Za-z0-9]*",
        "WS_INLINE": "[ \\t]+",
        "WS": "[ \\t\\f\\r\\n]+",
        "CR": "\\r",
        "LF": "\\n",
        "NEWLINE": "(?:\\r?\\n)+",
        "SH_COMMENT": "#[^\\n]*",
        "CPP_COMMENT": "//[^\\n]*",
        "C_COMMENT": #"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/"#,
        "SQL_COMMENT": "--[^\\n]*",
    ]

    static var names: String { patterns.keys.sorted().joined(separator: ", ") }
}
