import ArgumentParser
import Foundation
import GRDB
import GymCLI
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gym doctor`: looks at everything gym depends on — the configuration, the database file and its
/// write-ahead log, an interrupted restore, the schema, the backups, the export directory — without
/// changing any of it, and says what to do about each problem. Exit 1 when there is a problem.
public struct DoctorCommand: GymCommand {
  public static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check the database, its schema and backups, the configuration and the exports; say what to fix.",
    discussion: HelpExamples.discussion(
      "Nothing is changed. Exit 0 when nothing needs doing (notes may remain), 1 when something does.",
      examples: [
        "gym doctor",
        "gym doctor -f json",
      ]))

  @OptionGroup(title: "Common options") public var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions

  public init() {}

  enum Result: String { case ok, note, problem }

  struct Finding {
    let check: String
    let result: Result
    let detail: String
  }

  public func run(context: CommandContext) throws {
    let findings = Self.examine(context)
    let writer = RecordWriter(format: context.format(formatting), columns: ["check", "result", "detail"])
    for finding in findings {
      writer.write([.text(finding.check), .text(finding.result.rawValue), .text(finding.detail)])
    }
    writer.finish(next: nil)
    let problems = findings.filter { $0.result == .problem }
    if !problems.isEmpty {
      throw GymError(
        .failure, "doctor found \(problems.count) problem(s): \(problems.map(\.check).joined(separator: ", "))")
    }
  }

  /// What in the export's settings would make every export, scheduled or not, fail: recipients
  /// that hold no usable key, a remote rclone cannot be handed. Read as `export create` reads them.
  static func exportSettingsProblem(_ context: CommandContext) -> String? {
    if let configured = context.configuration.string(.exportRecipients) {
      do { _ = try AgeRecipient.file(configured) } catch let error as AgeError {
        return
          "export.recipients: \(error.description); every export that names no key of its own would be refused "
          + "(fix it with 'gym config show')"
      } catch { return "export.recipients: \(error)" }
    }
    if let remote = context.configuration.string(.exportRemote), let problem = Rclone.problem(with: remote) {
      return "export.remote \(problem); every copy would be refused"
    }
    return nil
  }

  /// Two names of one file (a hard link).
  static func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev
      && first.st_ino == second.st_ino
  }

  static func examine(_ context: CommandContext) -> [Finding] {
    var findings: [Finding] = []
    let file = context.configuration.file
    findings.append(Finding(check: "configuration", result: .ok, detail: file.map { "read \($0)" } ?? "defaults"))
    if let problem = exportSettingsProblem(context) {
      findings.append(Finding(check: "export settings", result: .problem, detail: problem))
    }
    // Through a symbolic link, the files beside the database it names (where a restore leaves them).
    let path = Backup.resolvedLink(context.databasePath)
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let siblings = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    // Oldest first by their time: `…T083022Z` before `…T083022.074Z`, a second restore in that second.
    let replaced = siblings.filter {
      $0.hasPrefix(name + ".replaced-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
    }.sorted { $0.replacingOccurrences(of: "Z", with: "") < $1.replacingOccurrences(of: "Z", with: "") }
    func inFolder(_ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }
    if access(path + ".restoring", F_OK) == 0 && access(path, F_OK) == 0 {
      // Cut short before it replaced anything: the database is as it was, the copy is left over, and
      // perhaps the second name the restore had just given the database (the same file).
      let links = replaced.map(inFolder).filter { Self.isSameFile($0, path) }
      findings.append(
        Finding(
          check: "restore", result: .problem,
          detail: "'\(path).restoring' is a restore cut short before it replaced the database, which is as it was: "
            + (links.isEmpty
              ? "remove it with 'rm \(ShellWord.plainOrQuoted(path + ".restoring"))'"
              : "remove it and the database's second name with 'rm "
                + ([path + ".restoring"] + links).map(ShellWord.plainOrQuoted).joined(separator: " ") + "'")
            + ", or run the restore again"))
    } else if access(path + ".restoring", F_OK) == 0 {
      findings.append(
        Finding(
          check: "restore", result: .problem,
          detail: "'\(path).restoring' is a restore that was interrupted: finish it with 'mv "
            + "\(ShellWord.plainOrQuoted(path + ".restoring")) \(ShellWord.plainOrQuoted(path))'"
            + (replaced.last.map { ", or undo it by moving \(inFolder($0)) back" } ?? "")))
    } else if let left = Backup.abandonedCopies(of: path).first {
      findings.append(
        Finding(
          check: "restore", result: .problem,
          detail: "'\(left)' is the copy of a restore that was stopped before it replaced anything (the database "
            + "is as it was): remove it with 'rm \(ShellWord.plainOrQuoted(left))', or run the restore again"))
    } else if let last = replaced.last {
      findings.append(
        Finding(check: "restore", result: .note, detail: "the database before a restore is kept as \(inFolder(last))"))
    }
    guard access(path, F_OK) == 0 else {
      findings.append(
        Finding(
          check: "database", result: .problem,
          detail: "no database at '\(path)': add or import something to create it, or set --database / database.path"))
      findings.append(exportsFinding(context))
      return findings
    }
    findings.append(
      contentsOf: databaseFindings(
        path, busyTimeoutMilliseconds: context.configuration.storeOptions.busyTimeoutMilliseconds))
    let backups = Backup.list(of: path)
    findings.append(
      Finding(
        check: "backups", result: .ok,
        detail: backups.isEmpty
          ? "none yet (one is made before every migration)"
          : "\(backups.count), newest \(backups.last!.path) (schema v\(backups.last!.version))"))
    findings.append(exportsFinding(context))
    return findings
  }

  /// Numbers no import accepts — text in a number column, a value outside its field's bounds (a
  /// 9.3e18-minute workout) — written by another program's hand: readers leave them out or report
  /// their totals, and this names where they are. One scan of each number column.
  static func valuesFinding(_ db: Database) throws -> Finding {
    var found: [String] = []
    for table in ModuleRegistry.modules.flatMap(\.tables) {
      for field in table.fields where field.type == .integer || field.type == .real {
        let column = SQL.quote(field.name)
        var condition = "typeof(\(column)) NOT IN ('integer', 'real', 'null')"
        var arguments: [Double] = []
        if let bounds = field.bounds {
          condition += " OR \(column) < ? OR \(column) > ?"
          arguments = [bounds.lowerBound, bounds.upperBound]
        }
        let from = "FROM \(SQL.quote(table.name)) WHERE \(condition)"
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(from)", arguments: StatementArguments(arguments)) ?? 0
        guard count > 0 else { continue }
        // The record as commands name it (a workout's id, an item's name).
        let first = try DatabaseValue.fetchOne(
          db, sql: "SELECT \(SQL.quote(table.identifier)) \(from) ORDER BY \(table.rowKeySQL) LIMIT 1",
          arguments: StatementArguments(arguments))
        found.append(
          "\(table.name).\(field.name): \(count), the first in \(table.identifier) \(first?.description ?? "?")")
      }
    }
    guard !found.isEmpty else { return Finding(check: "values", result: .ok, detail: "every number within its bounds") }
    return Finding(
      check: "values", result: .problem,
      detail: "numbers no import accepts, written by another program: \(found.joined(separator: "; ")); "
        + "correct them ('set') or remove those records")
  }

  /// Integrity (`integrity_check`, which also compares each index with its table), the write-ahead
  /// log, and the schema against this gym's, read only.
  static func databaseFindings(_ path: String, busyTimeoutMilliseconds: Int) -> [Finding] {
    var findings: [Finding] = []
    // What every command refuses (`/dev/null`, a text file), SQLite would read as an empty database.
    var info = stat()
    let isThere = stat(path, &info) == 0
    if isThere, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
      return [
        Finding(
          check: "database", result: .note,
          detail: "an empty file, no database yet: reads find nothing there (66), and the first command that adds "
            + "records makes it one")
      ]
    }
    if isThere, !Store.isSQLiteFile(path) {
      return [
        Finding(
          check: "database", result: .problem,
          detail:
            "not an SQLite database, and every command refuses it: pass --database with a gym database or a new path")
      ]
    }
    do {
      let reader = try StoreReader(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, ofStore: true)
      defer { reader.close() }
      let (check, applied, indexesOnly, foreign) = try reader.read { db in
        let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        let tables = try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return (
          check, (try? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) ?? [],
          (try? IndexRepair.damagedIndexes(db, check.filter { $0 != "ok" })) != nil,
          tables.isEmpty || tables.contains("grdb_migrations") ? nil : tables
        )
      }
      // Indexes that miss rows of their tables (left by gym 0.1.0's imports into a new database) are
      // made again by `migrate repair`; other damage needs a backup.
      findings.append(
        check == ["ok"]
          ? Finding(check: "integrity", result: .ok, detail: "integrity_check ok")
          : Finding(
            check: "integrity", result: .problem,
            detail: "\(check.first ?? "no answer")"
              + (indexesOnly
                ? ": indexes that no longer match their tables; run 'gym migrate repair'"
                : ": restore the newest backup ('gym migrate backups', 'gym migrate restore PATH') "
                  + "or the newest export ('gym import')")))
      let known = ModuleRegistry.modules.flatMap { $0.migrations.map(\.identifier) }
      let unknown = applied.filter { !known.contains($0) }
      let pending = known.filter { !applied.contains($0) }
      if let foreign {
        findings.append(
          Finding(
            check: "schema", result: .problem,
            detail: "an SQLite database gym did not create (tables \(foreign.prefix(3).joined(separator: ", "))"
              + (foreign.count > 3 ? ", …" : "") + "), which every command refuses: pass --database with a gym "
              + "database or a new path"))
      } else if !unknown.isEmpty {
        findings.append(
          Finding(
            check: "schema", result: .problem,
            detail: "written by a newer gym (\(unknown.joined(separator: ", "))): upgrade gym to use it"))
      } else if !pending.isEmpty {
        findings.append(
          Finding(
            check: "schema", result: .note,
            detail: "\(pending.count) migration(s) pending; the next command applies them, or run 'gym migrate up'"))
      } else {
        findings.append(Finding(check: "schema", result: .ok, detail: "v\(known.count), up to date"))
        findings.append(try reader.read(valuesFinding))
        for check in ModuleRegistry.modules.flatMap(\.doctorChecks) {
          let (ok, detail) = try reader.read(check.run)
          findings.append(Finding(check: check.name, result: ok ? .ok : .note, detail: detail))
        }
      }
    } catch {
      findings.append(
        Finding(check: "integrity", result: .problem, detail: "cannot read it: \(ErrorReporting.classify(error).1)"))
    }
    info = stat()
    if stat(path + "-wal", &info) == 0 && info.st_size > 0 {
      findings.append(
        Finding(
          check: "wal", result: .note,
          detail: "\(info.st_size) bytes not yet in the database file: another process has it open, or one was "
            + "killed; the next gym command that closes it checkpoints them"))
    } else {
      findings.append(Finding(check: "wal", result: .ok, detail: "nothing pending"))
    }
    return findings
  }

  /// The export directory: there, writable, and how old its newest export is.
  static func exportsFinding(_ context: CommandContext) -> Finding {
    let directory = context.exportDirectory
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      return Finding(
        check: "exports", result: .note, detail: "no export directory at '\(directory)' yet: 'gym export' makes one")
    }
    guard access(directory, W_OK) == 0 else {
      return Finding(
        check: "exports", result: .problem,
        detail: "'\(directory)' is not writable: fix its permissions or set export.directory")
    }
    // Another database's export sharing the directory is not this one's backup.
    let owner: ExportOwner
    do { owner = try ExportOwner.of(context) } catch {
      return Finding(
        check: "exports", result: .problem,
        detail: "cannot tell this database's exports from others: \(ErrorReporting.classify(error).1)")
    }
    guard
      let newest = ExportListing.exports(in: directory).last(where: {
        $0.manifest.isComplete() && owner.owns($0.manifest)
      })
    else {
      return Finding(
        check: "exports", result: .note,
        detail:
          "no complete export of this database in '\(directory)' yet: run 'gym export' (without --tables or --modules)")
    }
    // The newest backup is the one a restore would take: damaged, it is a problem now.
    do { try ExportReader(path: newest.path).checkFiles() } catch {
      return Finding(
        check: "exports", result: .problem,
        detail:
          "the newest complete export (\(newest.path)) is damaged (\(ErrorReporting.classify(error).1)): "
          + "run 'gym export'")
    }
    // A backup a week old is one a person is about to miss: said while it is still a note. One whose
    // time cannot be read, or lies ahead (a wrong clock), cannot be said to be recent.
    guard let created = Timestamp(parsing: newest.manifest.created) else {
      return Finding(
        check: "exports", result: .note,
        detail: "the newest complete export (\(newest.path)) has a creation time gym cannot read: run 'gym export'")
    }
    let age = Timestamp.now().millisecondsSince1970 - created.millisecondsSince1970
    if age < -86_400_000 {  // as the samples' check: more than a day ahead
      return Finding(
        check: "exports", result: .note,
        detail:
          "the newest complete export (\(newest.path)) is dated more than a day ahead of now, \(created.canonical): a clock was "
          + "wrong; run 'gym export'")
    }
    if age / 86_400_000 >= 7 {
      return Finding(
        check: "exports", result: .note,
        detail:
          "the newest complete export is \(age / 86_400_000) days old (\(newest.path)): run 'gym export', or keep "
          + "them coming with 'gym export schedule'")
    }
    return Finding(check: "exports", result: .ok, detail: "newest: \(newest.path)")
  }
}
