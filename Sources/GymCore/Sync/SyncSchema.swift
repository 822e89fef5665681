/// The tables of `gym sync`, the store's own: this device's name, and the log of every change to a
/// synced table, this device's and those pulled from others, each with its hybrid-clock reading.
public enum SyncSchema {
  static let changeLog = Migration(
    "sync/001-change-log", .additive,
    sql: """
      CREATE TABLE sync_device (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        device TEXT NOT NULL CHECK (length(device) BETWEEN 1 AND 64),
        since TEXT NOT NULL
      );
      CREATE TABLE sync_change (
        id INTEGER PRIMARY KEY,
        device TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq > 0),
        hlc INTEGER NOT NULL CHECK (hlc > 0),
        changeset BLOB NOT NULL,
        effect BLOB,
        pushed INTEGER NOT NULL DEFAULT 0 CHECK (pushed IN (0, 1))
      );
      CREATE UNIQUE INDEX sync_change_origin ON sync_change(device, seq);
      CREATE UNIQUE INDEX sync_change_order ON sync_change(hlc, device, seq);
      CREATE TABLE sync_run (
        at TEXT NOT NULL,
        remote TEXT NOT NULL,
        pulled INTEGER NOT NULL CHECK (pulled >= 0),
        pushed INTEGER NOT NULL CHECK (pushed >= 0),
        refused INTEGER NOT NULL CHECK (refused >= 0)
      );
      """)

  /// What the bases adopted here stand for: per base (the clock reading it is known by, its
  /// number as a change of the device `.base` in the log), the changes 1 through `seq` of each device.
  static let bases = Migration(
    "sync/002-bases", .additive,
    sql: """
      CREATE TABLE sync_base (
        base INTEGER NOT NULL CHECK (base > 0),
        device TEXT NOT NULL CHECK (length(device) BETWEEN 1 AND 64),
        seq INTEGER NOT NULL CHECK (seq > 0),
        PRIMARY KEY (base, device)
      ) WITHOUT ROWID;
      """)
}

extension SyncSchema {
  /// Which tables this device's log has begun recording. A table that syncs from a later gym on
  /// (history's) begins at the next sync: its rows get their keys and become one change, and until
  /// then its writes are neither keyed nor recorded. A log begun before this migration holds the
  /// pantry's and the library's tables, the ones that synced then.
  static let tables = Migration(
    "sync/003-synced-tables", .additive,
    sql: """
      CREATE TABLE sync_table (name TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT INTO sync_table (name)
        SELECT column1 FROM (VALUES ('grocery_item'), ('recipe'), ('recipe_ingredient'), ('item_conversion'),
          ('stock_lot'), ('cooking'), ('stock_use'), ('author'), ('work'), ('work_author'), ('library_entry'),
          ('edition'), ('reading'), ('reading_goal'))
        WHERE EXISTS (SELECT 1 FROM sync_device);
      """)
}

extension SyncSchema {
  /// The public key (`age1…`) of the identity this device syncs with, recorded at its first sync
  /// with this migration: a sync with another identity would push files no other device opens, so
  /// it is refused (`SyncJob`). NULL until then, and on a database that never synced.
  static let deviceRecipient = Migration(
    "sync/005-device-recipient", .additive,
    sql: """
      ALTER TABLE sync_device ADD COLUMN recipient TEXT
        CHECK (recipient IS NULL OR (length(recipient) BETWEEN 5 AND 200 AND recipient GLOB 'age1*'));
      """)
}

/// The store's own tables, registered after every feature module: sync's, and the store's identity
/// (`StoreIdentity`). None is exported (`tables` is empty): a device's records travel as changesets,
/// and an import makes a new database with an identity of its own.
public let syncModule = GymModule(
  name: "sync",
  migrations: [
    SyncSchema.changeLog, SyncSchema.bases, SyncSchema.tables, StoreIdentity.migration, SyncSchema.deviceRecipient,
  ], tables: [])
