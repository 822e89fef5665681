import ArgumentParser
import Foundation
import GymCLI
import GymCore

/// `gym export pull REMOTE/EXPORT DIR`: fetches one export from a remote, checked against its
/// manifest, for `gym import DIR`.
struct ExportPull: GymCommand {
  static let configuration = CommandConfiguration(
    commandName: "pull",
    abstract: "Fetch one export from a remote into a new directory, its checksums checked, ready for 'gym import'.",
    discussion: HelpExamples.discussion(
      """
      The export is fetched under a temporary name beside DIR and renamed once every file matches \
      its manifest's size and SHA-256 (which needs no key, even when it is encrypted). A bare export \
      name is looked for on export.remote. Exit 66 when the remote has no such export, 65 when \
      what it holds does not match, 75 when rclone fails (try again).
      """,
      examples: [
        "gym export pull nas:gym/gym-export-20261123T040000.000Z from-nas",
        "gym export pull gym-export-20261123T040000.000Z restored && gym import restored --database restored.sqlite",
      ]))

  @OptionGroup(title: "Common options") var global: GlobalOptions
  @Argument(help: ArgumentHelp("The export on the remote: nas:gym/gym-export-…, or its name on export.remote."))
  var source: String
  @Argument(help: ArgumentHelp("The directory to create for it (it must not exist).", valueName: "dir"))
  var directory: String

  func validate() throws {
    if let problem = Rclone.problem(with: source) {
      throw ValidationError(
        "'\(ErrorReporting.oneLine(source))' \(problem); name an export such as nas:gym/gym-export-…")
    }
  }

  func run(context: CommandContext) throws {
    let remotePath = try resolve(context)
    let name = (remotePath as NSString).lastPathComponent
    guard !FileManager.default.fileExists(atPath: directory) else {
      throw GymError(.cannotCreate, "'\(directory)' exists; name a new directory for the export")
    }
    // Beside the directory, so the rename stays on one file system.
    let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    let slash = trimmed.lastIndex(of: "/")
    let parent = slash.map { String(trimmed[...$0]) } ?? ""
    let base = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    let temporary = parent + "." + base + ".\(getpid()).partial"
    do {
      try fetch(remotePath, into: temporary, parent: parent, base: base)
      let reader = try ExportReader(path: temporary)
      try reader.checkFiles()
      // rclone does not flush what it writes: every file, then the directory, before the rename.
      for file in reader.manifest.files.map(\.name) + [ExportManifest.fileName] {
        do {
          try Durable.sync(temporary + "/" + file)
        } catch {
          throw GymError(.ioError, "cannot write '\(temporary)/\(file)': \(error)")
        }
      }
      Durable.syncDirectory(temporary)
      do {
        try Durable.rename(temporary, to: trimmed)
      } catch {
        throw GymError(.cannotCreate, "cannot put the export at '\(directory)': \(error)")
      }
    } catch {
      // Nothing is left behind, whatever stopped it.
      Directory.remove(temporary)
      guard let error = error as? GymError else { throw error }
      throw GymError(error.status, error.message.replacingOccurrences(of: temporary, with: remotePath))
    }
    let out = BufferedOutput.standardOutput()
    out.write(directory + "\n")
    out.flush()
    printNote("fetched \(name) from \(remotePath) into \(directory); checksums match")
  }

  /// The manifest, then only the files it lists, into `temporary`.
  private func fetch(_ remotePath: String, into temporary: String, parent: String, base: String) throws {
    let rclone = Rclone()
    do {
      // At most one byte past what a manifest may hold: a larger one is refused, never fetched whole.
      let fetched = try rclone.run(
        "cat", [Rclone.join(remotePath, ExportManifest.fileName)],
        flags: ["--head", String(ExportManifest.maximumBytes + 1)])
      guard fetched.count <= ExportManifest.maximumBytes else {
        throw GymError.data(
          "\(remotePath)/\(ExportManifest.fileName) is more than \(ExportManifest.maximumBytes >> 20) MiB: not a gym manifest"
        )
      }
      try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
      guard FileManager.default.createFile(atPath: temporary + "/" + ExportManifest.fileName, contents: fetched) else {
        throw GymError(.cannotCreate, "cannot write in '\(temporary)'")
      }
      guard let manifest = ExportManifest.read(in: temporary), manifest.shapeProblem == nil,
        !manifest.files.contains(where: {
          $0.name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        })
      else {
        throw GymError.data(
          "\(remotePath)/\(ExportManifest.fileName): not a gym export manifest (unreadable or edited)")
      }
      // The list of files to fetch, beside the temporary directory, made new (never through a link).
      let list = parent + "." + base + ".\(getpid()).files"
      let descriptor = open(list, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard descriptor >= 0 else {
        throw GymError(.cannotCreate, "cannot write '\(list)': \(String(cString: strerror(errno)))")
      }
      defer { unlink(list) }
      let names = Array(manifest.files.map { $0.name + "\n" }.joined().utf8)
      do {
        defer { close(descriptor) }
        try FileDescriptorIO.writeAll(descriptor, names)
      } catch {
        throw GymError(.ioError, "cannot write '\(list)': \(error)")
      }
      // `--links`: a symbolic link on a local remote is fetched as a link (`name.rclonelink`), never
      // followed to what it points at; a link that arrives is then refused below.
      try rclone.run(
        "copy", [remotePath, Rclone.local(temporary)], flags: ["--files-from-raw", list, "--no-traverse", "--links"])
      for file in manifest.files {
        var info = stat()
        if lstat(temporary + "/" + file.name, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
          throw GymError.data("\(remotePath)/\(file.name) is not a plain file (a symbolic link?); nothing was fetched")
        }
      }
    } catch let failure as Rclone.Failure {
      if failure.isNotFound {
        throw GymError.noInput(
          "\(remotePath): no export there (no \(ExportManifest.fileName)); see 'gym export status --remote'")
      }
      throw GymError(
        failure.isConfiguration ? .configuration : .temporaryFailure, "cannot fetch \(remotePath): \(failure)")
    }
  }

  /// The full remote path: as given, or a bare export name on export.remote.
  private func resolve(_ context: CommandContext) throws -> String {
    let trimmed = source.hasSuffix("/") ? String(source.dropLast()) : source
    guard trimmed.hasPrefix(ExportJob.prefix) && !trimmed.contains("/") && !trimmed.contains(":") else {
      return trimmed
    }
    guard let remote = try RemoteOptions.configured(context) else {
      throw GymError(
        .configuration, "'\(source)' names no remote and export.remote is not set; write nas:gym/\(source)")
    }
    return Rclone.join(remote, trimmed)
  }
}
