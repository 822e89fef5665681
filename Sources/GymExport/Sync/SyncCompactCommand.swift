import ArgumentParser
import Foundation
import GymCLI
import GymCore

/// `gym sync compact`: a base on the remote in place of the changes every device holds.
struct SyncCompact: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact",
    abstract: "Replace the changes every device holds with a base on the remote, for new devices to start from.",
    discussion: HelpExamples.discussion(
      """
      Syncs first, then writes a base (the synced tables as the oldest changes left them, encrypted like \
      a change file) standing for the longest run of the log that every device says it has applied and \
      that no change to come can sort before (none newer than --older-than), and removes the change files it \
      stands for (except each device's newest) and the older bases. A new device starts from the newest \
      base and pulls only what \
      follows. Every device that syncs to the remote must have synced with this gym since its last \
      change before a compaction (exit 75 names one that has not). Nothing new to compact is not an \
      error. See Docs/Sync.md.
      """,
      examples: ["gym sync compact --remote nas:gym --identity sync.key"]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @OptionGroup var sync: SyncOptions
  @Option(
    help: ArgumentHelp(
      "Compact only changes at least this old (15m, 1h, 1d): a device joining meanwhile with its clock behind "
        + "by less sorts its first change after the base.", valueName: "duration"))
  var olderThan = "1h"

  func validate() throws {
    do { _ = try WhereParser.parseSpan(olderThan, option: "--older-than") } catch { throw ValidationError(error) }
  }

  func run(context: CommandContext) throws {
    let job = try SyncRun.job(sync, context)
    let margin = try WhereParser.parseSpan(olderThan, option: "--older-than").seconds
    let report = try SyncCompaction(job: job, margin: margin).run()
    for refusal in report.sync.refused {
      logError(
        "gym: error: refused \(job.remote.path(device: refusal.device, last: refusal.last)): \(refusal.reason)")
    }
    printNote(SyncRun.summary(report.sync))
    if !report.sync.refused.isEmpty {
      throw GymError(.dataError, "\(report.sync.refused.count) change file(s) refused; nothing was compacted")
    }
    printNote(Self.summary(report, remote: job.remote, olderThan: olderThan))
  }

  /// `compacted: …` or `nothing new to compact: …`: one line for a person or a log.
  static func summary(_ report: SyncCompaction.Report, remote: SyncRemote, olderThan: String) -> String {
    guard let base = report.base else {
      let behind =
        report.earliest.map { " (the earliest clock is \($0)'s: it holds back the cut until it syncs)" } ?? ""
      return "nothing new to compact: no run of changes older than \(olderThan) that every device has applied\(behind)"
    }
    let changes = report.covers.values.reduce(0, +)
    var line =
      "compacted: \(remote.basePath(hlc: base)) stands for \(changes) change(s) of \(report.covers.count) "
      + "device(s); removed \(report.removed) file(s)"
    if let failure = report.removalFailure {
      line += "; the files the base stands for were not removed (\(failure)): the next compaction tries again"
    }
    return line
  }
}
