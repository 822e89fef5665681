import Foundation
import GymCLI
import GymCore

/// `manifest.json`: what an export holds and how to check it.
public struct ExportManifest: Codable, Equatable, Sendable {
  public struct Table: Codable, Equatable, Sendable {
    public var name: String
    public var module: String
    public var rows: Int
    public var columns: [String]
    /// The table's file (ndjson, csv); nil when the export is one SQLite snapshot.
    public var file: String?
  }

  public struct File: Codable, Equatable, Sendable {
    public var name: String
    public var bytes: Int
    public var sha256: String
  }

  public static let fileName = "manifest.json"

  /// What makes a manifest unusable before any file is opened: a file named by a path rather than
  /// a base name (it could reach outside the export), no table or file at all, a name or table listed twice, a snapshot
  /// export without exactly one file, counts that are negative or overflow when added up.
  public var shapeProblem: String? {
    // Every export holds at least one table's file: one listing none is not an export of anything.
    if tables.isEmpty || files.isEmpty { return "it lists no \(tables.isEmpty ? "tables" : "files")" }
    for file in files {
      if file.name.isEmpty || file.name.contains("/") || file.name.hasPrefix(".") || file.name.contains("\u{0}") {
        return "file '\(file.name)' is not a plain file name"
      }
      if file.bytes < 0 { return "file '\(file.name)' has a negative size" }
    }
    if Set(files.map(\.name)).count != files.count { return "a file is listed twice" }
    if Set(tables.map(\.name)).count != tables.count { return "a table is listed twice" }
    if dataFormat == "sqlite" && files.count != 1 { return "a snapshot export lists \(files.count) files, not one" }
    for table in tables {
      if table.rows < 0 { return "table '\(table.name)' has a negative row count" }
      if let file = table.file, !files.contains(where: { $0.name == file }) {
        return "table '\(table.name)' names file '\(file)', which is not listed"
      }
    }
    if totalRows == nil || totalBytes == nil { return "its row counts or sizes overflow when added up" }
    return nil
  }

  /// Every table's rows and every file's bytes, added up; nil when the sum overflows.
  public var totalRows: Int? { Self.sum(tables.map(\.rows)) }
  public var totalBytes: Int? { Self.sum(files.map(\.bytes)) }

  private static func sum(_ values: [Int]) -> Int? {
    var total = 0
    for value in values {
      let (next, overflow) = total.addingReportingOverflow(value)
      if overflow { return nil }
      total = next
    }
    return total
  }
  public static let kind = "gym-export"
  /// The most a manifest may hold (one of a thousand tables is under 1 MiB): a larger one is not
  /// gym's and is never read into memory.
  public static let maximumBytes = 4 << 20

  public var kind = ExportManifest.kind
  public var version = 1
  public var gymVersion: String
  public var created: String
  public var dataFormat: String
  public var compression: String
  public var level: Int?
  /// The schema migrations applied to the database it was taken from, in order.
  public var schema: [String]
  public var tables: [Table]
  public var files: [File]
  /// `age` when every data file is age-encrypted (age-encryption.org/v1); absent: plain.
  public var encryption: String? = nil
  /// true when `--tables` or `--modules` left tables out: not a backup of everything.
  public var partial: Bool? = nil
  /// The identity of the database it was taken from (`StoreIdentity`); absent in an export made
  /// before manifests named one. Thinning judges only its own database's (`ExportOwner`).
  public var store: String? = nil

  /// Complete: not marked partial, and holding every registered module's tables (an export from
  /// before the mark is judged by its modules).
  public func isComplete(modules: [GymModule] = ModuleRegistry.modules) -> Bool {
    let held = Set(tables.map(\.module))
    // A module without exported tables (sync's change log) has nothing to hold.
    return partial != true && modules.allSatisfy { $0.tables.isEmpty || held.contains($0.name) }
  }

  /// `; a partial export: history only, not a backup of everything` when it is not complete, for the
  /// notes of a restore or a check (one picked as the newest in a directory may be such a one).
  public var partialNote: String {
    guard !isComplete() else { return "" }
    let modules = Set(tables.map(\.module)).sorted()
    return "; a partial export: \(modules.joined(separator: ", ")) only, not a backup of everything"
  }

  /// What retention judges it among: complete exports together; a partial one with those of its tables.
  public func retentionGroup() -> String {
    isComplete() ? "" : "partial:" + tables.map(\.name).sorted().joined(separator: ",")
  }

  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Reads `manifest.json` in `directory`; nil when there is none or it is not a gym export's.
  public static func read(in directory: String) -> ExportManifest? {
    let path = directory + "/" + fileName
    guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
      size <= maximumBytes, let data = FileManager.default.contents(atPath: path),
      let manifest = try? JSONDecoder().decode(ExportManifest.self, from: data), manifest.kind == kind
    else { return nil }
    return manifest
  }
}
