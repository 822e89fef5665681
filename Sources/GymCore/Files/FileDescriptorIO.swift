import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An error a system call returned: its `errno`, told as strerror(3) tells it.
public struct SystemError: Error, Equatable, CustomStringConvertible {
  public let code: Int32

  public init(_ code: Int32) { self.code = code }

  /// The calling thread's `errno`, read at once.
  public static var last: SystemError { SystemError(errno) }

  public var description: String { String(cString: strerror(code)) }
}

/// Reading and writing a descriptor, retrying what a signal interrupted and what a short write
/// left: the one loop every reader and writer of a descriptor in gym uses. swift-system's
/// `FileDescriptor` does the same and was tried: its 254 protocol conformances cost every command
/// 0.26 M instructions at start in the runtime's conformance scan (Docs/PerformanceNotes.md).
public enum FileDescriptorIO {
  /// Up to `buffer.count` bytes; 0 at the end.
  public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    while true {
      let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno != EINTR { throw SystemError.last }
    }
  }

  /// Every byte of `bytes`, or the error that stopped it.
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw SystemError.last
      }
      offset += written
    }
  }

  public static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) throws {
    try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in try writeAll(descriptor, raw) }
  }
}
