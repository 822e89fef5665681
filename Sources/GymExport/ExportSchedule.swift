import ArgumentParser
import Foundation
import GymCLI
import GymCore
import GymReport
import ServiceLifecycle

/// `gym export schedule --every 24h --keep 14 --out /exports`: exports at start and then on the
/// interval until stopped, keeping the newest `--keep`. SIGTERM or SIGINT lets the export in
/// progress finish, then exits 0 (swift-service-lifecycle's graceful shutdown).
struct ExportSchedule: AsyncGymCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Export now and then every interval until stopped; keep the newest --keep exports.",
    discussion: HelpExamples.discussion(
      """
      One log line per export on stderr. SIGTERM or SIGINT: the export in progress finishes, exit 0. \
      --report writes report.html (the last 12 months of the data, as 'gym report') beside the exports \
      after each one.
      """,
      examples: [
        "timeout --preserve-status 3 gym export schedule --every 1h --out backups",
        "timeout --preserve-status 3 gym export schedule --every 1h --out backups --report",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: ArgumentHelp("The interval: 24h, 30m, 90s, 7d, 1h30m.", valueName: "duration")) var every: String
  @Option(help: "How many exports to keep in --out (only gym's, recognised by their manifest).") var keep = 14
  @OptionGroup var retention: RetentionOptions
  @OptionGroup var export: ExportOptionGroup
  @Flag(help: "After each export, write report.html (the last 12 months of the data) in --out.") var report = false
  @OptionGroup(title: "Remote copies") var remote: RemoteOptions

  func validate() throws {
    do { _ = try WhereParser.parseSpan(every, option: "--every") } catch { throw ValidationError(error) }
    if keep < 1 { throw ValidationError("--keep must be 1 or more") }
  }

  func run() async throws { try await runReportingErrors() }

  func run(context: CommandContext) async throws {
    let store = try context.openStore()
    let configuration = context.configuration
    let contributions = ModuleRegistry.reports
    var makeReport: (@Sendable (Timestamp) -> Report)?
    if report {
      makeReport = { now in
        Report(
          store: store, since: nil, contributions: contributions, configuration: configuration)
      }
    }
    let options = try export.options(context)
    let service = ExportService(
      job: ExportJob(store: store, options: options, gymVersion: ExportCommand.gymVersion),
      interval: try WhereParser.parseSpan(every, option: "--every").seconds, policy: try retention.policy(last: keep),
      owner: ExportOwner(store: try store.read(StoreIdentity.id)), report: makeReport,
      remote: try remote.remote(context).map { RemoteCopy(remote: $0, directory: options.out) })
    try await Scheduled.run(service, label: "gym.export")
  }
}

/// The scheduler as a service: export, prune, log, sleep — until a graceful shutdown.
struct ExportService: Service {
  let job: ExportJob
  let interval: Double
  let policy: RetentionPolicy
  /// Whose exports the policy thins: this database's (another's may share the directory or remote).
  let owner: ExportOwner
  /// The report to write after each export, as of then; nil without `--report`.
  var report: (@Sendable (Timestamp) -> Report)?
  /// Where each export is copied after it is written, and thinned by the same policy; nil: nowhere.
  var remote: RemoteCopy?

  func run() async throws {
    while !Task.isShuttingDownGracefully {
      let started = Date()
      var made: String?
      // A failed export is logged and retried on the next interval: the scheduler keeps going.
      do {
        let (path, manifest) = try job.run(now: started)
        made = (path as NSString).lastPathComponent
        // Copied before the directory is thinned: an export whose copy failed is still here to retry.
        if let remote { copy(made, to: remote) }
        let removed = ExportListing.prune(job.options.out, policy: policy, owner: owner)
        logNote(
          "\(Timestamp.now().canonical) exported \((path as NSString).lastPathComponent): "
            + "\(manifest.totalRows ?? 0) rows, \(manifest.totalBytes ?? 0) bytes "
            + String(format: "in %.2f s", Date().timeIntervalSince(started))
            + (removed.isEmpty ? "" : "; removed \(removed.joined(separator: ", "))"))
      } catch {
        logError("\(Timestamp.now().canonical) export failed: \(ErrorReporting.classify(error).1)")
      }
      if made == nil, let remote { copy(nil, to: remote) }
      if let report {
        // A report that fails is logged like an export, and the scheduler goes on.
        do {
          let written = try report(Timestamp.now()).write(to: job.options.out + "/report.html")
          logNote("\(Timestamp.now().canonical) wrote report.html: \(written)")
        } catch {
          logError("\(Timestamp.now().canonical) report failed: \(ErrorReporting.classify(error).1)")
        }
      }
      guard !Task.isShuttingDownGracefully else { break }
      await Scheduled.wait(interval, since: started)
    }
    logNote("\(Timestamp.now().canonical) export schedule stopped")
  }

  /// Copies the new export (nil when it failed) and every one here whose copy failed before, then
  /// thins the remote by the policy. A failure is logged, and retried next time.
  func copy(_ new: String?, to remote: RemoteCopy) {
    let wanted = remote.failed().filter { $0 != new } + (new.map { [$0] } ?? [])
    var failed = false
    for name in wanted {
      if let failure = remote.copy(name) {
        failed = true
        logError("\(Timestamp.now().canonical) copy of \(name) to \(remote.remote) failed: \(failure)")
      } else {
        logNote("\(Timestamp.now().canonical) copied \(name) to \(remote.remote)")
      }
    }
    guard !failed else { return }
    do {
      let removed = try remote.exports.prune(policy: policy, owner: owner)
      if !removed.isEmpty {
        logNote("\(Timestamp.now().canonical) removed from \(remote.remote): \(removed.joined(separator: ", "))")
      }
    } catch {
      logError("\(Timestamp.now().canonical) thinning \(remote.remote) failed: \(error)")
    }
  }
}

