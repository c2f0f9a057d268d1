/// The parts of a SentencePiece `ModelProto` that encoding and the vocabulary need.
struct SentencePieceModel {
    enum PieceType: Int {
        case normal = 1, unknown = 2, control = 3, userDefined = 4, unused = 5, byte = 6
    }

    struct Piece {
        var text: [UInt8] = []
        var score: Float = 0
        var type: PieceType = .normal
    }

    var pieces: [Piece] = []
    // TrainerSpec (field numbers from sentencepiece_model.proto).
    var modelType: UInt64 = 1 // UNIGRAM
    var byteFallback = false
    var unkID = 0
    var bosID = 1
    var eosID = 2
    var padID = -1
    var treatWhitespaceAsSuffix = false
    // NormalizerSpec.
    var normalizerName = ""
    var hasPrecompiledCharsmap = false
    var addDummyPrefix = true
    var removeExtraWhitespaces = true
    var escapeWhitespaces = true

    static func parse(_ d: UnsafeBufferPointer<UInt8>) throws(ProtobufReader.Failure) -> SentencePieceModel {
        var model = SentencePieceModel()
        var r = ProtobufReader(d, range: 0..<d.count)
        while !r.isAtEnd {
            let at = r.position
            let (field, value) = try r.next()
            switch (field, value) {
            case (1, .bytes(let range)):
                model.pieces.append(try parsePiece(d, range, index: model.pieces.count))
            case (2, .bytes(let range)):
                try model.parseTrainerSpec(d, range)
            case (3, .bytes(let range)):
                try model.parseNormalizerSpec(d, range)
            case (1, _), (2, _), (3, _):
                throw ProtobufReader.Failure(offset: at, message: "field \(field) of ModelProto has the wrong wire type")
            default:
                break // self-test data, denormalizer: not needed
            }
        }
        return model
    }

    private static func parsePiece(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, index: Int) throws(ProtobufReader.Failure) -> Piece {
        var piece = Piece()
        var r = ProtobufReader(d, range: range)
        while !r.isAtEnd {
            let at = r.position
            switch try r.next() {
            case (1, .bytes(let t)): piece.text = Array(d[t])
            case (2, .fixed32(let bits)): piece.score = Float(bitPattern: bits)
            case (3, .varint(let t)):
                // A varint is any 64-bit value: convert only one that can be a piece type (never trap).
                guard let raw = Int(exactly: t), let type = PieceType(rawValue: raw) else {
                    throw ProtobufReader.Failure(offset: at, message: "piece \(index) has unknown type \(t)")
                }
                piece.type = type
            case (1, _), (2, _), (3, _):
                throw ProtobufReader.Failure(offset: at, message: "piece \(index) has a field with the wrong wire type")
            default: break
            }
        }
        return piece
    }

    private mutating func parseTrainerSpec(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ProtobufReader.Failure) {
        var r = ProtobufReader(d, range: range)
        while !r.isAtEnd {
            let (field, value) = try r.next()
            guard case .varint(let v) = value else { continue }
            let signed = Int(Int32(truncatingIfNeeded: v))
            switch field {
            case 3: modelType = v
            case 24: treatWhitespaceAsSuffix = v != 0
            case 35: byteFallback = v != 0
            case 40: unkID = signed
            case 41: bosID = signed
            case 42: eosID = signed
            case 43: padID = signed
            default: break
            }
        }
    }

    private mutating func parseNormalizerSpec(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ProtobufReader.Failure) {
        var r = ProtobufReader(d, range: range)
        while !r.isAtEnd {
            switch try r.next() {
            case (1, .bytes(let t)): normalizerName = String(decoding: d[t], as: UTF8.self)
            case (2, .bytes(let t)): hasPrecompiledCharsmap = !t.isEmpty
            case (3, .varint(let v)): addDummyPrefix = v != 0
            case (4, .varint(let v)): removeExtraWhitespaces = v != 0
            case (5, .varint(let v)): escapeWhitespaces = v != 0
            default: break
            }
        }
    }
}
