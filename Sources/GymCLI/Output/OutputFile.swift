import GymCore

#if canImport(Glibc)
  import Glibc
#endif

/// A file a user names for output (`report --out PATH`), written as what it is:
/// - a regular file, or nothing yet: written to a temporary name beside it, flushed to disk, then
///   renamed over it, so a reader (a browser, a web server) sees the old file or the new one;
/// - a FIFO, a terminal, a socket or a character device such as `/dev/null` or `/dev/full`:
///   written through in place, never replaced by a regular file;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`: the descriptor itself;
/// - a directory, a block device, or a symbolic link to anything but the above: refused (73),
///   so nothing outside the named path is replaced.
/// A write that fails (a full disk, `/dev/full`) is exit 74 and leaves no temporary file.
public enum OutputFile {
  public static func write(_ bytes: [UInt8], to path: String) throws {
    if let descriptor = standardDescriptor(path) { return try writeAll(bytes, to: descriptor, path: path) }
    var link = stat()
    guard lstat(path, &link) == 0 else {
      guard errno == ENOENT else { throw failure(.cannotCreate, path, SystemError.last) }
      return try replace(path, with: bytes)
    }
    var target = link
    if link.st_mode & S_IFMT == S_IFLNK {
      // A link is followed only to something written in place, never to a file it would replace.
      guard stat(path, &target) == 0, isWrittenInPlace(target.st_mode) else {
        throw GymError(
          .cannotCreate, "'\(path)' is a symbolic link; give the path of the file itself, or a new file name")
      }
    }
    switch target.st_mode & S_IFMT {
    case S_IFREG:
      // `report --out gym.sqlite` would replace the database with a page: never over a database.
      guard !Store.isSQLiteFile(path) else {
        throw GymError(
          .cannotCreate, "'\(path)' is an SQLite database, which gym never writes over; give another file name")
      }
      try replace(path, with: bytes)
    case S_IFDIR: throw GymError(.cannotCreate, "'\(path)' is a directory; give a file name inside it")
    case _ where isWrittenInPlace(target.st_mode):
      let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else { throw failure(.cannotCreate, path, SystemError.last) }
      defer { close(descriptor) }
      try writeAll(bytes, to: descriptor, path: path)
    default: throw GymError(.cannotCreate, "'\(path)' is a device gym does not write to; give a file name")
    }
  }

  static func isWrittenInPlace(_ mode: mode_t) -> Bool {
    [S_IFIFO, S_IFCHR, S_IFSOCK].contains(mode & S_IFMT)
  }

  /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names.
  static func standardDescriptor(_ path: String) -> Int32? {
    switch path {
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default:
      for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
        return Int32(path.dropFirst(prefix.count))
      }
      return nil
    }
  }

  static func failure(_ status: ExitStatus, _ path: String, _ error: SystemError) -> GymError {
    GymError(status, "cannot write '\(path)': \(error)")
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
    do {
      try FileDescriptorIO.writeAll(descriptor, bytes)
    } catch let error as SystemError {
      throw failure(.ioError, path, error)
    }
  }

  /// Temporary name, fsync, rename, then the directory fsynced for the rename itself.
  static func replace(_ path: String, with bytes: [UInt8]) throws {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let folder = directory.isEmpty ? "/" : directory
    // A name no other writer has (a container's gym is always PID 1, so the PID alone would repeat).
    let temporary = "\(folder)/.\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    let slots = SignalCleanup.register([temporary])
    defer { SignalCleanup.unregister(slots) }
    guard descriptor >= 0 else {
      throw GymError(
        .cannotCreate, "cannot write '\(path)': \(String(cString: strerror(errno))); choose another path")
    }
    do {
      try writeAll(bytes, to: descriptor, path: path)
      try Durable.sync(descriptor: descriptor)
      close(descriptor)
    } catch {
      close(descriptor)
      unlink(temporary)
      if let error = error as? SystemError { throw failure(.ioError, path, error) }
      throw error
    }
    do {
      try Durable.rename(temporary, to: path)
    } catch {
      unlink(temporary)
      throw failure(.ioError, path, error)
    }
  }
}
