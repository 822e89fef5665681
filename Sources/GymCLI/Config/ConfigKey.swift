#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A configuration key: its dotted name, type and built-in default. `Config/gym.yaml` documents
/// each one; a test keeps that file and this list in step.
public struct ConfigKey: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case string
    case integer(ClosedRange<Int>)
    case bool
    case choice([String])
    /// A mapping of names to positive numbers (`bench.targets`: workload id → milliseconds).
    case numbers
    /// A list of names, in order (a YAML sequence, or one name; commas in an environment variable).
    case list
    /// An IANA time zone name the system knows (`Europe/Paris`).
    case timeZone

    var displayName: String {
      switch self {
      case .string: "a non-empty string"
      case .integer(let range): "an integer from \(range.lowerBound) to \(range.upperBound)"
      case .bool: "true or false"
      case .choice(let values): "one of " + values.joined(separator: ", ")
      case .numbers: "a mapping of names to positive numbers"
      case .list: "a list of names"
      case .timeZone: "an IANA time zone name such as Europe/Paris"
      }
    }
  }

  public let name: String
  public let kind: Kind
  /// nil: computed at run time (the database path).
  public let defaultValue: String?

  /// `GYM_` and the name in capitals with `_` for `.`: `database.busy_timeout` is
  /// `GYM_DATABASE_BUSY_TIMEOUT`.
  public var environmentName: String {
    // ASCII by construction; done byte by byte, as it runs on every start-up.
    "GYM_"
      + String(
        decoding: name.utf8.map {
          $0 == UInt8(ascii: ".") ? UInt8(ascii: "_") : ($0 >= 97 && $0 <= 122 ? $0 - 32 : $0)
        }, as: UTF8.self)
  }

  public static let databasePath = ConfigKey(name: "database.path", kind: .string, defaultValue: nil)
  public static let busyTimeout = ConfigKey(
    name: "database.busy_timeout", kind: .integer(0...600_000), defaultValue: "5000")
  public static let autoMigrate = ConfigKey(
    name: "database.auto_migrate", kind: .bool, defaultValue: "true")
  public static let keepBackups = ConfigKey(
    name: "database.backups.keep", kind: .integer(1...1000), defaultValue: "5")
  public static let outputFormat = ConfigKey(
    name: "output.format", kind: .choice(OutputFormat.allCases.map(\.rawValue)), defaultValue: "table")
  public static let pageSize = ConfigKey(
    name: "output.page_size", kind: .integer(0...1_000_000), defaultValue: "20")
  /// The chart above a series in the table format; nil: each command's own (a sparkline for a
  /// long series, bars for a short one).
  public static let chart = ConfigKey(
    name: "output.chart", kind: .choice(ChartOptions.Style.allCases.map(\.rawValue)), defaultValue: nil)

  public static let exportDirectory = ConfigKey(name: "export.directory", kind: .string, defaultValue: nil)
  /// age recipients (`age1…`) every export is encrypted to unless the command line names others.
  public static let exportRecipients = ConfigKey(name: "export.recipients", kind: .list, defaultValue: nil)
  /// The rclone remote and path exports are copied to after they are written (`nas:gym`).
  public static let exportRemote = ConfigKey(name: "export.remote", kind: .string, defaultValue: nil)
  /// The rclone remote and path `gym sync` keeps its change files under (`nas:gym`).
  public static let syncRemote = ConfigKey(name: "sync.remote", kind: .string, defaultValue: nil)
  /// The age identity file (`AGE-SECRET-KEY-1…`) every device of a sync shares: change files are
  /// encrypted to its public key and opened with it.
  public static let syncIdentity = ConfigKey(name: "sync.identity", kind: .string, defaultValue: nil)
  /// This device's name on the remote, when sync begins here; nil: a random one.
  public static let syncDevice = ConfigKey(name: "sync.device", kind: .string, defaultValue: nil)
  /// Workload id → target milliseconds; the built-in defaults are the seeds' targets, in each module.
  public static let benchTargets = ConfigKey(name: "bench.targets", kind: .numbers, defaultValue: nil)

  /// The health sources that count first when several record the same moment.
  public static let healthSources = ConfigKey(name: "health.sources", kind: .list, defaultValue: nil)
  /// The zone days and hours follow; nil: the system's (`TZ`).
  public static let timeZone = ConfigKey(name: "time.zone", kind: .timeZone, defaultValue: nil)
  /// The unit weights print in; they are stored in kilograms.
  public static let weightUnit = ConfigKey(name: "units.weight", kind: .choice(["kg", "lb"]), defaultValue: "kg")
  /// Books a year to read, for `library stats`; nil: no goal.
  public static let readingGoal = ConfigKey(name: "library.goal", kind: .integer(1...100_000), defaultValue: nil)

  public static let all: [ConfigKey] = [
    databasePath, busyTimeout, autoMigrate, keepBackups, outputFormat, pageSize, chart, exportDirectory,
    exportRecipients, exportRemote, syncRemote, syncIdentity, syncDevice, benchTargets, healthSources, timeZone,
    weightUnit, readingGoal,
  ]

  /// The value checked against the kind, normalised (`yes` → `true`), or nil when it does not fit.
  func normalise(_ raw: String) -> String? {
    switch kind {
    case .string: return raw.isEmpty ? nil : raw
    case .integer(let range):
      guard let value = Int(raw), range.contains(value) else { return nil }
      return String(value)
    case .bool:
      switch raw.lowercased() {
      case "true", "yes", "on", "1": return "true"
      case "false", "no", "off", "0": return "false"
      default: return nil
      }
    case .choice(let values):
      return values.contains(raw) ? raw : nil
    case .numbers:
      guard let value = Double(raw), value > 0, value.isFinite else { return nil }
      return raw
    case .list:
      let names = raw.split(separator: ",").map {
        String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      }
      .filter { !$0.isEmpty }
      return names.isEmpty || names.contains(where: { $0.contains("\n") }) ? nil : names.joined(separator: "\n")
    case .timeZone:
      return Self.isKnownTimeZone(raw) ? raw : nil
    }
  }

  /// A zone is known when its file is in the system's zone database (what the C library reads), and
  /// is a zone file (`iso3166.tab` there is not).
  static func isKnownTimeZone(_ name: String) -> Bool {
    let allowed = name.utf8.allSatisfy { byte in
      (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
        || [UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+")].contains(byte)
    }
    guard allowed, !name.isEmpty, !name.hasPrefix("/"), !name.contains("..") else { return false }
    let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
    return isZoneFile(directory + "/" + name)
  }

  /// A regular file that opens as the C library's zone files do: with the magic `TZif`.
  static func isZoneFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var magic = [UInt8](repeating: 0, count: 4)
    return read(descriptor, &magic, 4) == 4 && magic == Array("TZif".utf8)
  }
}
