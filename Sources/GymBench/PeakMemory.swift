#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's peak resident memory during one workload: Linux lets a process reset its
/// high-water mark (`/proc/self/clear_refs`, 5) and read it back (`VmHWM` in `/proc/self/status`).
enum PeakMemory {
  static func reset() {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, "5", 1)
    close(descriptor)
  }

  /// VmHWM in MiB, one decimal; nil where /proc does not say.
  static func mebibytes() -> Double? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix("VmHWM:") else { continue }
      let kilobytes = text.dropFirst(6).split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
      return kilobytes.map { ($0 / 1024 * 10).rounded() / 10 }
    }
    return nil
  }
}
