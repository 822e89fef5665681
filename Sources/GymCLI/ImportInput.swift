import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file (or stdin, `-`) an import reads, and how its problems are told: every importer opens
/// its input and reports a bad record the same way.
public struct ImportInput {
  public let path: String
  public let descriptor: Int32

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
  }

  public func close() {
    if descriptor != 0 { _ = Glibc.close(descriptor) }
  }

  public var displayName: String { path == "-" ? "<stdin>" : path }

  /// `file:line: message; nothing was imported` (exit 65).
  public func failure(_ error: InputError) -> GymError {
    Self.failure(error, displayName: displayName)
  }

  public static func failure(_ error: InputError, displayName: String) -> GymError {
    let location = error.line > 0 ? "\(displayName):\(error.line)" : displayName
    return GymError.data("\(location): \(error.message); nothing was imported")
  }
}
