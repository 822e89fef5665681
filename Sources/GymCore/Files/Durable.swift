#if canImport(Glibc)
  import Glibc
#endif

/// How every file gym publishes (the database made by an import, a backup, a restore, an export, a
/// report) survives a power cut: its bytes are flushed before it gets its name, and the directory
/// that holds the name is flushed after, so after a crash the name is either absent or names
/// the whole file.
public enum Durable {
  /// Flushes what was written to `path`: a file's bytes, or a directory's entries.
  public static func sync(_ path: String) throws(SystemError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SystemError.last }
    defer { close(descriptor) }
    try sync(descriptor: descriptor)
  }

  /// Flushes what was written through `descriptor`.
  public static func sync(descriptor: Int32) throws(SystemError) {
    guard fsync(descriptor) == 0 else { throw SystemError.last }
  }

  /// Gives `source` the name `target` (replacing what had it) and flushes the directory that holds it.
  public static func rename(_ source: String, to target: String) throws(SystemError) {
    guard Glibc.rename(source, target) == 0 else { throw SystemError.last }
    syncDirectory(containing: target)
  }

  /// Flushes the entries of the directory that holds `path`.
  public static func syncDirectory(containing path: String) {
    let slash = path.lastIndex(of: "/")
    syncDirectory(slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ".")
  }

  /// Flushes a directory's entries. Best effort: a file system that cannot flush a directory (some
  /// answer EINVAL) still has the files, each flushed on its own, and the rename made.
  public static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }
}

/// `write(2)` of a whole buffer (`FileDescriptorIO.writeAll`), with the error in the words
/// compression reports.
public enum FileOutput {
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
    do {
      try FileDescriptorIO.writeAll(descriptor, bytes)
    } catch {
      throw CompressionError("cannot write: \(error)")
    }
  }
}
