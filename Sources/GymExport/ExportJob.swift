import Foundation
import GRDB
import GRDBSQLite
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What to export and how.
public struct ExportOptions: Sendable {
  public var format: ExportFormat = .ndjson
  public var compression: ExportCompression = .gzip
  public var level = 6
  /// Table names to export; nil: every table of the chosen modules.
  public var tables: [String]?
  /// Module names; nil: every registered module.
  public var modules: [String]?
  public var out: String
  /// Encrypt every data file to these (age); none: plain files.
  public var recipients: [AgeRecipient] = []

  public init(out: String) { self.out = out }
}

/// Writes one export: a directory `gym-export-<time>` under `out` holding a file per table (or
/// one snapshot) and `manifest.json`. Everything is read in one read transaction (consistent
/// while writers go on), rows stream through a fixed set of buffers (constant memory), encoding
/// overlaps with compression on a second thread, and the directory is written under a temporary
/// name, fsynced and renamed: a reader never sees a partial export, and a failed one leaves nothing.
public struct ExportJob: Sendable {
  public let store: Store
  public let options: ExportOptions
  public let gymVersion: String

  public init(store: Store, options: ExportOptions, gymVersion: String) {
    self.store = store
    self.options = options
    self.gymVersion = gymVersion
  }

  public static let prefix = "gym-export-"

  /// The module and table names, checked; an unknown one is a usage error listing the valid ones.
  func selectedTables() throws -> [(module: String, table: String)] {
    let modules = store.modules.filter { options.modules?.contains($0.name) ?? true }
    if let wanted = options.modules {
      let unknown = wanted.filter { name in !store.modules.contains { $0.name == name } }
      if !unknown.isEmpty {
        throw GymError.usage(
          "unknown module(s) \(unknown.joined(separator: ", ")); modules: \(store.modules.map(\.name).joined(separator: ", "))"
        )
      }
    }
    let all = modules.flatMap { module in module.tables.map { (module: module.name, table: $0.name) } }
    guard let wanted = options.tables else { return all }
    let unknown = wanted.filter { name in !all.contains { $0.table == name } }
    if !unknown.isEmpty {
      throw GymError.usage(
        "unknown table(s) \(unknown.joined(separator: ", ")); tables: \(all.map(\.table).joined(separator: ", "))")
    }
    return all.filter { wanted.contains($0.table) }
  }

  /// Runs the export; returns its directory and manifest.
  public func run(now: Date = Date()) throws -> (path: String, manifest: ExportManifest) {
    let tables = try selectedTables()
    do {
      try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    } catch {
      throw GymError(
        .cannotCreate,
        "cannot create the export directory '\(options.out)': \(Self.directoryProblem(options.out, error)); "
          + "choose another --out")
    }
    StalePartials.prune(in: options.out) { $0.hasPrefix("." + Self.prefix) && $0.hasSuffix(".partial") }
    let name = Self.prefix + Self.stamp(now)
    let final = options.out + "/" + name
    let temporary = options.out + "/." + name + ".partial"
    guard mkdir(temporary, 0o755) == 0 else {
      throw GymError(
        .cannotCreate, "cannot write in '\(options.out)': \(String(cString: strerror(errno))); choose another --out")
    }
    do {
      let manifest = try write(tables, into: temporary, created: now)
      let manifestFile = try HashedFile(creating: temporary + "/" + ExportManifest.fileName)
      let data = try manifest.encoded()
      try data.withUnsafeBytes { try manifestFile.write($0) }
      _ = try manifestFile.close(name: ExportManifest.fileName)
      Durable.syncDirectory(temporary)
      do {
        try Durable.rename(temporary, to: final)
      } catch {
        throw GymError(.cannotCreate, "cannot put the export at '\(final)': \(error)")
      }
      return (final, manifest)
    } catch {
      Directory.remove(temporary)
      if let error = error as? CompressionError {
        // Which export could not be written, and that nothing of it is left (a full disk, `ulimit -f`).
        throw GymError(.ioError, "cannot write the export in '\(options.out)': \(error.message); nothing was kept")
      }
      if let error = error as? ExportError { throw GymError.data(error.message) }
      throw error
    }
  }

