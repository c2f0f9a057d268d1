extension UnsafeMutableBufferPointer {
    /// A new buffer holding a copy of `elements`, for storage read by every thread at once (token lists,
    /// bitmasks): an array there is retained and released at each read, which writes a reference count
    /// that all threads share. The owner frees it with `deallocate()` (an empty copy still owns a
    /// one-element allocation, so that its base address is never nil).
    static func copying(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(1, elements.count))
        _ = buffer.initialize(from: elements)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<elements.count])
    }
}
