#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file descriptor in large chunks into one growing window, so record scanners see
/// contiguous bytes and memory stays the size of the longest record plus one chunk.
public final class InputBuffer {
  public private(set) var storage: [UInt8]
  /// The unread bytes are `storage[start..<end]`.
  public var start = 0
  public private(set) var end = 0
  public private(set) var isAtEOF = false
  private let source: (UnsafeMutableRawBufferPointer) throws(InputError) -> Int
  private static let chunk = 1 << 20
  /// The longest record any scanner reads: gym's records and the apps' rows are kilobytes.
  public static let maximumRecordBytes = 16 << 20

  public init(descriptor: Int32) {
    source = Self.reading(descriptor)
    storage = [UInt8](repeating: 0, count: Self.chunk * 2)
  }

  /// Fills a buffer from a file descriptor, as `init(descriptor:)` reads it.
  public static func reading(_ descriptor: Int32) -> (UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    { buffer throws(InputError) in
      do {
        return try FileDescriptorIO.read(descriptor, into: buffer)
      } catch {
        throw InputError(line: 0, message: "cannot read the input: \(error)", isReadFailure: true)
      }
    }
  }

  /// Refuses input that is not text at once: a zero-filled or binary file would otherwise be scanned
  /// to its end as one enormous record. Its first 4 KiB tell: NUL bytes there, when they are more
  /// than one in 64 or the rest is not UTF-8. A text value holding a NUL (a CSV that gym wrote from
  /// such a value) is still text.
  public func refuseBinary() throws(InputError) {
    while end - start < 4096, try refill() {}
    let head = storage[start..<min(end, start + 4096)]
    if let utf16 = Self.utf16Message(head) { throw InputError(line: 1, message: utf16) }
    guard let nul = head.firstIndex(of: 0) else { return }
    let nuls = head.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
    // The 4 KiB may end inside a character: up to three bytes of it are not counted against it.
    let isUTF8 = (0...3).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
    if nuls * 64 > head.count || !isUTF8 {
      throw InputError(
        line: 1, message: "this is not a text file (a NUL byte at byte \(nul - start + 1)): give the export itself")
    }
  }

  /// What to say of a file that opens with UTF-16's byte-order mark (a spreadsheet's "Unicode text"):
  /// its every other byte is a NUL, which reads as binary.
  public static func utf16Message(_ head: ArraySlice<UInt8>) -> String? {
    guard head.count >= 2 else { return nil }
    let (first, second) = (head[head.startIndex], head[head.startIndex + 1])
    guard (first == 0xFF && second == 0xFE) || (first == 0xFE && second == 0xFF) else { return nil }
    return "this file is UTF-16, and gym reads UTF-8: convert it (iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8), "
      + "or save it from the spreadsheet as CSV UTF-8"
  }

  /// Bytes from anything that fills a buffer and returns the count, 0 at the end (a gzip stream).
  public init(source: @escaping (UnsafeMutableRawBufferPointer) throws(InputError) -> Int) {
    self.source = source
    storage = [UInt8](repeating: 0, count: Self.chunk * 2)
  }

  /// Moves the unread bytes to the front and reads more; false when the input is exhausted.
  public func refill() throws(InputError) -> Bool {
    if isAtEOF { return false }
    if start > 0 {
      let count = end - start
      storage.withUnsafeMutableBytes { raw in
        _ = memmove(raw.baseAddress!, raw.baseAddress! + start, count)
      }
      start = 0
      end = count
    }
    // Doubling: a long record is re-scanned after a logarithmic number of refills, not one per MiB.
    if storage.count - end < Self.chunk { storage += [UInt8](repeating: 0, count: max(Self.chunk, storage.count)) }
    let result = storage.withUnsafeMutableBytes { raw -> Result<Int, InputError> in
      do {
        return .success(try source(UnsafeMutableRawBufferPointer(rebasing: raw[end...])))
      } catch let error as InputError {
        return .failure(error)
      } catch {
        return .failure(InputError(line: 0, message: "\(error)"))
      }
    }
    let n = try result.get()
    if n == 0 {
      isAtEOF = true
      return false
    }
    end += n
    return true
  }
}

/// A problem in the input data, at a 1-based line (0 when the line is not known).
public struct InputError: Error, Equatable, Sendable {
  public let line: Int
  public let message: String
  /// The system could not read the input (not a problem of its data).
  public let isReadFailure: Bool

  public init(line: Int, message: String, isReadFailure: Bool = false) {
    self.line = line
    self.message = message
    self.isReadFailure = isReadFailure
  }
}
