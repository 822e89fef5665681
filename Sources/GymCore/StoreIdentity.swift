import GRDB

/// A database's own identity: 128 random bits, made once, when the migration first runs on it (a
/// new database, or one made before it). Every export's manifest carries it (`store`), so that
/// thinning a directory or a remote that another database's exports share judges only this one's.
/// It is not exported: an import makes a new database, which has an identity of its own.
public enum StoreIdentity {
  static let migration = Migration(
    "sync/004-store-identity", .additive,
    sql: """
      CREATE TABLE store_identity (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        id TEXT NOT NULL CHECK (length(id) = 32 AND id NOT GLOB '*[^0-9a-f]*')
      );
      INSERT INTO store_identity (only, id) VALUES (1, lower(hex(randomblob(16))));
      """)

  /// The identity, 32 lowercase hexadecimal digits; nil in a database the migration has not reached.
  public static func id(_ db: Database) throws -> String? {
    guard try db.tableExists("store_identity") else { return nil }
    return try String.fetchOne(db, sql: "SELECT id FROM store_identity WHERE only = 1")
  }
}
