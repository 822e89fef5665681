import ArgumentParser
import Foundation
import GRDB
import GymCLI
import GymCore
import ServiceLifecycle

/// `gym sync`: this database and the others that sync to the same remote, made the same.
public struct SyncCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract:
      "Share the pantry, the library and history between devices: push this one's changes, pull and merge the others'.",
    discussion: HelpExamples.discussion(
      """
      Every device that syncs through one rclone remote, with one age identity, ends with the same \
      pantry (items, recipes, stock, cookings and takings), library (works, authors, editions, \
      entries, readings, goals) and history (workouts and their sets, health samples and their sources, \
      exercise renames). See Docs/Sync.md for the merge rules.
      """,
      examples: [
        "gym sync --remote nas:gym --identity sync.key",
        "gym sync status",
      ]),
    subcommands: [SyncRun.self, SyncStatus.self, SyncCompact.self, SyncSchedule.self], defaultSubcommand: SyncRun.self)

  public init() {}
}

/// `--remote REMOTE` and `--identity FILE`, or `sync.remote` and `sync.identity`.
struct SyncOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The rclone remote and path to sync through (default: sync.remote), such as nas:gym.", valueName: "remote"))
  var remote: String?
  @Option(
    help: ArgumentHelp(
      "The age identity file every device shares (default: sync.identity): change files are encrypted to it.",
      valueName: "file"))
  var identity: String?

  func validate() throws { try Self.check(remote) }

  /// A `--remote` that rclone would misread is a usage error (64) before anything runs.
  static func check(_ remote: String?) throws {
    if let remote, let problem = Rclone.problem(with: remote) {
      throw ValidationError(
        "--remote '\(ErrorReporting.oneLine(remote))' \(problem); write an rclone remote such as nas:gym")
    }
  }

  func remote(_ context: CommandContext) throws -> SyncRemote { try Self.remote(remote, context) }

  /// `given`, else `sync.remote`, checked: none is 78.
  static func remote(_ given: String?, _ context: CommandContext) throws -> SyncRemote {
    guard let remote = given ?? context.configuration.string(.syncRemote) else {
      throw GymError(
        .configuration,
        "no remote to sync through: pass --remote or set sync.remote (gym config set sync.remote nas:gym)")
    }
    if let problem = Rclone.problem(with: remote) {
      throw GymError(
        .configuration,
        "sync.remote '\(ErrorReporting.oneLine(remote))' \(problem); set an rclone remote such as nas:gym")
    }
    return SyncRemote(remote: remote)
  }

  /// The identities in the file; none given or none readable is an error: nothing leaves unencrypted.
  func identities(_ context: CommandContext) throws -> [AgeIdentity] {
    guard let path = identity ?? context.configuration.string(.syncIdentity) else {
      throw GymError(
        .configuration,
        "sync encrypts every change: pass --identity FILE or set sync.identity (make one with 'age-keygen -o FILE' "
          + "and copy it to every device)")
    }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw GymError.noInput("cannot read the identity file '\(path)'")
    }
    do {
      let identities = try AgeIdentity.file(text)
      _ = try ChangeFile.recipient(of: identities)
      return identities
    } catch let error as AgeError {
      throw GymError(.configuration, "identity file '\(path)': \(error.description)")
    }
  }
}

