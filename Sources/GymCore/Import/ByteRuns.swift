#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte runs compared where they lie, with one `memcmp`: the parsers match names, types and keys
/// against the bytes they read, record after record, and a comparison of `ArraySlice`s checks
/// every index on the way.
public enum ByteRuns {
  /// Whether both hold the same bytes (two empty runs are equal, whatever their addresses).
  @inlinable
  public static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    // A run with bytes always has an address, so a missing one means both are empty.
    guard let first = a.baseAddress, let second = b.baseAddress else { return true }
    return memcmp(first, second, a.count) == 0
  }

  @inlinable
  public static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.withUnsafeBufferPointer { equal($0, b) }
  }

  @inlinable
  public static func equal(_ a: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    equal(a, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}
