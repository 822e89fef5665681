import Foundation

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
  public static let kind = "gym-export"

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

  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Reads `manifest.json` in `directory`; nil when there is none or it is not a gym export's.
  public static func read(in directory: String) -> ExportManifest? {
    guard let data = FileManager.default.contents(atPath: directory + "/" + fileName),
      let manifest = try? JSONDecoder().decode(ExportManifest.self, from: data), manifest.kind == kind
    else { return nil }
    return manifest
  }
}
