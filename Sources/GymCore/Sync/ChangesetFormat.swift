/// The layout of a changeset, checked before SQLite reads one from outside: SQLite 3.40's iterator
/// never returns from a changeset cut inside a table header (the single byte `T` spins
/// `sqlite3changeset_next` forever), so a changeset is walked here first, every length within its
/// bytes. The layout is SQLite's own (`sqlite3session.c`, "CHANGESET FORMAT"): per table a header
/// (`T`, a varint column count, one primary-key flag byte per column, the table's name and a zero
/// byte), then its changes: an operation byte (insert 0x12, update 0x17, delete 0x09), an indirect
/// flag byte, and the old record (update, delete) and new record (insert, update), each one field
/// per column: a type byte (0 none, 1 integer and 2 real of 8 bytes, 3 text and 4 blob of a varint
/// length and the bytes, 5 null).
enum ChangesetFormat {
  /// Why `bytes` is not a changeset SQLite can read safely, or nil.
  static func problem(_ bytes: [UInt8]) -> String? {
    var reader = Reader(bytes: bytes)
    var columns: Int?
    while !reader.atEnd {
      guard let byte = reader.byte() else { return "it ends inside a change" }
      switch byte {
      case 0x54:
        guard let count = reader.varint(), (1...32_767).contains(count) else { return "a table header is damaged" }
        guard reader.skip(count), let end = bytes[reader.offset...].firstIndex(of: 0), end > reader.offset else {
          return "a table header is damaged"
        }
        reader.offset = end + 1
        columns = count
      case 0x12, 0x17, 0x09:
        guard let columns else { return "a change comes before any table" }
        guard reader.byte() != nil else { return "it ends inside a change" }
        let records = byte == 0x17 ? 2 : 1
        for _ in 0..<(records * columns) {
          guard reader.field() else { return "a value is damaged" }
        }
      default:
        return "it holds an unknown operation (\(byte))"
      }
    }
    return nil
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var atEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func skip(_ count: Int) -> Bool {
      guard count >= 0, count <= bytes.count - offset else { return false }
      offset += count
      return true
    }

    /// SQLite's varint (big-endian, 7 bits a byte while the high bit is set; the ninth byte whole),
    /// read only when it fits a 31-bit length.
    mutating func varint() -> Int? {
      var value: UInt64 = 0
      for index in 0..<9 {
        guard let byte = byte() else { return nil }
        if index == 8 { value = (value << 8) | UInt64(byte) } else { value = (value << 7) | UInt64(byte & 0x7F) }
        if index == 8 || byte & 0x80 == 0 { break }
      }
      return value <= UInt64(Int32.max) ? Int(value) : nil
    }

    mutating func field() -> Bool {
      switch byte() {
      case 0, 5: return true
      case 1, 2: return skip(8)
      case 3, 4:
        guard let length = varint() else { return false }
        return skip(length)
      default: return false
      }
    }
  }
}
