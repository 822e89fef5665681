import GymCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the report to a temporary name beside the target, flushed to disk, then renamed over it:
/// a reader (a browser, a web server) sees the old report or the new one, never half of one.
enum ReportFile {
  static func write(_ text: String, to path: String) throws {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let folder = directory.isEmpty ? "/" : directory
    // A name no other writer has (a container's gym is always PID 1, so the PID alone would repeat).
    let temporary = "\(folder)/.\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw GymError(.cannotCreate, "cannot write '\(path)': \(String(cString: strerror(errno))); choose another --out")
    }
    var failure: Int32 = 0
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == 0 && fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    guard failure == 0, rename(temporary, path) == 0 else {
      let code = failure != 0 ? failure : errno
      unlink(temporary)
      throw GymError(.ioError, "cannot write '\(path)': \(String(cString: strerror(code)))")
    }
    // The rename itself on disk.
    let directoryDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}
