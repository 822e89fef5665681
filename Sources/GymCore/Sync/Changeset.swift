import CGymSQLite
import Foundation
import GRDB

/// A changeset as SQLite's session extension writes it: the rows some writes inserted, updated and
/// deleted, each addressed by its primary key, with the old values an update or delete expects.
public struct Changeset: Sendable, Equatable {
  public var bytes: [UInt8]

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public var isEmpty: Bool { bytes.isEmpty }

  /// The changeset that undoes this one (inserts become deletes, updates swap old and new).
  public func inverted() throws -> Changeset {
    guard !bytes.isEmpty else { return self }
    var count: Int32 = 0
    var output: UnsafeMutableRawPointer?
    let code = bytes.withUnsafeBytes { input in
      sqlite3changeset_invert(Int32(input.count), input.baseAddress, &count, &output)
    }
    defer { sqlite3_free(output) }
    guard code == SQLITE_OK else { throw ChangesetError("cannot invert a changeset (SQLite code \(code))") }
    return Changeset(output.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? [])
  }

  /// The changesets as one, each table's rows together (SQLite's changegroup), for changesets that
  /// touch different rows: their order then changes nothing, and one application of the whole
  /// prepares each table's statements once.
  public static func grouped(_ changesets: [Changeset]) throws -> Changeset {
    if changesets.count == 1 { return changesets[0] }
    var group: OpaquePointer?
    guard sqlite3changegroup_new(&group) == SQLITE_OK, let group else {
      throw ChangesetError("cannot group changesets")
    }
    defer { sqlite3changegroup_delete(group) }
    for changeset in changesets where !changeset.isEmpty {
      var bytes = changeset.bytes
      let code = bytes.withUnsafeMutableBytes { sqlite3changegroup_add(group, Int32($0.count), $0.baseAddress) }
      guard code == SQLITE_OK else { throw ChangesetError("cannot group changesets (SQLite code \(code))") }
    }
    var count: Int32 = 0
    var output: UnsafeMutableRawPointer?
    let code = sqlite3changegroup_output(group, &count, &output)
    defer { sqlite3_free(output) }
    guard code == SQLITE_OK else { throw ChangesetError("cannot group changesets (SQLite code \(code))") }
    return Changeset(output.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? [])
  }

  /// The rowids of the rows inserted or updated, per table, for tables keyed by one integer column
  /// (only those columns are read: a large import's changeset is walked without its values).
  public func rowids() throws -> [String: [Int64]] {
    guard !bytes.isEmpty else { return [:] }
    var copy = bytes
    return try copy.withUnsafeMutableBytes { buffer in
      var iterator: OpaquePointer?
      guard sqlite3changeset_start(&iterator, Int32(buffer.count), buffer.baseAddress) == SQLITE_OK, let iterator
      else { throw ChangesetError("the changeset is damaged") }
      defer { sqlite3changeset_finalize(iterator) }
      var rows: [String: [Int64]] = [:]
      while sqlite3changeset_next(iterator) == SQLITE_ROW {
        var name: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var code: Int32 = 0
        var indirect: Int32 = 0
        guard sqlite3changeset_op(iterator, &name, &columns, &code, &indirect) == SQLITE_OK, let name,
          code != SQLITE_DELETE
        else { continue }
        var keyFlags: UnsafeMutablePointer<UInt8>?
        var keyColumns: Int32 = 0
        _ = sqlite3changeset_pk(iterator, &keyFlags, &keyColumns)
        guard let keyFlags, let column = (0..<columns).first(where: { keyFlags[Int($0)] != 0 }) else { continue }
        var value: OpaquePointer?
        // An update's key is among its old values; an insert's among its new ones.
        let read =
          code == SQLITE_INSERT
          ? sqlite3changeset_new(iterator, column, &value) : sqlite3changeset_old(iterator, column, &value)
        guard read == SQLITE_OK, let value, sqlite3_value_type(value) == SQLITE_INTEGER else { continue }
        rows[String(cString: name), default: []].append(sqlite3_value_int64(value))
      }
      return rows
    }
  }

