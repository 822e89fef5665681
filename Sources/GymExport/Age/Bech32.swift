/// Bech32 (BIP 173), the encoding of age's keys: `age1…` recipients and `AGE-SECRET-KEY-1…`
/// identities. Only what age needs: 8-bit data in, 5-bit groups, the checksum.
enum Bech32 {
  static let alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

  static func polymod(_ values: [UInt8]) -> UInt32 {
    let generators: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
    var check: UInt32 = 1
    for value in values {
      let top = check >> 25
      check = (check & 0x1ff_ffff) << 5 ^ UInt32(value)
      for i in 0..<5 where (top >> i) & 1 == 1 { check ^= generators[i] }
    }
    return check
  }

  static func expand(_ hrp: [UInt8]) -> [UInt8] { hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 } }

  /// Regroups bits: 8 → 5 (padding the last group) or 5 → 8 (refusing non-zero padding).
  static func convert(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
    var accumulator = 0
    var bits = 0
    var out: [UInt8] = []
    let mask = (1 << to) - 1
    for value in data {
      guard Int(value) >> from == 0 else { return nil }
      accumulator = accumulator << from | Int(value)
      bits += from
      while bits >= to {
        bits -= to
        out.append(UInt8((accumulator >> bits) & mask))
      }
    }
    if pad {
      if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & mask)) }
    } else if bits >= from || (accumulator << (to - bits)) & mask != 0 {
      return nil
    }
    return out
  }

  /// `hrp` + `1` + data + checksum, in lower case.
  static func encode(hrp: String, data: [UInt8]) -> String {
    let prefix = Array(hrp.lowercased().utf8)
    let groups = convert(data, from: 8, to: 5, pad: true)!
    let check = polymod(expand(prefix) + groups + [0, 0, 0, 0, 0, 0]) ^ 1
    let checksum = (0..<6).map { UInt8((check >> (5 * (5 - $0))) & 31) }
    return String(decoding: prefix + [UInt8(ascii: "1")] + (groups + checksum).map { alphabet[Int($0)] }, as: UTF8.self)
  }

  /// The human-readable part (lower case) and the data; nil when the checksum or the characters are wrong.
  /// All upper case or all lower case, as BIP 173 requires.
  static func decode(_ text: String) -> (hrp: String, data: [UInt8])? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 8, bytes.allSatisfy({ (33...126).contains($0) }),
      text == text.lowercased() || text == text.uppercased(),
      let separator = bytes.lastIndex(of: UInt8(ascii: "1")), separator >= 1, bytes.count - separator > 6
    else { return nil }
    let lower = Array(text.lowercased().utf8)
    let hrp = Array(lower[..<separator])
    var values: [UInt8] = []
    for byte in lower[(separator + 1)...] {
      guard let index = alphabet.firstIndex(of: byte) else { return nil }
      values.append(UInt8(index))
    }
    guard polymod(expand(hrp) + values) == 1,
      let data = convert(Array(values.dropLast(6)), from: 5, to: 8, pad: false)
    else { return nil }
    return (String(decoding: hrp, as: UTF8.self), data)
  }
}
