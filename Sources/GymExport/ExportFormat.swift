import ArgumentParser

/// What an export's files hold.
public enum ExportFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// One JSON object per row, one file per table.
  case ndjson
  /// RFC 4180 with a header, one file per table; an empty unquoted field is NULL, `""` is empty text.
  case csv
  /// One consistent SQLite snapshot of the whole database (SQLite's backup API).
  case sqlite
}

public enum ExportCompression: String, CaseIterable, Sendable, ExpressibleByArgument {
  case gzip, none
}
