import Foundation
import GRDB

/// Looks at a database file before SQLite does, so that a file gym must refuse stays untouched.
enum StoreFile {
  enum Kind: Equatable {
    case missing, empty, sqliteWAL, sqliteRollbackJournal
  }

  static func inspect(_ path: String) throws(StoreError) -> Kind {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .missing
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw StoreError.notADatabase(path: path)
    }
    defer { try? handle.close() }
    let header = (try? handle.read(upToCount: 100)) ?? Data()
    if header.isEmpty { return .empty }
    guard header.count >= 20, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
      throw StoreError.notADatabase(path: path)
    }
    // Byte 18 is the file format write version: 2 means WAL, which every gym database uses.
    return header[header.startIndex + 18] == 2 ? .sqliteWAL : .sqliteRollbackJournal
  }

  /// Opening the store switches the file to WAL, which writes to it: a database not in WAL mode is
  /// checked read-only first and refused if it holds tables but no gym schema history.
  static func refuseForeign(_ path: String) throws {
    var configuration = Configuration()
    configuration.readonly = true
    let tables = try DatabaseQueue(path: path, configuration: configuration).read { db in
      try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    }
    if !tables.isEmpty && !tables.contains("grdb_migrations") {
      throw StoreError.foreignDatabase(path: path)
    }
  }

  static func createDirectory(for path: String) throws(StoreError) {
    let directory = (path as NSString).deletingLastPathComponent
    guard !directory.isEmpty else { return }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreError.cannotCreate(path: path, reason: "cannot create directory '\(directory)'")
    }
    guard FileManager.default.isWritableFile(atPath: directory) else {
      throw StoreError.cannotCreate(path: path, reason: "directory '\(directory)' is not writable")
    }
  }
}
