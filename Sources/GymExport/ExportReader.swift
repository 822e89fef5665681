import Foundation
import GRDB
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads an export back: checks it (`gym export verify`) and streams its rows (`gym import`).
/// Every problem is exit 65 naming the file.
public struct ExportReader {
  public let path: String
  public let manifest: ExportManifest
  /// What opens an encrypted export's files; none: checksums only.
  public let identities: [AgeIdentity]

  public init(path: String, identities: [AgeIdentity] = []) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw GymError.noInput("no export directory at '\(path)'; see 'gym export status --out DIR'")
    }
    guard FileManager.default.fileExists(atPath: path + "/" + ExportManifest.fileName) else {
      throw GymError.data("\(path): no \(ExportManifest.fileName); this is not a gym export")
    }
    guard let manifest = ExportManifest.read(in: path) else {
      throw GymError.data("\(path)/\(ExportManifest.fileName): not a gym export manifest (unreadable or edited)")
    }
    guard ExportFormat(rawValue: manifest.dataFormat) != nil, manifest.version == 1 else {
      throw GymError.data("\(path)/\(ExportManifest.fileName): unsupported export format or version")
    }
    if let problem = manifest.shapeProblem {
      throw GymError.data("\(path)/\(ExportManifest.fileName): \(problem); the manifest was edited or damaged")
    }
    guard manifest.encryption == nil || manifest.encryption == "age" else {
      throw GymError.data("\(path)/\(ExportManifest.fileName): unknown encryption '\(manifest.encryption!)'")
    }
    self.path = path
    self.manifest = manifest
    self.identities = identities
  }

  var format: ExportFormat { ExportFormat(rawValue: manifest.dataFormat)! }
  public var isEncrypted: Bool { manifest.encryption != nil }

  /// Checks every file's size and SHA-256, decompresses every file and parses every row, and
  /// compares the row counts with the manifest. Throws the first problem found. A snapshot's
  /// contents are checked where it is copied out (`copySnapshot`, `checkSnapshot`).
  public func verify() throws {
    try checkFiles()
    guard format != .sqlite else { return }
    for table in manifest.tables { _ = try rows(of: table) { _ in } }
  }

  /// Every file the manifest lists is there, the export's own regular file, and matches the manifest:
  /// its checksum, or with `checksums` false only its size (what thinning can afford for every export).
  func checkFiles(checksums: Bool = true) throws {
    var listed = Set<String>()
    for file in manifest.files {
      listed.insert(file.name)
      let full = path + "/" + file.name
      var info = stat()
      guard lstat(full, &info) == 0 else { throw fail(file.name, "the file is missing") }
      // Only the export's own regular files: a symlink could point outside it, a FIFO or a device
      // would never end.
      guard (info.st_mode & S_IFMT) == S_IFREG else {
        throw fail(file.name, "is not a regular file (a link, a device or a pipe); an export holds only its own files")
      }
      guard checksums else {
        guard Int(info.st_size) == file.bytes else { throw fail(file.name, "its size does not match the manifest") }
        continue
      }
      let (sha, bytes) = try HashedFile.sha256(of: full)
      guard bytes == file.bytes, sha == file.sha256 else {
        throw fail(file.name, "its checksum does not match the manifest (changed or damaged since the export)")
      }
    }
    for table in manifest.tables where format != .sqlite {
      guard let file = table.file, listed.contains(file) else {
        throw fail(ExportManifest.fileName, "table \(table.name) has no file listed")
      }
    }
  }

  /// Streams a table's rows to `body` as raw values by column; returns the count, which must
  /// match the manifest.
  @discardableResult
  func rows(of table: ExportManifest.Table, _ body: (RecordValues) throws -> Void) throws -> Int {
    let rows = try TableRows(self, table)
    var values = RecordValues(fieldNames: table.columns)
    while try rows.next(into: &values) { try body(values) }
    return rows.count
  }

  /// One table's rows, read on demand: each problem names the file (and its line), and the end
  /// of the file checks the count against the manifest. Used by one thread at a time (an import
  /// reads it on a thread of its own), hence `@unchecked Sendable`.
  final class TableRows: @unchecked Sendable {
    let table: ExportManifest.Table
    private let reader: ExportReader
    private let name: String
    private let descriptor: Int32
    private var csv: CSVRecordScanner?
    private var json: JSONRecordScanner?
    private(set) var count = 0

    init(_ reader: ExportReader, _ table: ExportManifest.Table) throws {
      self.reader = reader
      self.table = table
      name = table.file ?? table.name
      let (descriptor, bytes) = try reader.contents(of: name)
      self.descriptor = descriptor
      let input = InputBuffer { buffer throws(InputError) in
        do {
          return try bytes(buffer)
        } catch let error as CompressionError {
          throw InputError(line: 0, message: error.message)
        } catch {
          throw InputError(line: 0, message: "\(error)")
        }
      }
      if reader.format == .csv {
        var scanner = CSVRecordScanner(input: input)
        do {
          try scanner.readHeader(expected: RecordValues(fieldNames: table.columns), required: table.columns)
        } catch {
          close(descriptor)
          throw failure(error)
        }
        csv = scanner
      } else {
        json = JSONRecordScanner(input: input)
      }
    }

    deinit { close(descriptor) }

    /// Fills `values` with the next row; false after the last, once the count is checked.
    func next(into values: inout RecordValues) throws -> Bool {
      var more = false
      do throws(InputError) {
        if csv != nil { more = try csv!.next(into: &values) } else { more = try json!.next(into: &values) }
      } catch {
        throw failure(error)
      }
      if more {
        count += 1
        return true
      }
      guard count == table.rows else { throw reader.fail(name, "\(count) rows, the manifest says \(table.rows)") }
      return false
    }

    private func failure(_ error: InputError) -> GymError {
      reader.fail(name, (error.line > 0 ? "line \(error.line): " : "") + error.message)
    }
  }

  /// A file's contents, as they were before the export wrote them: read from disk, then decrypted
  /// (an encrypted export) and decompressed (a gzip'd one), on demand. The caller closes the
  /// descriptor.
  func contents(of name: String) throws -> (
    descriptor: Int32, read: (UnsafeMutableRawBufferPointer) throws -> Int
  ) {
    let descriptor = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw fail(name, "cannot be read: \(String(cString: strerror(errno)))") }
    let file = InputBuffer.reading(descriptor)
    var read: (UnsafeMutableRawBufferPointer) throws -> Int = { buffer in try file(buffer) }
    if isEncrypted {
      guard !identities.isEmpty else {
        close(descriptor)
        throw fail(name, "is encrypted (age): give --identity FILE (or --passphrase-file FILE) to read it")
      }
      let age = AgeReader(identities: identities, source: read)
      read = { buffer in try age.read(into: buffer) }
    }
    guard manifest.compression == ExportCompression.gzip.rawValue else { return (descriptor, read) }
    let bytes = read
    do {
      let gzip = try GzipReader { buffer throws(CompressionError) in
        do { return try bytes(buffer) } catch let error as CompressionError { throw error } catch {
          throw CompressionError("\(error)")
        }
      }
      return (descriptor, { buffer in try gzip.read(into: buffer) })
    } catch {
      close(descriptor)
      throw fail(name, error.message)
    }
  }

  func fail(_ file: String, _ message: String) -> GymError {
    GymError.data("\(path)/\(file): \(message)")
  }
}
