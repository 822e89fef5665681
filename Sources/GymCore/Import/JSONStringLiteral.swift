/// String literals of the JSON records: plain text taken where it lies, escapes decoded.
extension JSONRecordScanner {
  /// Decodes the string literal at `i` into `scratch`, leaving `i` after its closing quote.
  mutating func string(at i: inout Int, storage: [UInt8], end: Int) -> Outcome {
    let start = i + 1
    let (outcome, plain) = literal(at: &i, storage: storage, end: end)
    if let plain {
      scratch.removeAll(keepingCapacity: true)
      storage.withUnsafeBufferPointer { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<plain])) }
    }
    return outcome
  }

  /// Scans the string literal at `i`, leaving `i` after its closing quote. Without an escape its
  /// text is the bytes between the quotes, left where they are: `plain` is where it ends. Else its
  /// decoded text is in `scratch`.
  mutating func literal(at i: inout Int, storage: [UInt8], end: Int) -> (outcome: Outcome, plain: Int?) {
    var j = i + 1
    let start = j
    storage.withUnsafeBufferPointer { bytes in
      while j < end, bytes[j] != 34, bytes[j] != 92, bytes[j] >= 32 { j += 1 }
    }
    guard j < end else { return (.incomplete, nil) }
    if storage[j] == UInt8(ascii: "\"") {
      i = j + 1
      return (.complete(i), j)
    }
    scratch.removeAll(keepingCapacity: true)
    storage.withUnsafeBufferPointer { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<j])) }
    return (escaped(at: &i, from: j, storage: storage, end: end), nil)
  }

  /// The rest of a literal from `j`, its first escape or control byte, decoded onto `scratch`.
  private mutating func escaped(at i: inout Int, from j: Int, storage: [UInt8], end: Int) -> Outcome {
    var j = j
    while j < end {
      // The run of plain bytes up to the next quote, backslash or control byte, copied at once
      // (byte by byte, the appends were most of an export's parse).
      let run = j
      storage.withUnsafeBufferPointer { bytes in
        while j < end, bytes[j] != 34, bytes[j] != 92, bytes[j] >= 32 { j += 1 }
        if j > run { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<j])) }
      }
      guard j < end else { break }
      let c = storage[j]
      if c == UInt8(ascii: "\"") {
        i = j + 1
        return .complete(i)
      }
      if c == UInt8(ascii: "\\") {
        guard j + 1 < end else { return .incomplete }
        let e = storage[j + 1]
        j += 2
        switch e {
        case UInt8(ascii: "n"): scratch.append(10)
        case UInt8(ascii: "t"): scratch.append(9)
        case UInt8(ascii: "r"): scratch.append(13)
        case UInt8(ascii: "b"): scratch.append(8)
        case UInt8(ascii: "f"): scratch.append(12)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
        case UInt8(ascii: "u"):
          guard j + 4 <= end else { return .incomplete }
          guard var code = hex(storage, j) else { return .failure("invalid \\u escape", j) }
          j += 4
          if code >= 0xD800 && code < 0xDC00 {
            if j + 6 > end {
              // Not all of a low surrogate's six bytes have come: what has must begin one (`"\ud800"}` at
              // the end of the input was told as a record cut off).
              for k in 0..<min(2, end - j) where storage[j + k] != (k == 0 ? 92 : 117) {
                return .failure("unpaired UTF-16 surrogate in \\u escape", j)
              }
              return .incomplete
            }
            guard storage[j] == 92, storage[j + 1] == 117, let low = hex(storage, j + 2), low >= 0xDC00, low < 0xE000
            else { return .failure("unpaired UTF-16 surrogate in \\u escape", j) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            j += 6
          }
          guard let scalar = Unicode.Scalar(code) else { return .failure("invalid \\u escape", j) }
          scratch.append(contentsOf: String(Character(scalar)).utf8)
        default:
          return .failure("invalid escape '\\\(Character(Unicode.Scalar(e)))'", j - 2)
        }
        continue
      }
      return .failure("control character inside a string (escape it)", j)
    }
    return .incomplete
  }

  private func hex(_ s: [UInt8], _ at: Int) -> UInt32? {
    var v: UInt32 = 0
    for k in at..<at + 4 {
      let c = s[k]
      let d: UInt8
      switch c {
      case 48...57: d = c - 48
      case 97...102: d = c - 87
      case 65...70: d = c - 55
      default: return nil
      }
      v = v << 4 | UInt32(d)
    }
    return v
  }
}
