import GymCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gym foo …` for a command gym does not have: runs `gym-foo` from PATH (as git, cargo and
/// kubectl do) with the effective database path in `GYM_DATABASE`, or suggests the nearest command.
enum ExternalCommand {
  static func dispatchIfExternal(_ arguments: [String], known: [String]) {
    guard let name = arguments.first, !name.hasPrefix("-"), !known.contains(name) else { return }
    guard let executable = find("gym-" + name) else {
      let nearest = known.min { distance($0, name) < distance($1, name) }
      let hint = nearest.map { distance($0, name) <= max(2, name.count / 2) ? "; did you mean '\($0)'?" : "" } ?? ""
      printError("gym: error: unknown command '\(name)'\(hint) (see 'gym --help')")
      exit(ExitStatus.usage.rawValue)
    }
    do {
      let context = try CommandContext(try GlobalOptions.parse([]))
      setenv("GYM_DATABASE", context.databasePath, 1)
    } catch {
      let (status, message) = ErrorReporting.classify(error)
      printError("gym: error: \(message)")
      exit(status.rawValue)
    }
    let argv = ([executable] + arguments.dropFirst()).map { strdup($0) } + [nil]
    execv(executable, argv)
    printError("gym: error: cannot run '\(executable)': \(String(cString: strerror(errno)))")
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

  /// Levenshtein distance, for "did you mean".
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