/// `gym export status --out DIR`: the exports there, newest first, with their checks.
struct ExportStatus: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "List the exports in --out: size, rows, and whether their checksums hold.",
    discussion: HelpExamples.discussion(examples: [
      "gym export status --out backups",
      "gym export status --out backups --max-age 26h -f json",
      "gym export status --remote",
    ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: ArgumentHelp("The exports' directory (default: export.directory).", valueName: "dir")) var out: String?
  @Option(
    help: ArgumentHelp(
      "Exit 1 unless the newest complete export is younger than this (a healthcheck).", valueName: "duration"))
  var maxAge: String?
  @Flag(
    help: ArgumentHelp(
      "List the exports on export.remote instead, checking each file's size against its manifest."))
  var remote = false
  @OptionGroup var formatting: FormatOptions
  var format: OutputFormat? { formatting.format }

  func validate() throws {
    if let maxAge {
      do { _ = try WhereParser.parseSpan(maxAge, option: "--max-age") } catch { throw ValidationError(error) }
    }
    if remote && (out != nil || maxAge != nil) {
      throw ValidationError("--remote lists the remote; drop --out and --max-age")
    }
  }

  func run(context: CommandContext) throws {
    if remote { return try listRemote(context) }
    let directory = out ?? context.exportDirectory
    let exports = ExportListing.exports(in: directory).reversed()
    let copies = RemoteLog.read(in: directory)
    var intact: Set<String> = []
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["export", "created", "format", "tables", "rows", "bytes", "state", "remote"])
    for entry in exports {
      var state = "ok"
      do {
        try ExportReader(path: entry.path).checkFiles()
        intact.insert(entry.name)
      } catch {
        state = "damaged: \(ErrorReporting.classify(error).1)"
      }
      writer.write([
        .text(entry.name), .timestamp(entry.manifest.created),
        .text(entry.manifest.dataFormat + (entry.manifest.compression == "gzip" ? "+gzip" : "")),
        .integer(Int64(entry.manifest.tables.count)), entry.rows.map { .integer(Int64($0)) } ?? .null,
        entry.bytes.map { .integer(Int64($0)) } ?? .null,
        .text(state), copies.summary(of: entry.name).map { .text($0) } ?? .null,
      ])
    }
    writer.finish(next: nil)
    guard let maxAge else { return }
    let limit = try WhereParser.parseSpan(maxAge, option: "--max-age").seconds
    // Another database's export sharing the directory is not this one's backup.
    let owner = try ExportOwner.of(context)
    // An export dated in the future (a clock set wrong, an edited manifest) is not a recent one.
    let now = Timestamp.now().millisecondsSince1970
    // Only a complete export is a backup, and only one whose files match its manifest: a partial or
    // damaged one does not answer the healthcheck, nor one dated ahead.
    let credible = exports.compactMap { entry -> Timestamp? in
      guard entry.manifest.isComplete(), owner.owns(entry.manifest), intact.contains(entry.name),
        let created = Timestamp(parsing: entry.manifest.created), created.millisecondsSince1970 <= now + 60_000
      else { return nil }
      return created
    }
    guard let created = credible.first, Double(now - created.millisecondsSince1970) / 1000 <= limit else {
      throw GymError(
        .failure,
        "no complete, intact export of this database in '\(directory)' younger than \(maxAge) "
          + "(and not dated in the future)")
    }
  }

  /// The exports on the remote, newest first; exit 1 when one is damaged or incomplete.
  private func listRemote(_ context: CommandContext) throws {
    guard let remote = try RemoteOptions.configured(context) else {
      throw GymError(.configuration, "no remote: set export.remote in the configuration (or GYM_EXPORT_REMOTE)")
    }
    let exports: [RemoteExports.Entry]
    do { exports = try RemoteExports(remote: remote).list() } catch {
      throw GymError(Rclone.status(of: error), "cannot list \(remote): \(error)")
    }
    let writer = RecordWriter(
      format: format ?? context.configuration.outputFormat,
      columns: ["export", "created", "format", "tables", "rows", "bytes", "state"])
    for entry in exports.reversed() {
      let manifest = entry.manifest
      writer.write([
        .text(entry.name), manifest.map { .timestamp($0.created) } ?? .null,
        manifest.map { .text($0.dataFormat + ($0.compression == "gzip" ? "+gzip" : "")) } ?? .null,
        manifest.map { .integer(Int64($0.tables.count)) } ?? .null,
        manifest?.totalRows.map { .integer(Int64($0)) } ?? .null,
        .integer(Int64(entry.dataBytes)), .text(entry.state),
      ])
    }
    writer.finish(next: nil)
    let bad = exports.filter { $0.state != "ok" }
    if !bad.isEmpty {
      throw GymError(
        .failure,
        "\(bad.count) export\(bad.count == 1 ? "" : "s") on \(remote) not whole: \(bad[0].name): \(bad[0].state)")
    }
  }
}
