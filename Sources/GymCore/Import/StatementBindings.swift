import GRDB
import GRDBSQLite

/// Values bound to a prepared statement straight from the bytes that hold them, by byte count: the
/// one way every fast path binds (the bulk loader, an export's direct import, exact copies). GRDB
/// binds text with length -1, which stops at a NUL, and through `StatementArguments`, which costs
/// an object per value (Docs/Architecture.md, "Measurements the code relies on").
public struct StatementBindings {
  public let statement: OpaquePointer

  public init(_ statement: OpaquePointer) { self.statement = statement }

  /// How long SQLite may use the bytes it is given.
  public enum Lifetime {
    /// It copies them before the call returns (`SQLITE_TRANSIENT`).
    case copied
    /// They stay valid until the statement has run (`SQLITE_STATIC`): no copy.
    case untilStep
  }

  @discardableResult
  public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int32, _ lifetime: Lifetime = .copied) -> Int32 {
    // An empty buffer may have no address, and a NULL pointer would bind NULL instead of ''.
    guard let base = UnsafeRawPointer(bytes.baseAddress), !bytes.isEmpty else {
      return sqlite3_bind_text(statement, position, "", 0, Self.transient)
    }
    return sqlite3_bind_text(
      statement, position, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
      lifetime == .copied ? Self.transient : nil)
  }

  @discardableResult
  public func blob(_ bytes: UnsafeRawBufferPointer, at position: Int32) -> Int32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, position, 0) }
    return sqlite3_bind_blob(statement, position, base, Int32(bytes.count), Self.transient)
  }

  @discardableResult
  public func integer(_ value: Int64, at position: Int32) -> Int32 { sqlite3_bind_int64(statement, position, value) }

  @discardableResult
  public func real(_ value: Double, at position: Int32) -> Int32 { sqlite3_bind_double(statement, position, value) }

  @discardableResult
  public func null(at position: Int32) -> Int32 { sqlite3_bind_null(statement, position) }

  /// Any value, its text and blob bytes copied whole.
  @discardableResult
  public func value(_ value: DatabaseValue, at position: Int32) -> Int32 {
    switch value.storage {
    case .null: return null(at: position)
    case .int64(let i): return integer(i, at: position)
    case .double(let d): return real(d, at: position)
    case .string(let s):
      var text = s
      return text.withUTF8 { self.text($0, at: position) }
    case .blob(let data): return data.withUnsafeBytes { blob($0, at: position) }
    }
  }

  /// Runs the statement once and resets it; SQLite's result code (`SQLITE_DONE` for a write).
  public func step() -> Int32 {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    return code
  }

  private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// A whole number written in ASCII: an optional `-` and decimal digits, within 64 bits. Anything
/// else (a fraction, an exponent, a sign `+`, a space) is nil, and so is a number too large.
public enum WholeNumber {
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var digits = bytes[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    var value: Int64 = 0
    for byte in digits {
      guard byte >= 48 && byte <= 57 else { return nil }
      // Accumulated negative: -9223372036854775808 fits, its positive does not.
      let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowAdd) = shifted.subtractingReportingOverflow(Int64(byte - 48))
      guard !overflowShift && !overflowAdd else { return nil }
      value = next
    }
    if negative { return value }
    return value == .min ? nil : -value
  }
}
