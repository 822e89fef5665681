#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the start tags of an XML document as a stream, with their attributes, in constant memory.
///
/// Made for large machine-written exports (Apple Health's `export.xml`: gigabytes of `<Record …/>`):
/// text content, comments, processing instructions, CDATA and the DOCTYPE — internal DTD subset
/// included — are skipped. Entities are never expanded: only the five predefined ones and
/// character references are decoded, so "billion laughs" and external entities cannot happen;
/// a reference to any other entity is an error. Errors carry the line.
public struct XMLTagScanner {
  /// A start tag: its name, depth (the root element is 1) and attributes, valid until `next()`.
  /// Names and values stay in the input buffer and are decoded only when asked for: a 2 GB export
  /// has tens of millions of attributes, most of which nobody reads.
  public struct Tag {
    public let depth: Int
    public let isEmpty: Bool
    public let line: Int
    let storage: [UInt8]
    let nameRange: Range<Int>
    let attributes: [(name: Range<Int>, value: Range<Int>)]

    public var name: String { String(decoding: storage[nameRange], as: UTF8.self) }

    /// Whether the tag's name is `name`, without making a string.
    public func isNamed(_ name: StaticString) -> Bool {
      name.withUTF8Buffer { key in
        storage.withUnsafeBufferPointer { s in Self.equal(s, nameRange, key) }
      }
    }

    private static func equal(
      _ storage: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: UnsafeBufferPointer<UInt8>
    ) -> Bool {
      guard range.count == key.count else { return false }
      guard let base = storage.baseAddress, let keyBase = key.baseAddress else { return key.isEmpty }
      return memcmp(base + range.lowerBound, keyBase, key.count) == 0
    }

    /// The attribute's value with entities decoded, or nil when the tag has none of that name.
    public func attribute(_ name: String) -> String? {
      withAttribute(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the attribute's decoded bytes; nil when the tag has no such attribute.
    /// Inlinable, so that each caller's `T` is known where it is called: unspecialized, looking up
    /// the generic metadata for every attribute was 3% of an Apple Health import.
    @inlinable
    public func withAttribute<T>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
      var result: T?
      visitAttribute(name) { result = body($0) }
      return result
    }

    /// Calls `body` with the attribute's decoded bytes, when the tag has such an attribute.
    @usableFromInline
    func visitAttribute(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
      var name = name
      name.withUTF8 { key in
        storage.withUnsafeBufferPointer { s in
          guard let pair = attributes.first(where: { Self.equal(s, $0.name, key) }) else { return }
          let raw = UnsafeBufferPointer(rebasing: s[pair.value])
          guard raw.contains(UInt8(ascii: "&")), case .success(let decoded) = XMLTagScanner.decode(storage[pair.value])
          else { return body(raw) }
          decoded.withUnsafeBufferPointer(body)
        }
      }
    }
  }

  private let input: InputBuffer
  private var line = 1
  private var depth = 0
  private var open: [[UInt8]] = []

  public init(input: InputBuffer) { self.input = input }

  private enum Step {
    case tag(Tag, end: Int)
    case skip(end: Int)
    case closing(name: [UInt8], end: Int)
    case needMore
    case failure(String, at: Int)
  }

  /// The next start tag in document order, or nil at the end of a well-formed document.
  public mutating func next() throws(InputError) -> Tag? {
    while true {
      let step = scan()
      switch step {
      case .tag(let tag, let end):
        advance(to: end)
        if tag.isEmpty {
          return tag
        }
        depth += 1
        return tag
      case .closing(let name, let end):
        guard let last = open.last, last == name else {
          let expected = open.last.map { "<\(String(decoding: $0, as: UTF8.self))>" } ?? "no open element"
          throw InputError(
            line: line, message: "malformed XML: </\(String(decoding: name, as: UTF8.self))> closes \(expected)")
        }
        open.removeLast()
        depth -= 1
        advance(to: end)
      case .skip(let end):
        advance(to: end)
      case .needMore:
        if try !input.refill() {
          let rest = input.storage[input.start..<input.end]
          if rest.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) && open.isEmpty { return nil }
          let element = open.last.map { "<\(String(decoding: $0, as: UTF8.self))>" } ?? "a tag"
          throw InputError(line: line, message: "the XML is cut off: \(element) is not closed")
        }
      case .failure(let message, let offset):
        var at = line
        for i in input.start..<min(offset, input.end) where input.storage[i] == 10 { at += 1 }
        throw InputError(line: at, message: "malformed XML: \(message)")
      }
    }
  }

  private mutating func advance(to end: Int) {
    line += Self.newlines(in: input.storage, from: input.start, to: end)
    input.start = end
  }

