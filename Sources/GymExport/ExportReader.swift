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

  public init(path: String) throws {
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
    self.path = path
    self.manifest = manifest
  }

  var format: ExportFormat { ExportFormat(rawValue: manifest.dataFormat)! }

  /// Checks every file's size and SHA-256, decompresses every file and parses every row, and
  /// compares the row counts with the manifest. Throws the first problem found.
  public func verify() throws {
    try checkFiles()
    if format == .sqlite {
      try withSnapshot { snapshot in
        var configuration = Configuration()
        configuration.readonly = true
        try DatabaseQueue(path: snapshot, configuration: configuration).read { db in
          let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
          guard integrity == ["ok"] else { throw fail(manifest.files[0].name, "integrity_check: \(integrity[0])") }
          for table in manifest.tables {
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQL.quote(table.name))") ?? -1
            guard rows == table.rows else {
              throw fail(manifest.files[0].name, "\(table.name) has \(rows) rows, the manifest says \(table.rows)")
            }
          }
        }
      }
      return
    }
    for table in manifest.tables { _ = try rows(of: table) { _ in } }
  }

  func checkFiles() throws {
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
    let name = table.file ?? table.name
    let descriptor = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw fail(name, "cannot be read: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    let input: InputBuffer
    if manifest.compression == ExportCompression.gzip.rawValue {
      let gzip = try GzipReader(descriptor: descriptor)
      input = InputBuffer { buffer throws(InputError) in
        do {
          return try gzip.read(into: buffer)
        } catch let error as CompressionError {
          throw InputError(line: 0, message: error.message)
        } catch {
          throw InputError(line: 0, message: "\(error)")
        }
      }
    } else {
      input = InputBuffer(descriptor: descriptor)
    }
    var values = RecordValues(fieldNames: table.columns)
    var count = 0
    do {
      if format == .csv {
        var scanner = CSVRecordScanner(input: input)
        try scanner.readHeader(expected: values, required: table.columns)
        while try scanner.next(into: &values) {
          count += 1
          try body(values)
        }
      } else {
        var scanner = JSONRecordScanner(input: input)
        while try scanner.next(into: &values) {
          count += 1
          try body(values)
        }
      }
    } catch let error as InputError {
      throw fail(name, (error.line > 0 ? "line \(error.line): " : "") + error.message)
    }
    guard count == table.rows else {
      throw fail(name, "\(count) rows, the manifest says \(table.rows)")
    }
    return count
  }

  /// The snapshot as a plain SQLite file (decompressed to a temporary file when gzip'd).
  func withSnapshot<T>(_ body: (String) throws -> T) throws -> T {
    let name = manifest.files[0].name
    guard manifest.compression == ExportCompression.gzip.rawValue else { return try body(path + "/" + name) }
    let temporary = NSTemporaryDirectory() + "gym-import-" + UUID().uuidString + ".sqlite"
    defer { unlink(temporary) }
    let source = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw fail(name, "cannot be read") }
    defer { close(source) }
    let target = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard target >= 0 else { throw GymError(.cannotCreate, "cannot write '\(temporary)'") }
    defer { close(target) }
    do {
      let gzip = try GzipReader(descriptor: source)
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { buffer.deallocate() }
      while true {
        let count = try gzip.read(into: buffer)
        guard count > 0 else { break }
        try FileOutput.writeAll(target, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      }
    } catch {
      throw fail(name, error.message)
    }
    return try body(temporary)
  }

  func fail(_ file: String, _ message: String) -> GymError {
    GymError.data("\(path)/\(file): \(message)")
  }
}
