import Foundation
import GymCLI
import GymCore

/// Whose exports thinning and the checks for a recent backup judge: this database's, whose manifests
/// name its identity (`StoreIdentity`), and those made before manifests named one. Another database's
/// exports in the same directory or on the same remote are never deleted, counted towards a rule,
/// or taken for this one's newest backup.
public struct ExportOwner: Sendable, Equatable {
  /// This database's identity; nil when there is no database at the path, or one no gym with
  /// identities has opened yet: then only exports that name no database are judged.
  public let store: String?

  public init(store: String?) { self.store = store }

  /// Whether `manifest` is one of the exports judged as this database's.
  public func owns(_ manifest: ExportManifest) -> Bool { manifest.store == nil || manifest.store == store }

  /// How many of `manifests` are another database's, as a command's note says it: "" when none is.
  public func othersLeftAlone(_ manifests: [ExportManifest]) -> String {
    let others = manifests.filter { !owns($0) }.count
    guard others > 0 else { return "" }
    return "; left \(others) export\(others == 1 ? "" : "s") of another database alone"
  }

  /// The database at `path`, read as it is: never created, migrated or locked for writing.
  public static func of(database path: String, busyTimeoutMilliseconds: Int) throws -> ExportOwner {
    guard access(path, F_OK) == 0 else { return ExportOwner(store: nil) }
    let reader = try StoreReader(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, ofStore: true)
    defer { reader.close() }
    return ExportOwner(store: try reader.read(StoreIdentity.id))
  }

  /// The command's database (`--database`, `database.path`).
  public static func of(_ context: CommandContext) throws -> ExportOwner {
    try of(
      database: context.databasePath,
      busyTimeoutMilliseconds: context.configuration.storeOptions.busyTimeoutMilliseconds)
  }
}
