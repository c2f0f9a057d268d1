import Foundation

/// Reads the instant an RFC 3339 `date-time` (or a bare `full-date`, taken as midnight UTC) names.
///
/// Why our own reader rather than `ISO8601DateFormatter`: the formatter rejects parts of RFC 3339 that
/// `format: date-time` allows and so the grammar may generate (lowercase `t`/`z`, section 5.6; more than
/// a few fraction digits), so a masked value could validate and still fail to decode. The syntax check
/// is the validator's own (`RFC3339.isDateTime`), so "valid `date-time`" and "decodes" are one set.
///
/// The calendar is the proleptic Gregorian one of RFC 3339 (no Julian switch in 1582, unlike
/// `Calendar(identifier: .gregorian)`). A leap second `23:59:60` is read as the instant one second after
/// `23:59:59`, as POSIX time does, since `Date` cannot hold it.
public enum RFC3339Timestamp {
    /// The instant `text` names, or nil when it is neither an RFC 3339 `date-time` nor a `full-date`.
    public static func date(from text: String) -> Date? {
        let u = Array(text.utf8)
        if u.count == 10 {
            guard RFC3339.isDate(u) else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch(u) * 86_400))
        }
        guard RFC3339.isDateTime(text) else { return nil }
        // Fixed positions are safe from here: the validator checked the layout digit by digit.
        let hour = field(u, 11..<13), minute = field(u, 14..<16), second = field(u, 17..<19)
        var i = 19
        var fraction = 0.0
        if u[i] == UInt8(ascii: ".") {
            let start = i
            i += 1
            while FormatChecker.isDigit(u[i]) { i += 1 }
            // "0.<digits>" always parses; Double keeps what a Date can hold (about 0.1 µs today).
            fraction = Double("0" + String(decoding: u[start..<i], as: UTF8.self)) ?? 0
        }
        var offsetSeconds = 0
        if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") {
            let magnitude = field(u, i + 1..<i + 3) * 3_600 + field(u, i + 4..<i + 6) * 60
            offsetSeconds = u[i] == UInt8(ascii: "+") ? magnitude : -magnitude
        }
        let whole = daysSinceEpoch(u) * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: TimeInterval(whole) + fraction)
    }

    /// The decimal number in `u[range]`, known to be all digits.
    static func field(_ u: [UInt8], _ range: Range<Int>) -> Int {
        u[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Days from 1970-01-01 to the `YYYY-MM-DD` at the start of `u`, counted in 400-year cycles of
    /// 146,097 days with years starting in March, so the leap day is the last day of its year.
    static func daysSinceEpoch(_ u: [UInt8]) -> Int {
        let month = field(u, 5..<7), day = field(u, 8..<10)
        let year = field(u, 0..<4) - (month <= 2 ? 1 : 0)  // -1 for January and February of year 0
        let cycle = (year >= 0 ? year : year - 399) / 400
        let yearOfCycle = year - cycle * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        // 719,468 days from 0000-03-01 to 1970-01-01.
        return cycle * 146_097 + dayOfCycle - 719_468
    }
}
