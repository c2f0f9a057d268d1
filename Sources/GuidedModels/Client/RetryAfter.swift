import Foundation

/// Parses an HTTP `Retry-After` value: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
///
/// RFC 9110 asks recipients to accept all three date forms: IMF-fixdate, the obsolete RFC 850 form and
/// asctime. Anything else yields nil (the caller then falls back to its own backoff).
public enum RetryAfter {
    public static func resetDate(_ value: String, now: Date) -> Date? {
        let v = value.trimmingCharacters(in: .whitespaces)
        if !v.isEmpty, v.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = Int(v) else { return nil }  // too many digits to be meaningful
            return now.addingTimeInterval(TimeInterval(seconds))
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "GMT")
            f.dateFormat = format
            if let d = f.date(from: v.replacingOccurrences(of: "  ", with: " ")) { return d }
        }
        return nil
    }
}
