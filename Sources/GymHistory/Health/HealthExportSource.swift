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
/// file or on stdin, told by its first bytes), which ZIPFoundation inflates on a thread and hands
/// over in chunks (a `Handoff`), so the parser reads every source alike and nothing is extracted
/// to disk.
final class HealthExportSource: @unchecked Sendable {
  let input: InputBuffer
  /// The file read, for the progress line; nil for a zip's entry.
  let descriptor: Int32?
  private let closeDescriptor: Bool
  /// The zip entry's inflated bytes, and the thread's end.
  private var extraction: (chunks: Handoff<[UInt8]>, done: DispatchSemaphore)?

  private struct Cancelled: Error {}
  /// How much inflated XML one chunk carries.
  private static let chunkBytes = 1 << 18

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

  /// The entry's bytes as the extraction thread hands them over. Its failure reads as the end
  /// here: `finish` reports the damaged archive, which explains a cut-off document.
  private init(chunks: Handoff<[UInt8]>, done: DispatchSemaphore) {
    descriptor = nil
    closeDescriptor = false
    extraction = (chunks, done)
    var current: [UInt8] = []
    var offset = 0
    var holding = false
    input = InputBuffer { buffer throws(InputError) in
      while offset == current.count {
        if holding {
          // Handed back whole: a reference kept here would make the thread allocate a new chunk.
          var used: [UInt8] = []
          swap(&used, &current)
          chunks.giveBack(consume used)
        }
        holding = false
        guard let next = try? chunks.takeQueued() else { return 0 }
        current = next
        offset = 0
        holding = true
      }
      let count = min(buffer.count, current.count - offset)
      current.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
      offset += count
      return count
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
    let chunks = Handoff((0..<3).map { _ in [UInt8]() })
    let done = DispatchSemaphore(value: 0)
    // Handed over to the thread, which alone uses them from here on.
    let handoff = ArchiveEntry(archive: archive, entry: entry)
    let thread = Thread { [handoff] in
      defer { done.signal() }
      var filling: [UInt8] = []
      do {
        _ = try handoff.archive.extract(handoff.entry, skipCRC32: false) { data in
          var offset = data.startIndex
          while offset < data.endIndex {
            if filling.capacity == 0 {
              guard let free = chunks.takeFree() else { throw Cancelled() }
              filling = free
              filling.removeAll(keepingCapacity: true)
              filling.reserveCapacity(chunkBytes)
            }
            let end = min(data.endIndex, offset + (chunkBytes - filling.count))
            filling.append(contentsOf: data[offset..<end])
            offset = end
            if filling.count == chunkBytes {
              var full: [UInt8] = []
              swap(&full, &filling)
              chunks.put(consume full)
            }
          }
        }
        if !filling.isEmpty { chunks.put(filling) }
        chunks.close()
      } catch is Cancelled {
        chunks.close()
      } catch {
        // What was inflated before the failure still reaches the parser, as through a pipe.
        if !filling.isEmpty { chunks.put(filling) }
        chunks.fail(error)
      }
    }
    thread.start()
    return HealthExportSource(chunks: chunks, done: done)
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
      let n = try bytes.withUnsafeMutableBytes { buffer in
        try readInput(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      if n == 0 { break }
      filled += n
    }
    return Array(bytes.prefix(filled))
  }

  private static func readInput(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    do {
      return try FileDescriptorIO.read(descriptor, into: buffer)
    } catch {
      throw GymError(.ioError, "cannot read the input: \(error)")
    }
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
    var chunk = prefix + [UInt8](repeating: 0, count: max(0, (1 << 16) - prefix.count))
    var pending = prefix.count
    do {
      while true {
        do {
          try FileDescriptorIO.writeAll(out, chunk[..<pending])
        } catch {
          throw GymError(.ioError, "cannot write a temporary copy of the zip: \(error)")
        }
        pending = try chunk.withUnsafeMutableBytes { try readInput(descriptor, into: $0) }
        if pending == 0 { return path }
      }
    } catch {
      unlink(path)
      throw error
    }
  }

  /// Waits for the extraction and reports a damaged archive (a failed CRC, a truncated entry).
  /// `cancelling`: the import has stopped; an extraction still running stops at its next chunk (one
  /// that already failed is still reported: a damaged archive explains a cut-off document).
  func finish(cancelling: Bool = false) throws {
    guard let (chunks, done) = extraction else { return }
    extraction = nil
    if cancelling { chunks.stop() }
    // What the parser did not read is still inflated, so the archive's CRC is checked.
    while let chunk = try? chunks.takeQueued() { chunks.giveBack(consume chunk) }
    done.wait()
    if let error = chunks.error {
      throw GymError.data("the zip archive is damaged (\(error)); export again from the Health app")
    }
  }

  func close() {
    if extraction != nil { try? finish(cancelling: true) }
    if closeDescriptor, let descriptor { Glibc.close(descriptor) }
  }
}

/// The archive and entry, owned by the extraction thread once it starts.
private struct ArchiveEntry: @unchecked Sendable {
  let archive: Archive
  let entry: Entry
}
