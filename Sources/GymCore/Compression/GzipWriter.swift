import CGymZlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes gzip (RFC 1952) through the system zlib, a buffer at a time, handing the compressed
/// bytes to `output` (a file, and a checksum beside it).
public final class GzipWriter {
  private var stream = z_stream()
  private let output: (UnsafeRawBufferPointer) throws(CompressionError) -> Void
  private static let outputSize = 256 * 1024
  private let buffer = UnsafeMutableRawPointer.allocate(byteCount: outputSize, alignment: 16)
  private var finished = false

  /// `level` 1 (fastest) … 9 (smallest).
  public init(level: Int32, output: @escaping (UnsafeRawBufferPointer) throws(CompressionError) -> Void)
    throws(CompressionError)
  {
    self.output = output
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    let status = deflateInit2_(
      &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw CompressionError("deflateInit2 failed (\(status))") }
  }

  deinit {
    deflateEnd(&stream)
    buffer.deallocate()
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
    stream.avail_in = uInt(bytes.count)
    try pump(flush: Z_NO_FLUSH)
  }

  public func write(_ bytes: [UInt8]) throws(CompressionError) {
    let result = bytes.withUnsafeBytes { raw -> CompressionError? in
      do { try write(raw) } catch let error as CompressionError { return error } catch { return nil }
      return nil
    }
    if let result { throw result }
  }

  /// Writes the trailer; call once, after the last `write`.
  public func finish() throws(CompressionError) {
    guard !finished else { return }
    finished = true
    stream.next_in = nil
    stream.avail_in = 0
    try pump(flush: Z_FINISH)
  }

  private func pump(flush: Int32) throws(CompressionError) {
    var status: Int32 = Z_OK
    repeat {
      stream.next_out = buffer.assumingMemoryBound(to: Bytef.self)
      stream.avail_out = uInt(Self.outputSize)
      status = deflate(&stream, flush)
      guard status != Z_STREAM_ERROR else { throw CompressionError("deflate failed") }
      try output(UnsafeRawBufferPointer(start: buffer, count: Self.outputSize - Int(stream.avail_out)))
    } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
    stream.next_in = nil
  }
}

/// Compression or decompression failed, or the data is not valid gzip.
public struct CompressionError: Error, Equatable, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
}
