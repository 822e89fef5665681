import Foundation
import GymCLI
import GymCore
import ZIPFoundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of `export.xml`: a file, stdin, or the entry inside the export's `.zip` (given as a
/// file or on stdin, told by its first bytes), which ZIPFoundation inflates on a thread into a
/// pipe, so the parser reads every source alike and nothing is extracted to disk.
final class HealthExportSource: @unchecked Sendable {
  let input: InputBuffer
  let descriptor: Int32
  private let closeDescriptor: Bool
  private var extraction: Thread?
  private let done = DispatchSemaphore(value: 0)
  private var extractionError: (any Error)?
  /// Set when the import stops early (a bad record, a database error): the extraction stops at its
  /// next chunk instead of inflating the rest of a large export first.
  private let state = NSLock()
  private var cancelled = false
  private var extractionDone = false

  private struct Cancelled: Error {}

  private var isCancelled: Bool { state.withLock { cancelled } }

  private init(descriptor: Int32, closeDescriptor: Bool, prefix: [UInt8] = []) {
    self.descriptor = descriptor
    self.closeDescriptor = closeDescriptor
    if prefix.isEmpty {
      input = InputBuffer(descriptor: descriptor)
    } else {
      // The bytes read to tell XML from a zip come first, then the rest of the file.
      let rest = InputBuffer.reading(descriptor)
      var pending = prefix[...]
      input = InputBuffer { buffer throws(InputError) in
        guard pending.isEmpty else {
          let count = min(pending.count, buffer.count)
          for (i, byte) in pending.prefix(count).enumerated() { buffer[i] = byte }
          pending = pending.dropFirst(count)
          return count
        }
        return try rest(buffer)
      }
    }
  }

  static func open(_ path: String) throws -> HealthExportSource {
    let file = try ImportInput(path)  // checks it can be read: exit 66 otherwise
    let prefix = try readPrefix(file.descriptor, count: 4)
    guard prefix == [0x50, 0x4B, 0x03, 0x04] else {
      return HealthExportSource(descriptor: file.descriptor, closeDescriptor: path != "-", prefix: prefix)
    }
    let archivePath: String
    if path == "-" {
      archivePath = try spool(prefix: prefix, from: file.descriptor)
    } else {
      archivePath = path
      file.close()
    }
    let archive: Archive
    do {
      archive = try Archive(url: URL(fileURLWithPath: archivePath), accessMode: .read)
      if path == "-" { unlink(archivePath) }  // open already: the name is no longer needed
    } catch {
      if path == "-" { unlink(archivePath) }
      throw GymError.data("\(file.displayName): not a readable zip archive; pass the export's .zip or its export.xml")
    }
    guard let entry = healthDataEntry(in: archive) else {
      throw GymError.noInput(
        "\(file.displayName) holds no XML document whose root is <HealthData>; is it an Apple Health export?")
    }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw GymError(.ioError, "cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    let source = HealthExportSource(descriptor: ends[0], closeDescriptor: true)
    let writeEnd = ends[1]
    // Handed over to the thread, which alone uses them from here on.
    let handoff = Handoff(archive: archive, entry: entry)
    let thread = Thread { [source, handoff] in
      do {
        _ = try handoff.archive.extract(handoff.entry, skipCRC32: false) { data in
          if source.isCancelled { throw Cancelled() }
          try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
              let n = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
              if n < 0 {
                if errno == EINTR { continue }
                throw GymError(.ioError, "the export could not be streamed")
              }
              offset += n
            }
          }
        }
      } catch {
        source.extractionError = error
      }
      Glibc.close(writeEnd)
      source.state.withLock { source.extractionDone = true }
      source.done.signal()
    }
    source.extraction = thread
    thread.start()
    return source
  }

  /// The export's XML is named in the phone's language (`export.xml`, `exportar.xml`, …) beside
  /// `export_cda.xml`: the entry is the `.xml` whose root element is `<HealthData>`.
  private static func healthDataEntry(in archive: Archive) -> Entry? {
    let candidates = archive.filter { $0.type == .file && $0.path.lowercased().hasSuffix(".xml") }
      .sorted {
        ($0.path.hasSuffix("/export.xml") ? 0 : 1, $0.path) < ($1.path.hasSuffix("/export.xml") ? 0 : 1, $1.path)
      }
    return candidates.first { rootElement(of: $0, in: archive) == "HealthData" }
  }

  /// The name of an entry's root element, from its first 1 MiB (enough for any DOCTYPE the
  /// Health app writes); nil when it has none there.
  private static func rootElement(of entry: Entry, in archive: Archive) -> String? {
    struct Enough: Error {}
    var head: [UInt8] = []
    do {
      _ = try archive.extract(entry, skipCRC32: true) { data in
        head.append(contentsOf: data.prefix(max(0, (1 << 20) - head.count)))
        if head.count >= 1 << 20 { throw Enough() }
      }
    } catch is Enough {
    } catch {
      return nil
    }
    var scanner = XMLTagScanner(input: .memory(head))
    return (try? scanner.next())??.name
  }

  private static func readPrefix(_ descriptor: Int32, count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
      if n == 0 { break }
      if n < 0 {
        if errno == EINTR { continue }
        throw GymError(.ioError, "cannot read the input: \(String(cString: strerror(errno)))")
      }
      filled += n
    }
    return Array(bytes.prefix(filled))
  }

  /// A zip read from stdin, copied to a temporary file: a zip's directory is at its end.
  private static func spool(prefix: [UInt8], from descriptor: Int32) throws -> String {
    var template = Array((NSTemporaryDirectory() + "/gym-health-XXXXXX.zip").utf8CString)
    let out = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard out >= 0 else {
      throw GymError(.cannotCreate, "cannot create a temporary file: \(String(cString: strerror(errno)))")
    }
    defer { Glibc.close(out) }
    let path = String(cString: template)
    var chunk = prefix + [UInt8](repeating: 0, count: 1 << 16)
    var pending = prefix.count
    while true {
      var offset = 0
      while offset < pending {
        let n = chunk.withUnsafeBytes { write(out, $0.baseAddress! + offset, pending - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          unlink(path)
          throw GymError(.ioError, "cannot write a temporary copy of the zip: \(String(cString: strerror(errno)))")
        }
        offset += n
      }
      let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR {
        pending = 0
        continue
      }
      guard n >= 0 else {
        unlink(path)
        throw GymError(.ioError, "cannot read the input: \(String(cString: strerror(errno)))")
      }
      if n == 0 { return path }
      pending = n
    }
  }

  /// Waits for the extraction and reports a damaged archive (a failed CRC, a truncated entry).
  /// `cancelling`: the import has stopped; an extraction still running stops at its next chunk (one
  /// that already failed is still reported: a damaged archive explains a cut-off document).
  func finish(cancelling: Bool = false) throws {
    guard extraction != nil else { return }
    if cancelling { state.withLock { if !extractionDone { cancelled = true } } }
    // Drain what the parser did not read, so the writer is never stuck on a full pipe.
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = scratch.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if n > 0 || (n < 0 && errno == EINTR) { continue }
      break
    }
    done.wait()
    extraction = nil
    if let extractionError, !(extractionError is Cancelled) {
      throw GymError.data("the zip archive is damaged (\(extractionError)); export again from the Health app")
    }
  }

  func close() {
    if extraction != nil { try? finish(cancelling: true) }
    if closeDescriptor { Glibc.close(descriptor) }
  }
}

/// The archive and entry, owned by the extraction thread once it starts.
private struct Handoff: @unchecked Sendable {
  let archive: Archive
  let entry: Entry
}
