extension InputBuffer {
  /// An input over bytes in memory (tests and fuzzing), read in chunks like a file.
  public static func memory(_ bytes: [UInt8]) -> InputBuffer {
    var offset = 0
    return InputBuffer { buffer throws(InputError) in
      let count = min(buffer.count, bytes.count - offset)
      guard count > 0 else { return 0 }
      bytes.withUnsafeBytes { source in
        buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
      }
      offset += count
      return count
    }
  }
}
