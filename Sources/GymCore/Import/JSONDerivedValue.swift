extension JSONRecordScanner {
  /// The deepest derived value skipped: `show`'s are two levels deep; anything deeper is not one.
  static let derivedDepth = 8

  /// Skips `: value` after a derived name, leaving `i` after the value: any JSON value, its strings
  /// checked as the record's own are, nested at most `derivedDepth` levels.
  mutating func skipDerived(at i: inout Int, storage: [UInt8], end: Int) -> Outcome {
    i = Self.skippingSpace(from: i, storage, end)
    guard i < end else { return .incomplete }
    guard storage[i] == UInt8(ascii: ":") else { return .failure("expected ':' after the field name", i) }
    i += 1
    var depth = 0
    repeat {
      i = Self.skippingSpace(from: i, storage, end)
      guard i < end else { return .incomplete }
      let c = storage[i]
      switch c {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        guard depth <= Self.derivedDepth else { return .failure("a value nested too deep", i) }
        i += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard depth > 0 else { return .failure("invalid JSON value", i) }
        depth -= 1
        i += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        guard depth > 0 else { return .failure("invalid JSON value", i) }
        i += 1
      case UInt8(ascii: "\""):
        switch string(at: &i, storage: storage, end: end) {
        case .complete: break
        case let stop: return stop
        }
      default:
        // A number or true, false, null: letters, digits and the signs of a number.
        let start = i
        while i < end,
          storage[i] == 43 || storage[i] == 45 || storage[i] == 46 || (storage[i] >= 48 && storage[i] <= 57)
            || (storage[i] >= 97 && storage[i] <= 122) || storage[i] == 69
        {
          i += 1
        }
        guard i < end else { return .incomplete }
        guard i > start else { return .failure("invalid JSON value", i) }
      }
    } while depth > 0
    return .complete(i)
  }
}
