/// A JSON document built as values and written by one writer: nested answers (a workout with its
/// sets, a reading year with its months) are never spliced together as text. Keys keep the order
/// they are written in.
public indirect enum JSONValue: Equatable, Sendable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
  /// A value as a record's field is written: null, a number, a boolean or text.
  case cell(Cell)
  case array([JSONValue])
  case object([Member])

  public struct Member: Equatable, Sendable {
    public let key: String
    public let value: JSONValue
  }

  public static let null = JSONValue.cell(.null)

  public static func text(_ text: String?) -> JSONValue { text.map { .cell(.text($0)) } ?? .null }
  public static func integer(_ value: Int) -> JSONValue { .cell(.integer(Int64(value))) }
  /// A finite number; null for none (and for NaN or an infinity, which JSON cannot hold).
  public static func number(_ value: Double?) -> JSONValue { value.map { .cell(.real($0)) } ?? .null }

  /// One record: its fields by name, in order.
  public static func record(_ cells: [Cell], names: [String]) -> JSONValue {
    .object(zip(names, cells).map { Member(key: $0, value: .cell($1)) })
  }

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(elements.map { Member(key: $0.0, value: $0.1) })
  }

  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

  /// This object with `more` members after its own.
  public func adding(_ more: [(String, JSONValue)]) -> JSONValue {
    guard case .object(let members) = self else {
      preconditionFailure("adding members to a JSON value that is not an object")
    }
    return .object(members + more.map { Member(key: $0.0, value: $0.1) })
  }

  public func append(to out: inout [UInt8]) {
    switch self {
    case .cell(let cell): cell.appendJSON(to: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (i, value) in values.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        value.append(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONText.appendString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        member.value.append(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// The document on one line, then a newline, to `out`.
  public func writeLine(to out: BufferedOutput) {
    var bytes: [UInt8] = []
    append(to: &bytes)
    bytes.append(10)
    out.write(bytes: bytes)
    out.flush()
  }

  public var text: String {
    var bytes: [UInt8] = []
    append(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
