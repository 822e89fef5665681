#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Swift reads arguments and environment variables as UTF-8, replacing what is not: a path
/// `caf\xE9.sqlite` would silently become `caf\u{FFFD}.sqlite`, a new and empty database. gym refuses
/// such bytes instead (exit 64), before anything opens.
public enum ArgumentEncoding {
  /// A one-line problem with the command line, a `GYM_` variable, `HOME` or an `XDG_` directory; nil
  /// when all are UTF-8.
  public static func problem() -> String? {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
      return "argument \(index) is not valid UTF-8; gym takes names and paths as UTF-8 text (rename the file)"
    }
    var entry = environ
    while let pointer = entry.pointee {
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
      // gym's own variables, and those its paths are made from (the database's and gym.yaml's).
      let read = ["GYM_", "HOME=", "XDG_DATA_HOME=", "XDG_CONFIG_HOME="].contains { bytes.starts(with: $0.utf8) }
      if read, String(validatingCString: pointer) == nil {
        let name = String(decoding: bytes.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
        return "environment variable \(name) is not valid UTF-8; gym takes names and paths as UTF-8 text"
      }
      entry += 1
    }
    return nil
  }
}
