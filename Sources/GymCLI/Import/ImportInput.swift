import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file (or stdin, `-`) an import reads, and how its problems are told: every importer opens
/// its input and reports a bad record the same way. Its bytes go through one `buffer`, so a command
/// that looks at the header first (`recognise`) leaves it there for the importer, stdin included.
public final class ImportInput {
  public let path: String
  public let descriptor: Int32
  private var isClosed = false
  public private(set) lazy var buffer = InputBuffer(descriptor: descriptor)

  /// Opens `path` for reading; a missing or unreadable file is exit 66, before any database opens.
  public init(_ path: String) throws(GymError) {
    self.path = path
    if path == "-" {
      descriptor = 0
      return
    }
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw GymError.noInput("cannot read '\(path)': \(String(cString: strerror(errno))); check the path")
    }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      _ = Glibc.close(descriptor)
      throw GymError.noInput("'\(path)' is a directory; give the export's file")
    }
  }

  public func close() {
    guard descriptor != 0, !isClosed else { return }
    isClosed = true
    _ = Glibc.close(descriptor)
  }

  /// Whose export this is, from its first line (peeked, not consumed); nil for anything else,
  /// gym's own files among them.
  public func recognise() throws(InputError) -> KnownExport? { try header().known }

  /// Whose export this is, and the column names of a CSV header (nil for JSON or XML), both from
  /// one look at the input's start (peeked, not consumed).
  public func header() throws(InputError) -> (known: KnownExport?, columns: [String]?) {
    let head = try peekedHead()
    if head.first == UInt8(ascii: "<") {
      // The root element may come after the Health app's long inline DTD; its DOCTYPE names it first.
      let text = String(decoding: head, as: UTF8.self)
      let isHealth = text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData")
      return (isHealth ? .appleHealth : nil, nil)
    }
    guard let first = head.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else { return (nil, nil) }
    // A binary file is refused from its first 4 KiB, before the delimiter search reads on for a line break.
    try buffer.refuseBinary()
    let delimiter = try CSVRecordScanner.detectDelimiter(buffer)
    var line = buffer.storage[buffer.start..<buffer.end].prefix { $0 != 10 }
    if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
    let columns = KnownExport.columns(ofHeader: line, delimiter: delimiter)
    return (KnownExport.recognise(columns: columns), columns)
  }

  /// Up to the first 4 KiB, from the first character that is not a byte-order mark or white space.
  private func peekedHead() throws(InputError) -> ArraySlice<UInt8> {
    while buffer.end - buffer.start < 4096, try buffer.refill() {}
    var head = buffer.storage[buffer.start..<buffer.end].prefix(4096)
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
    return head.drop { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
  }

  public var displayName: String { path == "-" ? "<stdin>" : path }

  /// `file:line: message; nothing was imported` (exit 65).
  public func failure(_ error: InputError) -> GymError {
    Self.failure(error, displayName: displayName)
  }

  public static func failure(_ error: InputError, displayName: String) -> GymError {
    let location = error.line > 0 ? "\(displayName):\(error.line)" : displayName
    // The system could not read it (a closed stdin, a directory given as stdin, a disk error): 74, not bad data.
    if error.isReadFailure { return GymError(.ioError, "\(location): \(error.message); nothing was imported") }
    return GymError.data("\(location): \(error.message); nothing was imported")
  }
}
