import Foundation

enum FileHandleOutput {
    static func standardError(_ s: String) {
        FileHandle.standardError.write(Data(s.utf8))
    }
}