  /// Every change, in the changeset's order; a damaged changeset is an error (its layout checked
  /// before SQLite reads it: `ChangesetFormat`).
  public func changes() throws -> [Change] {
    guard !bytes.isEmpty else { return [] }
    if let problem = ChangesetFormat.problem(bytes) { throw ChangesetError("the changeset is damaged: \(problem)") }
    var copy = bytes
    return try copy.withUnsafeMutableBytes { buffer in
      var iterator: OpaquePointer?
      guard sqlite3changeset_start(&iterator, Int32(buffer.count), buffer.baseAddress) == SQLITE_OK, let iterator
      else { throw ChangesetError("the changeset is damaged") }
      var finished = false
      defer { if !finished { sqlite3changeset_finalize(iterator) } }
      var changes: [Change] = []
      var code = sqlite3changeset_next(iterator)
      while code == SQLITE_ROW {
        changes.append(try Change(iterator, conflicting: false))
        code = sqlite3changeset_next(iterator)
      }
      finished = true
      guard sqlite3changeset_finalize(iterator) == SQLITE_OK, code == SQLITE_DONE else {
        throw ChangesetError("the changeset is damaged")
      }
      return changes
    }
  }
}

public struct ChangesetError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// One row's change in a changeset.
public struct Change: Sendable, Equatable {
  public enum Operation: Sendable, Equatable { case insert, update, delete }

  public let table: String
  public let operation: Operation
  /// Per column: whether it is part of the primary key.
  public let primaryKey: [Bool]
  /// Per column, for an update or delete: the value it had; nil where an update left it alone.
  public let old: [DatabaseValue?]
  /// Per column, for an insert or update: the value it gets; nil where an update left it alone.
  public let new: [DatabaseValue?]
  /// For a conflict: the row as it is in the database.
  public let current: [DatabaseValue?]

  /// The change `iterator` points at (and, when it is a conflict's, the row it met).
  init(_ iterator: OpaquePointer, conflicting: Bool) throws {
    var name: UnsafePointer<CChar>?
    var columns: Int32 = 0
    var code: Int32 = 0
    var indirect: Int32 = 0
    guard sqlite3changeset_op(iterator, &name, &columns, &code, &indirect) == SQLITE_OK, let name else {
      throw ChangesetError("the changeset is damaged")
    }
    table = String(cString: name)
    operation = code == SQLITE_INSERT ? .insert : code == SQLITE_UPDATE ? .update : .delete
    var keyFlags: UnsafeMutablePointer<UInt8>?
    var keyColumns: Int32 = 0
    _ = sqlite3changeset_pk(iterator, &keyFlags, &keyColumns)
    primaryKey = (0..<Int(columns)).map { index in keyFlags.map { $0[index] != 0 } ?? false }
    func values(_ read: (OpaquePointer, Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32) -> [DatabaseValue?] {
      (0..<columns).map { column in
        var value: OpaquePointer?
        guard read(iterator, column, &value) == SQLITE_OK, let value else { return nil }
        return Self.databaseValue(value)
      }
    }
    let none = [DatabaseValue?](repeating: nil, count: Int(columns))
    old = operation == .insert ? none : values { sqlite3changeset_old($0, $1, $2) }
    new = operation == .delete ? none : values { sqlite3changeset_new($0, $1, $2) }
    current = conflicting ? values { sqlite3changeset_conflict($0, $1, $2) } : none
  }

  static func databaseValue(_ value: OpaquePointer) -> DatabaseValue {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return sqlite3_value_int64(value).databaseValue
    case SQLITE_FLOAT: return sqlite3_value_double(value).databaseValue
    case SQLITE_TEXT:
      // The text first, then its length (SQLite's order: the length is of the text as converted).
      guard let text = sqlite3_value_text(value) else { return "".databaseValue }
      let count = Int(sqlite3_value_bytes(value))
      return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      guard count > 0, let blob = sqlite3_value_blob(value) else { return Data().databaseValue }
      return Data(bytes: blob, count: count).databaseValue
    default: return .null
    }
  }

  /// The primary key's values, in column order.
  public var key: [DatabaseValue] {
    let values = operation == .insert ? new : old
    return zip(primaryKey, values).compactMap { isKey, value in isKey ? (value ?? .null) : nil }
  }
}