  private func write(_ tables: [(module: String, table: String)], into directory: String, created: Date) throws
    -> ExportManifest
  {
    let compressed = options.compression == .gzip
    return try store.read { db in
      let schema = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
      var manifest = ExportManifest(
        gymVersion: gymVersion,
        created: Timestamp(millisecondsSince1970: Int64(created.timeIntervalSince1970 * 1000)).canonical,
        dataFormat: options.format.rawValue, compression: options.compression.rawValue,
        level: compressed ? options.level : nil, schema: schema, tables: [], files: [])
      if !options.recipients.isEmpty { manifest.encryption = "age" }
      manifest.store = try StoreIdentity.id(db)
      if tables.count < store.modules.reduce(0, { $0 + $1.tables.count }) { manifest.partial = true }
      for (module, table) in tables {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQL.quote(table)))").map { $0["name"] as String }
        var entry = ExportManifest.Table(name: table, module: module, rows: 0, columns: columns, file: nil)
        if options.format == .sqlite {
          entry.rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQL.quote(table))") ?? 0
        } else {
          let file = ExportFileWriter.fileName(table + "." + options.format.rawValue, options: options)
          let (rows, written) = try writeTable(
            db, table: table, columns: columns, to: directory + "/" + file, name: file)
          entry.rows = rows
          entry.file = file
          manifest.files.append(written)
        }
        manifest.tables.append(entry)
      }
      if options.format == .sqlite { manifest.files.append(try snapshot(db, into: directory)) }
      return manifest
    }
  }

  /// One table, streamed: this thread steps the statement and encodes rows into chunks, the
  /// sink's thread compresses them and writes the file.
  private func writeTable(_ db: Database, table: String, columns: [String], to path: String, name: String) throws
    -> (Int, ExportManifest.File)
  {
    let file = try ExportFileWriter(path: path, name: name, options: options)
    let sink = BackgroundSink { chunk in try chunk.withUnsafeBytes { try file.write($0) } }
    let encoder = RowEncoder(format: options.format, columns: columns)
    let list = columns.map(SQL.quote).joined(separator: ", ")
    let statement = try db.makeStatement(sql: "SELECT \(list) FROM \(SQL.quote(table)) ORDER BY rowid")
    let sqlite = statement.sqliteStatement
    var chunk: [UInt8] = encoder.header()
    chunk.reserveCapacity(256 * 1024)
    var rows = 0
    var status = sqlite3_step(sqlite)
    do {
      while status == SQLITE_ROW {
        try encoder.append(sqlite, to: &chunk)
        rows += 1
        if chunk.count >= 240 * 1024 { try sink.submit(&chunk) }
        status = sqlite3_step(sqlite)
      }
      guard status == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
      if !chunk.isEmpty { try sink.submit(&chunk) }
      try sink.finish()
    } catch {
      try? sink.finish()
      sqlite3_reset(sqlite)
      file.abandon()
      throw error
    }
    sqlite3_reset(sqlite)
    return (rows, try file.finish())
  }

  /// The whole database as one SQLite file, through the backup API from this read transaction,
  /// then gzip'd and encrypted when asked. A copy to be encrypted or compressed is made in a
  /// directory of its own that only this user can enter (mode 0700, under the temporary directory),
  /// never beside the export, and removed however the export ends: with encryption asked for, no
  /// readable plaintext is left in the export's directory, even by a kill.
  private func snapshot(_ db: Database, into directory: String) throws -> ExportManifest.File {
    let transformed = options.compression == .gzip || !options.recipients.isEmpty
    var scratch: String?
    defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
    if transformed {
      // One a kill left behind is removed a day later, as the export's own partial directories.
      StalePartials.prune(in: NSTemporaryDirectory()) { $0.hasPrefix("gym-snapshot-") }
      guard let made = PrivateDirectory.make(prefix: "gym-snapshot-") else {
        throw GymError(.cannotCreate, "cannot make a private directory for the snapshot: \(PrivateDirectory.failure)")
      }
      scratch = made
    }
    let plain = (scratch ?? directory) + "/gym.sqlite"
    let copy = try DatabaseQueue(path: plain)
    try copy.writeWithoutTransaction { dest in
      try db.backup(to: dest)
      try dest.execute(sql: "PRAGMA journal_mode = DELETE")
    }
    try copy.close()
    guard transformed else {
      let (sha, bytes) = try HashedFile.sha256(of: plain)
      do {
        try Durable.sync(plain)
      } catch {
        throw GymError(.ioError, "cannot write '\(plain)': \(error)")
      }
      return ExportManifest.File(name: "gym.sqlite", bytes: bytes, sha256: sha)
    }
    let name = ExportFileWriter.fileName("gym.sqlite", options: options)
    let file = try ExportFileWriter(path: directory + "/" + name, name: name, options: options)
    let input = open(plain, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw GymError(.ioError, "cannot read '\(plain)': \(String(cString: strerror(errno)))") }
    defer { _ = close(input) }
    do {
      try FileChunks.forEach(input, path: plain) { chunk in try file.write(chunk) }
    } catch {
      file.abandon()
      throw error
    }
    unlink(plain)
    return try file.finish()
  }

  /// `20261122T101500.123Z`: sorts as time; milliseconds so a short schedule never collides.
  static func stamp(_ date: Date) -> String { FileStamp.utc(date, milliseconds: true) }

  /// Why `path` could not be made a directory: a part of it that is a file (which Foundation reports
  /// only as error 512), else what Foundation says.
  static func directoryProblem(_ path: String, _ error: any Error) -> String {
    var part = path.hasPrefix("/") ? "" : "."
    for name in path.split(separator: "/") {
      part += "/" + name
      var info = stat()
      guard stat(part, &info) == 0 else { break }
      if info.st_mode & S_IFMT != S_IFDIR {
        return "'\(part.hasPrefix("./") ? String(part.dropFirst(2)) : part)' is not a directory"
      }
    }
    return reason(error)
  }

  static func reason(_ error: any Error) -> String {
    (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
  }
}
