import ArgumentParser

/// How a command writes records to stdout.
public enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  case table, json, ndjson, csv, tsv
}
