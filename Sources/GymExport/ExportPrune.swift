import ArgumentParser
import GymCLI
import GymCore

/// `gym export prune --out DIR --keep 3 --keep-daily 7 --keep-weekly 4 --keep-monthly 12 [--dry-run]`:
/// thins the exports in a directory as `export schedule` does after each export.
struct ExportPrune: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "Delete the exports in --out that no --keep rule keeps (restic's semantics); --dry-run lists them.",
    discussion: HelpExamples.discussion(
      """
      Keeps the newest --keep, and the newest export of each of the last --keep-daily days, \
      --keep-weekly weeks and --keep-monthly months that have one (local time). Only gym's exports, \
      recognised by their manifest, are ever deleted, and only this database's (the manifest names \
      it, or no database): another database's exports are left alone. With a remote (--remote or \
      export.remote), the same rules thin the exports there.
      """,
      examples: [
        "gym export prune --out backups --keep 3 --keep-daily 7 --dry-run",
        "gym export prune --out backups --keep 1 --keep-weekly 4 --keep-monthly 12",
        "gym export prune --out backups --keep 7 --remote \"$PWD/offsite\" --dry-run",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Option(help: ArgumentHelp("The exports' directory (default: export.directory).", valueName: "dir")) var out: String?
  @Option(help: "Keep the newest N exports.") var keep = 1
  @OptionGroup var retention: RetentionOptions
  @Flag(help: "List what would be deleted; delete nothing.") var dryRun = false
  @OptionGroup(title: "Remote copies") var remote: RemoteOptions

  func validate() throws {
    if keep < 0 { throw ValidationError("--keep must be 0 or more") }
  }

  func run(context: CommandContext) throws {
    let directory = out ?? context.exportDirectory
    let policy = try retention.policy(last: keep)
    let remote = try remote.remote(context)
    if remote != nil && !policy.keepsAnything {
      throw GymError.usage(
        "these rules keep nothing, and a remote's copies are never thinned to none; give --keep 1 or more, or --no-remote"
      )
    }
    // Only this database's exports are judged: another's may share the directory or the remote.
    let owner = try ExportOwner.of(context)
    let names =
      dryRun
      ? ExportListing.unkept(directory, policy: policy, owner: owner).map(\.name)
      : ExportListing.prune(directory, policy: policy, owner: owner)
    let out = BufferedOutput.standardOutput()
    for name in names { out.write(name + "\n") }
    out.flush()
    printNote(
      "\(dryRun ? "would delete" : "deleted") \(names.count) export\(names.count == 1 ? "" : "s") in '\(directory)'"
        + owner.othersLeftAlone(ExportListing.exports(in: directory).map(\.manifest)))
    guard let remote else { return }
    // The same rules on the remote, which keeps its own exports (some may be gone here).
    let exports = RemoteExports(remote: remote)
    let listed: [RemoteExports.Entry]
    let gone: [String]
    do {
      listed = try exports.list()
      let unkept = exports.unkept(listed, policy: policy, owner: owner)
      gone = dryRun ? unkept.map(\.name) : try exports.delete(unkept)
    } catch {
      throw GymError(Rclone.status(of: error), "cannot thin \(remote): \(error)")
    }
    for name in gone { out.write(Rclone.join(remote, name) + "\n") }
    out.flush()
    printNote(
      "\(dryRun ? "would delete" : "deleted") \(gone.count) export\(gone.count == 1 ? "" : "s") on \(remote)"
        + owner.othersLeftAlone(listed.compactMap(\.manifest)))
  }
}
