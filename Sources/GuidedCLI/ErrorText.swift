import Foundation

/// An error in words for a person: Foundation's file errors become "cannot read FILE: no such file"
/// instead of an `NSError` dump; errors that describe themselves keep their description.
public enum ErrorText {
    public static func describe(_ error: any Error) -> String {
        if let e = error as? InputError { return e.description }
        if let e = error as? CocoaError, let path = e.filePath ?? (e.userInfo[NSURLErrorKey] as? URL)?.path {
            return "cannot read \(path): \(reason(e))"
        }
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain {
            let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
            let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0.code : nil }
                ?? (ns.domain == NSPOSIXErrorDomain ? ns.code : nil)
            let why = posix.map { String(cString: strerror(Int32($0))).lowercased() } ?? "input/output error"
            return path.map { "cannot read \($0): \(why)" } ?? why
        }
        return String(describing: error)
    }

    private static func reason(_ e: CocoaError) -> String {
        switch e.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        case .fileReadCorruptFile: return "not in the expected format"
        case .fileReadInapplicableStringEncoding: return "not UTF-8 text"
        default:
            if let u = e.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(u.code))).lowercased()
            }
            return "cannot be read (Cocoa error \(e.code.rawValue))"
        }
    }
}

/// A file or directory named on the command line that is not there or not of the right kind.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }

    /// Checks before use that `path` is a readable file, so a typo reads "cannot read X: no such file".
    public static func requireFile(_ path: String) throws(InputError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw InputError(path: path, reason: "is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw InputError(path: path, reason: "permission denied") }
    }

    /// Checks before use that `path` is a readable directory.
    public static func requireDirectory(_ path: String) throws(InputError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw InputError(path: path, reason: "is a file, not a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw InputError(path: path, reason: "permission denied") }
    }
}
