import Foundation
import GRDB
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `--format sqlite` export's one file, brought out as a database of its own and checked against
/// its manifest before anything reads its rows.
extension ExportReader {
  /// Writes the snapshot to `destination` (a new file). A gzip'd or encrypted one is read twice:
  /// first without writing, to learn that it is an SQLite database of the size its header declares
  /// and that the destination has room for it, and only then to the file; a gzip that expands
  /// beyond the declared size (a bomb of zeros) stops there, and nothing has been written.
  func copySnapshot(to destination: String) throws {
    let name = manifest.files[0].name
    let source = path + "/" + name
    guard manifest.compression == ExportCompression.gzip.rawValue || isEncrypted else {
      try FileManager.default.copyItem(atPath: source, toPath: destination)
      return
    }
    let size = try inflateSnapshot { _ in }
    let folder = (destination as NSString).deletingLastPathComponent
    var space = statvfs()
    if statvfs(folder.isEmpty ? "." : folder, &space) == 0,
      UInt64(size) > UInt64(space.f_bavail) * UInt64(space.f_frsize)
    {
      throw GymError(.ioError, "\(folder): no room for the \(size)-byte database in \(path)/\(name)")
    }
    let target = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard target >= 0 else {
      throw GymError(.cannotCreate, "cannot write '\(destination)': \(String(cString: strerror(errno)))")
    }
    defer { close(target) }
    do {
      _ = try inflateSnapshot { chunk in try FileOutput.writeAll(target, chunk) }
    } catch let error as CompressionError {
      throw GymError(.ioError, "cannot write '\(destination)': \(error.message)")
    }
  }

  /// The decompressed snapshot, chunk by chunk, to `body`; returns its size. Refused, while
  /// streaming, unless it starts with an SQLite header and ends exactly at page size × page count.
  private func inflateSnapshot(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
    let name = manifest.files[0].name
    let (descriptor, read) = try contents(of: name)
    defer { close(descriptor) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var header: [UInt8] = []
    var declared: Int?
    var total = 0
    do {
      while true {
        let count = try read(buffer)
        guard count > 0 else { break }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        if header.count < 100 { header += chunk.prefix(100 - header.count) }
        if declared == nil, header.count == 100 {
          guard let size = Self.declaredSize(header) else {
            throw fail(name, "is not an SQLite database with a valid header; the export was edited or damaged")
          }
          declared = size
        }
        total += count
        if let declared, total > declared {
          throw fail(
            name, "expands beyond the \(declared) bytes its SQLite header declares; the export was edited or damaged")
        }
        try body(chunk)
      }
    } catch let error as CompressionError {
      throw fail(name, error.message)
    } catch let error as AgeError {
      throw fail(name, error.description)
    }
    guard let declared, total == declared else {
      throw fail(
        name, "holds \(total) bytes, not the size its SQLite header declares; the export was edited or damaged")
    }
    return total
  }

  /// Page size × page count from a database header, when the header is one and its page count is
  /// valid (the change counter at offset 24 matches the version-valid-for number at 92).
  static func declaredSize(_ header: [UInt8]) -> Int? {
    guard header.count >= 100, header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else { return nil }
    func bigEndian(_ offset: Int, _ width: Int) -> Int {
      header[offset..<(offset + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    let rawPageSize = bigEndian(16, 2)
    let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
    let pages = bigEndian(28, 4)
    guard pageSize >= 512, pageSize.nonzeroBitCount == 1, pages > 0, bigEndian(24, 4) == bigEndian(92, 4) else {
      return nil
    }
    return pageSize * pages
  }

  /// The schema objects of a database, one line each (`table workout: CREATE TABLE …`), SQLite's own
  /// excepted: a snapshot must hold exactly the ones gym's migrations make at its schema version.
  static func schemaObjects(_ db: Database) throws -> Set<String> {
    try Set(
      String.fetchAll(
        db,
        sql: "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
      ))
  }

  /// The snapshot, once copied, agrees with its manifest in everything an import relies on: its
  /// integrity, its schema history, exactly the schema `expected` (what the migrations it lists
  /// make), the tables listed with their columns, and the row counts.
  /// `dataTables` are the tables gym exports (an import copies those it finds): each the snapshot
  /// holds must be listed.
  func checkSnapshot(at copy: String, expected: Set<String>, dataTables: [String]) throws {
    let name = manifest.files[0].name
    let reader = try StoreReader(path: copy)
    defer { reader.close() }
    try reader.read { db in
      let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
      guard integrity == ["ok"] else { throw fail(name, "integrity_check: \(integrity.first ?? "no answer")") }
      let applied = try? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
      guard applied == manifest.schema.sorted() else {
        throw fail(name, "its schema history is not the one the manifest lists; the export was edited or damaged")
      }
      let objects = try Self.schemaObjects(db)
      if let extra = objects.subtracting(expected).sorted().first {
        throw fail(
          name, "holds \(extra.prefix(80)), which its schema version does not; the export was edited or damaged")
      }
      if let missing = expected.subtracting(objects).sorted().first {
        throw fail(name, "lacks \(missing.prefix(80)); the export was edited or damaged")
      }
      let listed = Set(manifest.tables.map(\.name))
      for table in dataTables
      where !listed.contains(table) && objects.contains(where: { $0.hasPrefix("table \(table): ") }) {
        throw fail(name, "holds table \(table), which the manifest does not list; the export was edited or damaged")
      }
      for table in manifest.tables {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQL.quote(table.name)))").map {
          $0["name"] as String
        }
        guard columns == table.columns else {
          throw fail(name, "the columns of \(table.name) are not the ones the manifest lists")
        }
        let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQL.quote(table.name))") ?? -1
        guard rows == table.rows else {
          throw fail(name, "\(table.name) has \(rows) rows, the manifest says \(table.rows)")
        }
      }
    }
  }
}