struct SyncRun: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Push this device's changes, pull and merge the others' (the default).",
    discussion: HelpExamples.discussion(
      """
      Safe to run from cron or a service: changes pulled from the remote apply in one transaction, and a \
      remote that fails before they are fetched leaves the database as it was (exit 75). A change file \
      that does not open with the identity, or holds something else than its name says, is refused and \
      named (exit 65 at the end); the others still apply. The pantry, the library and history sync; see Docs/Sync.md.
      """,
      examples: [
        "gym sync run --remote nas:gym --identity sync.key",
        "GYM_SYNC_REMOTE=nas:gym GYM_SYNC_IDENTITY=sync.key gym sync run",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var sync: SyncOptions

  /// The job the options and configuration describe: identity and remote checked first (78), then
  /// the store opened (created for a new device).
  static func job(_ sync: SyncOptions, _ context: CommandContext) throws -> SyncJob {
    let identities = try sync.identities(context)
    let remote = try sync.remote(context)
    if let name = context.configuration.string(.syncDevice), let problem = DeviceName.problem(with: name) {
      throw GymError(.configuration, "sync.device '\(ErrorReporting.oneLine(name))' \(problem)")
    }
    return SyncJob(
      store: try context.openStoreForWriting(), remote: remote, identities: identities,
      configuredDevice: context.configuration.string(.syncDevice))
  }

  /// `synced laptop: pulled 3 change(s), pushed 1; …`: one line for a person or a log.
  static func summary(_ report: SyncJob.Report) -> String {
    var summary = "synced \(report.device)" + (report.began ? " (first sync)" : "")
    if let base = report.adopted { summary += " from a base of \(base.changes) change(s)" }
    summary += ": pulled \(report.pulled) change(s), pushed \(report.pushed)"
    if !report.begunLater.isEmpty {
      summary += "; now also syncs \(report.begunLater.joined(separator: ", "))"
    }
    if report.retimed > 0 {
      summary += "; \(report.retimed) of its own given new clock readings after a newer base"
    }
    if report.integration.replayed > 0 {
      summary += "; \(report.integration.replayed) applied again after earlier ones"
    }
    if report.integration.dropped > 0 { summary += "; \(report.integration.dropped) dropped by the merge rules" }
    if let failure = report.markerFailure { summary += "; its applied marker was not written (\(failure))" }
    return summary
  }

  func run(context: CommandContext) throws {
    let job = try Self.job(sync, context)
    let report = try job.run()
    for refusal in report.refused {
      logError(
        "gym: error: refused \(job.remote.path(device: refusal.device, last: refusal.last)): \(refusal.reason)")
    }
    printNote(Self.summary(report))
    if !report.refused.isEmpty {
      throw GymError(.dataError, "\(report.refused.count) change file(s) refused; the others were applied")
    }
  }
}

struct SyncStatus: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "The devices in this database's log, what waits to be pushed and pulled, and the last sync.",
    discussion: HelpExamples.discussion(
      """
      One row per device: the changes of it this database holds, how many of this device's wait to be \
      pushed, and its latest change. With --incoming, the remote (--remote or sync.remote) is listed too \
      (a remote that fails to list is exit 75): how many changes of each device wait to be pulled, \
      devices this database has not heard of included; and, with the identity (--identity or \
      sync.identity; a second rclone call), what each device says it has applied: when it last synced \
      and how many changes on the remote it has yet to apply (left empty, with a note, when that cannot \
      be read; an identity given that cannot be read is an error). Without --incoming, no remote is asked.
      """,
      examples: ["gym sync status", "gym sync status --incoming --remote nas:gym -f json"]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var formatting: FormatOptions
  @Flag(help: "List the remote too: the changes each device has there that this database lacks.")
  var incoming = false
  @OptionGroup var sync: SyncOptions

  func run(context: CommandContext) throws {
    let listing: [String: Set<Int64>]?
    var markers: [String: AppliedMarker] = [:]
    if incoming {
      // An identity given that cannot be read is an error, as for every command given one, before
      // the remote is asked; none given, what each device has applied is left out with a note.
      let given = sync.identity != nil || context.configuration.string(.syncIdentity) != nil
      let identities = given ? try sync.identities(context) : nil
      let remote = try sync.remote(context)
      do { listing = try remote.list().changes } catch let failure as Rclone.Failure {
        throw GymError(
          Rclone.status(of: failure), "listing '\(remote.remote)' failed: \(failure.message) (try again later)")
      }
      // What each device has applied: a note, never a failure, when the remote does not give it.
      do {
        guard let identities else { throw GymError.usage("no identity (--identity or sync.identity)") }
        for (device, bytes) in try remote.downloadMarkers((listing ?? [:]).keys.sorted()) {
          do {
            markers[device] = try AppliedMarker.open(bytes, identities: identities, device: device)
          } catch {
            logNote("gym: \(device)/\(AppliedMarker.fileName) on the remote is left out: \(error)")
          }
        }
      } catch let failure as Rclone.Failure {
        logNote("gym: what each device has applied was not read: \(failure.message)")
      } catch {
        logNote("gym: what each device has applied was not read: \(ErrorReporting.classify(error).1)")
      }
    } else {
      listing = nil
    }
    let store = try context.openStore()
    let (device, rows, held, last, covers) = try store.read {
      db -> (String?, [Row], [String: Set<Int64>], Row?, [String: Int64]) in
      guard let device = try ChangeLog.device(db) else { return (nil, [], [:], nil, [:]) }
      // A base this database started from is no device: the changes it stands for count as held.
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT device, count(*) AS changes, sum(pushed = 0 AND device = ?1) AS pending, max(hlc) AS latest
          FROM sync_change WHERE device != ?2 GROUP BY device ORDER BY device = ?1 DESC, device
          """, arguments: [device, SyncBase.device])
      var held: [String: Set<Int64>] = [:]
      for name in listing?.keys.sorted() ?? [] { held[name] = try ChangeLog.sequences(db, device: name) }
      let last = try Row.fetchOne(
        db, sql: "SELECT at, remote, pulled, pushed, refused FROM sync_run ORDER BY rowid DESC LIMIT 1")
      return (device, rows, held, last, try SyncBase.covers(db))
    }
    if device == nil && listing == nil {
      printNote("sync has not begun on this database; run 'gym sync --remote REMOTE --identity FILE'", isResult: true)
      return
    }
    let writer = RecordWriter(
      format: context.format(formatting),
      columns: ["device", "self", "changes", "pending", "incoming", "synced", "behind", "latest"])
    let formatter = ISO8601DateFormatter()
    func waiting(_ name: String) -> Cell {
      guard let listing else { return .null }
      return .integer(Int64((listing[name] ?? []).subtracting(held[name] ?? []).count))
    }
    // What the device's own marker says: when it last synced, and how much of the remote it lacks.
    func applied(_ name: String) -> [Cell] {
      guard let marker = markers[name], let listing else { return [.null, .null] }
      return [.text(marker.at), .integer(Int64(marker.behind(listing)))]
    }
    var shown = Set<String>()
    if let device, !rows.contains(where: { $0["device"] == device }) {
      writer.write([.text(device), .bool(true), .integer(0), .integer(0), waiting(device)] + applied(device) + [.null])
      shown.insert(device)
    }
    for row in rows {
      let name: String = row["device"]
      shown.insert(name)
      writer.write(
        [
          .text(name), .bool(name == device), .integer((row["changes"] as Int64) + (covers[name] ?? 0)),
          .integer(row["pending"] ?? 0), waiting(name),
        ]
          + applied(name) + [.text(formatter.string(from: HybridClock.date(row["latest"])))])
    }
    // Devices whose changes here are all in the base this database started from.
    for (name, count) in covers.sorted(by: { $0.key < $1.key }) where !shown.contains(name) {
      shown.insert(name)
      writer.write(
        [.text(name), .bool(name == device), .integer(count), .integer(0), waiting(name)] + applied(name) + [.null])
    }
    // Devices only the remote knows of yet.
    for name in (listing?.keys.sorted() ?? []) where !shown.contains(name) {
      writer.write([.text(name), .bool(false), .integer(0), .integer(0), waiting(name)] + applied(name) + [.null])
    }
    writer.finish(next: nil)
    // What status says of the last sync is its result, as its table is.
    if device == nil {
      printNote("sync has not begun on this database; 'gym sync' pulls what waits", isResult: true)
    } else if let last {
      printNote(
        "last sync: \(last["at"] as String) through \(last["remote"] as String): pulled \(last["pulled"] as Int), "
          + "pushed \(last["pushed"] as Int), refused \(last["refused"] as Int)", isResult: true)
    } else {
      printNote("never synced", isResult: true)
    }
  }
}

/// `gym sync schedule --every 15m`: syncs at start and then on the interval until stopped, the
/// compose stack's `sync` service. A sync that fails is logged and tried again on the next one;
/// SIGTERM or SIGINT lets the sync in progress finish, then exits 0.
struct SyncSchedule: AsyncGymCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Sync now and then every interval until stopped (for a service or the compose stack).",
    discussion: HelpExamples.discussion(
      """
      One log line per sync on stderr. A remote that fails is logged and tried again on the next \
      interval; a missing remote or identity stops the schedule at once (78). With --compact-every, \
      the sync at start and the first one after each such span is a compaction (gym sync compact, \
      with its default --older-than): run that on one device only. SIGTERM or SIGINT: the sync in \
      progress finishes, exit 0.
      """,
      examples: ["timeout --preserve-status 3 gym sync schedule --every 1h --remote nas:gym --identity sync.key"]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var sync: SyncOptions
  @Option(help: ArgumentHelp("The interval: 15m, 1h, 90s, 1h30m.", valueName: "duration")) var every: String
  @Option(
    help: ArgumentHelp(
      "Also compact at start and then once every this long (1d, 1w): one device of a remote only.",
      valueName: "duration"))
  var compactEvery: String?

  func validate() throws {
    do {
      _ = try WhereParser.parseSpan(every, option: "--every")
      if let compactEvery { _ = try WhereParser.parseSpan(compactEvery, option: "--compact-every") }
    } catch { throw ValidationError(error) }
  }

  func run() async throws { try await runReportingErrors() }

  func run(context: CommandContext) async throws {
    let job = try SyncRun.job(sync, context)
    let service = SyncService(
      job: job, interval: try WhereParser.parseSpan(every, option: "--every").seconds,
      compactEvery: try compactEvery.map { try WhereParser.parseSpan($0, option: "--compact-every").seconds })
    try await Scheduled.run(service, label: "gym.sync")
  }
}

/// The schedule as a service: sync (or compact, when one is due), log, sleep — until a graceful shutdown.
struct SyncService: Service {
  let job: SyncJob
  let interval: Double
  var compactEvery: Double?

  func run() async throws {
    var compacted: Date?
    while !Task.isShuttingDownGracefully {
      let started = Date()
      do {
        let report: SyncJob.Report
        var compaction: SyncCompaction.Report?
        if let compactEvery, compacted.map({ started.timeIntervalSince($0) >= compactEvery }) ?? true {
          compacted = started
          compaction = try SyncCompaction(job: job).run(now: started)
          report = compaction?.sync ?? SyncJob.Report()
        } else {
          report = try job.run(now: started)
        }
        logNote("\(Timestamp.now().canonical) \(SyncRun.summary(report))")
        for refusal in report.refused {
          logError(
            "\(Timestamp.now().canonical) refused \(job.remote.path(device: refusal.device, last: refusal.last)): "
              + refusal.reason)
        }
        if let compaction, report.refused.isEmpty {
          printNote(
            "\(Timestamp.now().canonical) \(SyncCompact.summary(compaction, remote: job.remote, olderThan: "1h"))")
        }
      } catch {
        logError("\(Timestamp.now().canonical) sync failed: \(ErrorReporting.classify(error).1)")
      }
      guard !Task.isShuttingDownGracefully else { break }
      await Scheduled.wait(interval, since: started)
    }
    printNote("\(Timestamp.now().canonical) sync schedule stopped")
  }
}
