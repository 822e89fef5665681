import GymCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gym foo …` for a command gym does not have: runs `gym-foo` from PATH (as git, cargo and
/// kubectl do) with the effective database path in `GYM_DATABASE` (a `--database` or `--config` on
/// the line included, which the command also receives), or suggests the nearest command.
enum ExternalCommand {
  static func dispatchIfExternal(_ arguments: [String], known: [String]) {
    guard let name = arguments.first, !name.hasPrefix("-"), !known.contains(name) else { return }
    guard let executable = find("gym-" + name) else {
      let hint = Suggestions.nearest(to: name, in: known).first.map { "; did you mean '\($0)'?" } ?? ""
      printError(ErrorReporting.oneLine("gym: error: unknown command '\(name)'\(hint) (see 'gym --help')"))
      exit(ExitStatus.usage.rawValue)
    }
    do {
      // The plugin runs under the same zone (TZ) as gym would.
      let context = try CommandContext.forRunningCommand(try GlobalOptions.named(in: Array(arguments.dropFirst())))
      setenv("GYM_DATABASE", context.databasePath, 1)
    } catch {
      let (status, message) = ErrorReporting.classify(error)
      printError(ErrorReporting.oneLine("gym: error: \(message)"))
      exit(status.rawValue)
    }
    let argv = ([executable] + arguments.dropFirst()).map { strdup($0) } + [nil]
    execv(executable, argv)
    printError(ErrorReporting.oneLine("gym: error: cannot run '\(executable)': \(String(cString: strerror(errno)))"))
    exit(ExitStatus.failure.rawValue)
  }

  static func find(_ program: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}