  /// Line feeds in `storage[start..<end]`, found by `memchr` (a record is hundreds of bytes and
  /// most often one line).
  static func newlines(in storage: [UInt8], from start: Int, to end: Int) -> Int {
    guard start < end else { return 0 }
    return storage.withUnsafeBufferPointer { s in
      var count = 0
      var at = UnsafeRawPointer(s.baseAddress! + start)
      let stop = UnsafeRawPointer(s.baseAddress! + end)
      while at < stop, let found = memchr(at, 10, stop - at) {
        count += 1
        at = UnsafeRawPointer(found) + 1
      }
      return count
    }
  }

  /// Looks at what starts at `input.start`: text, a markup declaration, an end tag or a start tag.
  private mutating func scan() -> Step {
    let s = input.storage
    let end = input.end
    var i = input.start
    guard i < end else { return .needMore }
    if s[i] != UInt8(ascii: "<") {
      // Text content: skipped up to the next tag.
      while i < end, s[i] != UInt8(ascii: "<") { i += 1 }
      return i < end ? .skip(end: i) : (i > input.start ? .skip(end: i) : .needMore)
    }
    guard i + 1 < end else { return .needMore }
    switch s[i + 1] {
    case UInt8(ascii: "?"):
      return skip(past: Array("?>".utf8), from: i + 2)
    case UInt8(ascii: "!"):
      return declaration(at: i)
    case UInt8(ascii: "/"):
      var j = i + 2
      while j < end, s[j] != UInt8(ascii: ">") { j += 1 }
      guard j < end else { return .needMore }
      let name = Array(s[(i + 2)..<j]).filter { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }
      return .closing(name: name, end: j + 1)
    default:
      return startTag(at: i)
    }
  }

  private func skip(past terminator: [UInt8], from start: Int) -> Step {
    let s = input.storage
    var i = start
    while i + terminator.count <= input.end {
      if s[i] == terminator[0] && s[i..<(i + terminator.count)].elementsEqual(terminator) {
        return .skip(end: i + terminator.count)
      }
      i += 1
    }
    return .needMore
  }

  /// `<!-- -->`, `<![CDATA[ ]]>` or `<!DOCTYPE … [ internal subset ]>`: skipped, never interpreted.
  private func declaration(at i: Int) -> Step {
    let s = input.storage
    let end = input.end
    guard i + 4 <= end else { return .needMore }
    if s[i + 2] == UInt8(ascii: "-") && s[i + 3] == UInt8(ascii: "-") {
      return skip(past: Array("-->".utf8), from: i + 4)
    }
    guard i + 9 <= end else { return .needMore }
    if s[(i + 2)..<(i + 9)].elementsEqual("[CDATA[".utf8) { return skip(past: Array("]]>".utf8), from: i + 9) }
    // A DOCTYPE: brackets and quotes may nest '>' inside; the declaration ends at a '>' outside both.
    var j = i + 2
    var inSubset = false
    var quote: UInt8 = 0
    while j < end {
      let c = s[j]
      if quote != 0 {
        if c == quote { quote = 0 }
      } else if c == 34 || c == 39 {
        quote = c
      } else if c == UInt8(ascii: "[") {
        inSubset = true
      } else if c == UInt8(ascii: "]") {
        inSubset = false
      } else if c == UInt8(ascii: ">") && !inSubset {
        return .skip(end: j + 1)
      }
      j += 1
    }
    return .needMore
  }

