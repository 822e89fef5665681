import Foundation
import GymCLI
import ZIPFoundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of `export.xml`: a file, stdin, or the entry inside the export's `.zip`, which
/// ZIPFoundation inflates on a thread into a pipe, so the parser reads every source alike and
/// nothing is extracted to disk.
final class HealthExportSource: @unchecked Sendable {
  let descriptor: Int32
  private let closeDescriptor: Bool
  private var extraction: Thread?
  private let done = DispatchSemaphore(value: 0)
  private var extractionError: (any Error)?

  private init(descriptor: Int32, closeDescriptor: Bool) {
    self.descriptor = descriptor
    self.closeDescriptor = closeDescriptor
  }

  static func open(_ path: String) throws -> HealthExportSource {
    if path == "-" { return HealthExportSource(descriptor: 0, closeDescriptor: false) }
    let file = try ImportInput(path)  // checks it can be read: exit 66 otherwise
    guard path.lowercased().hasSuffix(".zip") else {
      return HealthExportSource(descriptor: file.descriptor, closeDescriptor: true)
    }
    file.close()
    let archive: Archive
    do {
      archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    } catch {
      throw GymError.data("\(path): not a readable zip archive; pass the export's .zip or its export.xml")
    }
    guard
      let entry = archive["apple_health_export/export.xml"]
        ?? archive.first(where: { $0.path.hasSuffix("export.xml") && !$0.path.contains("cda") })
    else {
      throw GymError.noInput("\(path) has no apple_health_export/export.xml; is it an Apple Health export?")
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
      source.done.signal()
    }
    source.extraction = thread
    thread.start()
    return source
  }

  /// Waits for the extraction and reports a damaged archive (a failed CRC, a truncated entry).
  func finish() throws {
    guard extraction != nil else { return }
    // Drain what the parser did not read, so the writer is never stuck on a full pipe.
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    while scratch.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    done.wait()
    extraction = nil
    if let extractionError {
      throw GymError.data("the zip archive is damaged (\(extractionError)); export again from the Health app")
    }
  }

  func close() {
    if extraction != nil { try? finish() }
    if closeDescriptor { Glibc.close(descriptor) }
  }
}

/// The archive and entry, owned by the extraction thread once it starts.
private struct Handoff: @unchecked Sendable {
  let archive: Archive
  let entry: Entry
}
