import CGymZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads gzip from a file descriptor, or from any source of compressed bytes (an age file being
/// decrypted), a chunk at a time; a truncated or corrupted stream is an error.
public final class GzipReader {
  private var stream = z_stream()
  /// Fills a buffer with compressed bytes; 0 at the end.
  private let source: (UnsafeMutableRawBufferPointer) throws(CompressionError) -> Int
  private static let inputSize = 256 * 1024
  private let input = UnsafeMutableRawPointer.allocate(byteCount: inputSize, alignment: 16)
  private var ended = false

  public convenience init(descriptor: Int32) throws(CompressionError) {
    let read = InputBuffer.reading(descriptor)
    try self.init { buffer throws(CompressionError) in
      do { return try read(buffer) } catch { throw CompressionError((error as? InputError)?.message ?? "\(error)") }
    }
  }

  public init(source: @escaping (UnsafeMutableRawBufferPointer) throws(CompressionError) -> Int)
    throws(CompressionError)
  {
    self.source = source
    // windowBits 15 + 32: gzip or zlib, detected from the header.
    let status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw CompressionError("inflateInit2 failed (\(status))") }
  }

  deinit {
    inflateEnd(&stream)
    input.deallocate()
  }

  /// Fills `buffer` with up to its size of decompressed bytes; 0 at the end of the stream.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(CompressionError) -> Int {
    guard !ended, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      if stream.avail_in == 0 {
        let count = try source(UnsafeMutableRawBufferPointer(start: input, count: Self.inputSize))
        if count == 0 { throw CompressionError("the gzip stream is truncated") }
        stream.next_in = input.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = uInt(count)
      }
      stream.next_out = base.assumingMemoryBound(to: Bytef.self)
      stream.avail_out = uInt(buffer.count)
      let status = inflate(&stream, Z_NO_FLUSH)
      let produced = buffer.count - Int(stream.avail_out)
      switch status {
      case Z_STREAM_END:
        ended = true
        return produced
      case Z_OK, Z_BUF_ERROR:
        if produced > 0 { return produced }
      default:
        let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        throw CompressionError("the gzip data is corrupted (\(reason))")
      }
    }
  }
}