  private mutating func startTag(at start: Int) -> Step {
    let s = input.storage
    let end = input.end
    var i = start + 1
    func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }
    func isNameByte(_ c: UInt8) -> Bool {
      !isSpace(c) && c != UInt8(ascii: "/") && c != UInt8(ascii: ">") && c != UInt8(ascii: "=")
    }
    let nameStart = i
    while i < end, isNameByte(s[i]) { i += 1 }
    guard i < end else { return .needMore }
    guard i > nameStart else { return .failure("a tag without a name", at: start) }
    let nameRange = nameStart..<i
    var attributes: [(name: Range<Int>, value: Range<Int>)] = []
    while true {
      while i < end, isSpace(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      if s[i] == UInt8(ascii: ">") {
        open.append(Array(s[nameRange]))
        let tag = Tag(
          depth: depth + 1, isEmpty: false, line: line, storage: s, nameRange: nameRange, attributes: attributes)
        return .tag(tag, end: i + 1)
      }
      if s[i] == UInt8(ascii: "/") {
        guard i + 1 < end else { return .needMore }
        guard s[i + 1] == UInt8(ascii: ">") else { return .failure("'/' inside a tag", at: i) }
        let tag = Tag(
          depth: depth + 1, isEmpty: true, line: line, storage: s, nameRange: nameRange, attributes: attributes)
        return .tag(tag, end: i + 2)
      }
      let attributeStart = i
      while i < end, isNameByte(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      guard i > attributeStart else {
        return .failure("unexpected '\(Character(Unicode.Scalar(s[i])))' in a tag", at: i)
      }
      let attributeName = attributeStart..<i
      while i < end, isSpace(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      guard s[i] == UInt8(ascii: "=") else {
        return .failure("attribute '\(String(decoding: s[attributeName], as: UTF8.self))' has no value", at: i)
      }
      i += 1
      while i < end, isSpace(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      let quote = s[i]
      guard quote == 34 || quote == 39 else { return .failure("an attribute value must be quoted", at: i) }
      i += 1
      let valueStart = i
      var hasReference = false
      while i < end, s[i] != quote {
        if s[i] == UInt8(ascii: "<") { return .failure("'<' inside an attribute value", at: i) }
        if s[i] == UInt8(ascii: "&") { hasReference = true }
        i += 1
      }
      guard i < end else { return .needMore }
      // Checked now, so that a bad reference is an error with its line even if nobody reads it.
      if hasReference, let message = Self.referenceProblem(s[valueStart..<i]) {
        return .failure(message, at: valueStart)
      }
      attributes.append((attributeName, valueStart..<i))
      i += 1
    }
  }

  enum Decoded {
    case success([UInt8])
    case failure(String)
  }

  /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#…;`; any other entity is refused.
  static func decode(_ raw: ArraySlice<UInt8>) -> Decoded {
    guard raw.contains(UInt8(ascii: "&")) else { return .success(Array(raw)) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var i = raw.startIndex
    while i < raw.endIndex {
      guard raw[i] == UInt8(ascii: "&") else {
        out.append(raw[i])
        i += 1
        continue
      }
      switch reference(in: raw, at: i) {
      case .failure(let message): return .failure(message)
      case .success(let scalar, let next):
        if scalar.isASCII {
          out.append(UInt8(scalar.value))
        } else {
          out.append(contentsOf: String(Character(scalar)).utf8)
        }
        i = next
      }
    }
    return .success(out)
  }

  /// Why the references in `raw` cannot be decoded; nil when they can. Makes nothing.
  static func referenceProblem(_ raw: ArraySlice<UInt8>) -> String? {
    var i = raw.startIndex
    while let ampersand = raw[i...].firstIndex(of: UInt8(ascii: "&")) {
      switch reference(in: raw, at: ampersand) {
      case .failure(let message): return message
      case .success(_, let next): i = next
      }
    }
    return nil
  }

  enum Reference {
    case success(Unicode.Scalar, next: Int)
    case failure(String)
  }

  /// The character the reference at `start` (an `&`) stands for, and where the text after it starts.
  static func reference(in raw: ArraySlice<UInt8>, at start: Int) -> Reference {
    guard let semicolon = raw[start...].prefix(13).firstIndex(of: UInt8(ascii: ";")) else {
      return .failure("'&' without a reference (write &amp;)")
    }
    let name = raw[(start + 1)..<semicolon]
    func named(_ text: StaticString) -> Bool {
      name.count == text.utf8CodeUnitCount && text.withUTF8Buffer { name.elementsEqual($0) }
    }
    let scalar: Unicode.Scalar?
    if named("amp") {
      scalar = "&"
    } else if named("lt") {
      scalar = "<"
    } else if named("gt") {
      scalar = ">"
    } else if named("quot") {
      scalar = "\""
    } else if named("apos") {
      scalar = "'"
    } else if name.first == UInt8(ascii: "#") {
      let isHex = name.dropFirst().first == UInt8(ascii: "x")
      let digits = name.dropFirst(isHex ? 2 : 1)
      var code: UInt32 = 0
      var valid = !digits.isEmpty
      for byte in digits where valid {
        let digit: UInt32? =
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
          case UInt8(ascii: "a")...UInt8(ascii: "f") where isHex: UInt32(byte - UInt8(ascii: "a") + 10)
          case UInt8(ascii: "A")...UInt8(ascii: "F") where isHex: UInt32(byte - UInt8(ascii: "A") + 10)
          default: nil
          }
        // Past the last code point the value stops growing: nothing that long is a character.
        if let digit, code <= 0x10FFFF { code = code * (isHex ? 16 : 10) + digit } else { valid = false }
      }
      scalar = valid ? Unicode.Scalar(code) : nil
    } else {
      scalar = nil
    }
    guard let scalar else {
      let entity = String(decoding: name, as: UTF8.self)
      return .failure("the entity '&\(entity);' is not expanded (only the predefined XML entities are)")
    }
    return .success(scalar, next: semicolon + 1)
  }
}
