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

  /// The rowids of the rows inserted or updated, per table, for tables keyed by one integer column.
  public func rowids() throws -> [String: [Int64]] {
    var rows: [String: [Int64]] = [:]
    for row in try changedRows() where row.operation != .delete && row.key.count == 1 {
      if case .int64(let rowid) = row.key[0].storage { rows[row.table, default: []].append(rowid) }
    }
    return rows
  }

  /// Every change's table, operation and primary key, in the changeset's order, without its other
  /// values (a base of a million rows is walked without them); a damaged changeset is an error.
  public func changedRows() throws -> [ChangedRow] {
    var rows: [ChangedRow] = []
    // One String per run of a table's rows, not per row (SQLite may reuse the name's memory).
    var last: (bytes: [CChar], name: String)?
    try forEachChange { iterator in
      let header = try ChangeHeader(iterator)
      let table: String
      if let last, strcmp(last.bytes, header.name) == 0 {
        table = last.name
      } else {
        table = String(cString: header.name)
        last = (Array(UnsafeBufferPointer(start: header.name, count: strlen(header.name) + 1)), table)
      }
      var key: [DatabaseValue] = []
      for column in 0..<header.columns where header.isKey(column) {
        var value: OpaquePointer?
        // An insert's key is among its new values; an update's and a delete's among its old ones.
        let read =
          header.operation == .insert
          ? sqlite3changeset_new(iterator, column, &value) : sqlite3changeset_old(iterator, column, &value)
        key.append(read == SQLITE_OK && value != nil ? Change.databaseValue(value!) : .null)
      }
      rows.append(ChangedRow(table: table, operation: header.operation, key: key))
    }
    return rows
  }

  /// Every change, in the changeset's order; a damaged changeset is an error (its layout checked
  /// before SQLite reads it: `ChangesetFormat`).
  public func changes() throws -> [Change] {
    var changes: [Change] = []
    try forEachChange { changes.append(try Change($0, conflicting: false)) }
    return changes
  }

  /// Calls `body` with SQLite's iterator at each change, in order, after checking the layout
  /// (`ChangesetFormat`: SQLite's reader never returns from some damaged changesets).
  private func forEachChange(_ body: (OpaquePointer) throws -> Void) throws {
    guard !bytes.isEmpty else { return }
    if let problem = ChangesetFormat.problem(bytes) { throw ChangesetError("the changeset is damaged: \(problem)") }
    var copy = bytes
    try copy.withUnsafeMutableBytes { buffer in
      var iterator: OpaquePointer?
      guard sqlite3changeset_start(&iterator, Int32(buffer.count), buffer.baseAddress) == SQLITE_OK, let iterator
      else { throw ChangesetError("the changeset is damaged") }
      var finished = false
      defer { if !finished { sqlite3changeset_finalize(iterator) } }
      var code = sqlite3changeset_next(iterator)
      while code == SQLITE_ROW {
        try body(iterator)
        code = sqlite3changeset_next(iterator)
      }
      finished = true
      guard sqlite3changeset_finalize(iterator) == SQLITE_OK, code == SQLITE_DONE else {
        throw ChangesetError("the changeset is damaged")
      }
    }
  }
}

public struct ChangesetError: Error, CustomStringConvertible {
  public let description: String
  /// A change that did not meet the rows it expected (an exact application's conflict), rather than
  /// a damaged changeset or a failing database.
  public let isConflict: Bool
  /// A whole file none of the identities given opens: encrypted to another key, not damaged.
  public let isOtherIdentity: Bool
  public init(_ description: String, isConflict: Bool = false, isOtherIdentity: Bool = false) {
    self.description = description
    self.isConflict = isConflict
    self.isOtherIdentity = isOtherIdentity
  }
}

/// What SQLite says of the change an iterator points at, before its values: its table (valid until
/// the iterator moves), column count, operation and which columns form the primary key.
struct ChangeHeader {
  let name: UnsafePointer<CChar>
  let columns: Int32
  let operation: Change.Operation
  private let keyFlags: UnsafeMutablePointer<UInt8>?

  init(_ iterator: OpaquePointer) throws {
    var name: UnsafePointer<CChar>?
    var columns: Int32 = 0
    var code: Int32 = 0
    var indirect: Int32 = 0
    guard sqlite3changeset_op(iterator, &name, &columns, &code, &indirect) == SQLITE_OK, let name else {
      throw ChangesetError("the changeset is damaged")
    }
    self.name = name
    self.columns = columns
    operation = code == SQLITE_INSERT ? .insert : code == SQLITE_UPDATE ? .update : .delete
    var keyFlags: UnsafeMutablePointer<UInt8>?
    var keyColumns: Int32 = 0
    _ = sqlite3changeset_pk(iterator, &keyFlags, &keyColumns)
    self.keyFlags = keyFlags
  }

  func isKey(_ column: Int32) -> Bool { keyFlags.map { $0[Int(column)] != 0 } ?? false }
}

/// One row a changeset changes: its table, what is done to it, its primary key.
public struct ChangedRow: Sendable, Hashable {
  public let table: String
  public let operation: Change.Operation
  public let key: [DatabaseValue]
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
    let header = try ChangeHeader(iterator)
    let columns = header.columns
    table = String(cString: header.name)
    operation = header.operation
    primaryKey = (0..<columns).map(header.isKey)
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
