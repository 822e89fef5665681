import Crypto
import Foundation
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file being written: its descriptor, its SHA-256 and size as bytes go through.
final class HashedFile {
  let path: String
  let descriptor: Int32
  private var hasher = SHA256()
  private(set) var bytes = 0

  /// Creates the file; it must not exist (exports never overwrite).
  init(creating path: String) throws {
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw GymError(.cannotCreate, "cannot create '\(path)': \(String(cString: strerror(errno)))")
    }
  }

  func write(_ buffer: UnsafeRawBufferPointer) throws(CompressionError) {
    hasher.update(bufferPointer: buffer)
    bytes += buffer.count
    try FileOutput.writeAll(descriptor, buffer)
  }

  /// fsyncs and closes; returns the manifest's entry.
  func close(name: String) throws -> ExportManifest.File {
    defer { _ = Glibc.close(descriptor) }
    do {
      try Durable.sync(descriptor: descriptor)
    } catch {
      throw GymError(.ioError, "cannot write '\(path)': \(error)")
    }
    return ExportManifest.File(name: name, bytes: bytes, sha256: Self.hex(hasher.finalize()))
  }

  static func hex(_ digest: SHA256.Digest) -> String {
    digest.map { String(format: "%02x", $0) }.joined()
  }

  /// The SHA-256 of a whole file, read in chunks.
  static func sha256(of path: String) throws -> (String, Int) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw GymError.data("cannot read '\(path)': \(String(cString: strerror(errno)))") }
    defer { _ = Glibc.close(descriptor) }
    var hasher = SHA256()
    var total = 0
    try FileChunks.forEach(descriptor, path: path) { chunk in
      hasher.update(bufferPointer: chunk)
      total += chunk.count
    }
    return (hex(hasher.finalize()), total)
  }
}

/// A whole file in 1 MiB chunks. A read error is exit 74 naming the file: it is never taken for the
/// end of the file, which would checksum or compress only what came before it.
enum FileChunks {
  static func forEach(_ descriptor: Int32, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do {
        count = try FileDescriptorIO.read(descriptor, into: buffer)
      } catch {
        throw GymError(.ioError, "cannot read '\(path)': \(error)")
      }
      guard count > 0 else { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
  }
}

/// Removes an export's temporary directory, whatever stopped it.
enum Directory {
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
