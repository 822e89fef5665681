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
        storage.withUnsafeBufferPointer { s in ByteRuns.equal(UnsafeBufferPointer(rebasing: s[nameRange]), key) }
      }
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
          guard let pair = attributes.first(where: { ByteRuns.equal(UnsafeBufferPointer(rebasing: s[$0.name]), key) })
          else { return }
          let raw = UnsafeBufferPointer(rebasing: s[pair.value])
          guard XMLReferences.has(in: raw) else { return body(raw) }
          // Decoded into a temporary buffer (on the stack when small): a reference is never shorter
          // than the bytes it stands for.
          withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { out in
            guard let count = XMLReferences.decode(raw, into: out) else { return body(raw) }
            body(UnsafeBufferPointer(rebasing: out[0..<count]))
          }
        }
      }
    }
  }

  /// How deep elements may nest: an Apple Health export nests five or six.
  public static let maximumDepth = 1000

  private let input: InputBuffer
  private var line = 1
  private var depth = 0
  private var open: [[UInt8]] = []
  /// Bytes of text read since the last tag: bounded, so endless text (`yes |`) ends.
  private var textRun = 0
  /// Whether anything was read yet: a byte-order mark may open the file.
  private var begun = false
  /// The attributes of the tag being read.
  private var attributes: [(name: Range<Int>, value: Range<Int>)] = []

  public init(input: InputBuffer) {
    self.input = input
    attributes.reserveCapacity(16)
  }

  private enum Step {
    case tag(Tag, end: Int)
    case skip(end: Int)
    case text(end: Int)
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
        textRun = 0
        advance(to: end)
        if tag.isEmpty {
          return tag
        }
        depth += 1
        // Each open element is remembered until it closes: a bound keeps the memory bounded.
        guard depth <= Self.maximumDepth else {
          throw InputError(
            line: line, message: "malformed XML: elements nested more than \(Self.maximumDepth) deep")
        }
        return tag
      case .closing(let name, let end):
        textRun = 0
        guard let last = open.last, last == name else {
          let expected = open.last.map { "<\(String(decoding: $0, as: UTF8.self))>" } ?? "no open element"
          throw InputError(
            line: line, message: "malformed XML: </\(String(decoding: name, as: UTF8.self))> closes \(expected)")
        }
        open.removeLast()
        depth -= 1
        advance(to: end)
      case .skip(let end):
        textRun = 0
        advance(to: end)
      case .text(let end):
        textRun += end - input.start
        // An export's text between tags is whitespace and short notes; a run this long is no export.
        guard textRun <= InputBuffer.maximumRecordBytes else {
          throw InputError(
            line: line,
            message: "malformed XML: text longer than \(InputBuffer.maximumRecordBytes >> 20) MiB without a tag; "
              + "give the export's XML (export.xml, or the .zip)")
        }
        advance(to: end)
      case .needMore:
        // Markup that does not end (a quote or a '>' missing) is refused past a bound, not read
        // whole into memory: a record of an export is hundreds of bytes, its DOCTYPE kilobytes.
        guard input.end - input.start <= InputBuffer.maximumRecordBytes else {
          throw InputError(
            line: line,
            message: "malformed XML: markup longer than \(InputBuffer.maximumRecordBytes >> 20) MiB starts here "
              + "(a quote or '>' missing?)")
        }
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
      // Text content: skipped up to the next tag. XML allows no NUL anywhere, and only white space
      // outside the document's element.
      let outside = open.isEmpty
      if !begun {
        guard end - i >= 3 || input.isAtEOF else { return .needMore }
        if let utf16 = InputBuffer.utf16Message(s[i..<end]) { return .failure(utf16, at: i) }
        if end - i >= 3 && s[i] == 0xEF && s[i + 1] == 0xBB && s[i + 2] == 0xBF { i += 3 }
      }
      begun = true
      while i < end, s[i] != UInt8(ascii: "<") {
        if s[i] == 0 { return .failure("a NUL byte, which XML does not allow; give the export's XML", at: i) }
        if outside && !(s[i] == 32 || s[i] == 10 || s[i] == 13 || s[i] == 9) {
          return .failure("text outside the document's element; give the export's XML (export.xml, or the .zip)", at: i)
        }
        i += 1
      }
      return i < end ? .text(end: i) : (i > input.start ? .text(end: i) : .needMore)
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
    // Read through a pointer, with `end` as the only bound: a record's tag is hundreds of bytes, and
    // the array's check on every byte was most of this function's time.
    let step = s.withUnsafeBufferPointer { bytes in startTag(at: start, in: bytes.baseAddress!, end: input.end) }
    if case .tag(let tag, _) = step, !tag.isEmpty { open.append(Array(s[tag.nameRange])) }
    return step
  }

  private mutating func startTag(at start: Int, in s: UnsafePointer<UInt8>, end: Int) -> Step {
    var i = start + 1
    func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }
    // Letters are past '>' (0x3E): most bytes of a name take one comparison.
    func isNameByte(_ c: UInt8) -> Bool {
      c > UInt8(ascii: ">")
        || (!isSpace(c) && c != UInt8(ascii: "/") && c != UInt8(ascii: ">") && c != UInt8(ascii: "="))
    }
    let nameStart = i
    while i < end, isNameByte(s[i]) { i += 1 }
    guard i < end else { return .needMore }
    guard i > nameStart else { return .failure("a tag without a name", at: start) }
    let nameRange = nameStart..<i
    // Reused tag after tag (a tag its caller keeps holds a copy of its own): an export has millions.
    attributes.removeAll(keepingCapacity: true)
    while true {
      while i < end, isSpace(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      if s[i] == UInt8(ascii: ">") {
        let tag = Tag(
          depth: depth + 1, isEmpty: false, line: line, storage: input.storage, nameRange: nameRange,
          attributes: attributes)
        return .tag(tag, end: i + 1)
      }
      if s[i] == UInt8(ascii: "/") {
        guard i + 1 < end else { return .needMore }
        guard s[i + 1] == UInt8(ascii: ">") else { return .failure("'/' inside a tag", at: i) }
        let tag = Tag(
          depth: depth + 1, isEmpty: true, line: line, storage: input.storage, nameRange: nameRange,
          attributes: attributes)
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
        let name = String(
          decoding: UnsafeBufferPointer(start: s + attributeName.lowerBound, count: attributeName.count), as: UTF8.self)
        return .failure("attribute '\(name)' has no value", at: i)
      }
      i += 1
      while i < end, isSpace(s[i]) { i += 1 }
      guard i < end else { return .needMore }
      let quote = s[i]
      guard quote == 34 || quote == 39 else { return .failure("an attribute value must be quoted", at: i) }
      i += 1
      let valueStart = i
      // The value's end, then what it holds, each found by `memchr` (most of a record's bytes are
      // its values). A '<' before the closing quote, or before the end of what is read when none
      // has come yet, is an error at once: a value left open must not make the rest of the file
      // one value.
      let closing = memchr(s + i, Int32(quote), end - i).map { UnsafeRawPointer($0) - UnsafeRawPointer(s) }
      if let less = memchr(s + valueStart, Int32(UInt8(ascii: "<")), (closing ?? end) - valueStart) {
        return .failure("'<' inside an attribute value", at: UnsafeRawPointer(less) - UnsafeRawPointer(s))
      }
      guard let closing else { return .needMore }
      i = closing
      // Checked now, so that a bad reference is an error with its line even if nobody reads it
      // (`problem` looks for an '&' first, so a value without one costs one `memchr`).
      if let message = XMLReferences.problem(in: UnsafeBufferPointer(start: s + valueStart, count: i - valueStart)) {
        return .failure(message, at: valueStart)
      }
      attributes.append((attributeName, valueStart..<i))
      i += 1
    }
  }
}
