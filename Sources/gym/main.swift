import ArgumentParser
import GymCLI
import GymExport
import GymModules

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The feature modules, from their one list: the store, the cross-cutting commands and the report know them.
ModuleRegistry.register(registeredFeatures)
CompletionsCommand.root = Gym.self
ExportCommand.gymVersion = Gym.configuration.version
VersionCommand.gymVersion = Gym.configuration.version
VersionCommand.gymCommit = GymBuild.commit

// Past a file-size limit (ulimit -f), a write fails with EFBIG — reported, rolled back — instead of
// the default SIGXFSZ killing gym in the middle of it.
signal(SIGXFSZ, SIG_IGN)

if let problem = ArgumentEncoding.problem() {
  printError("gym: error: \(problem)")
  Glibc.exit(ExitStatus.usage.rawValue)
}

let leading: LeadingOptions
do {
  leading = try LeadingOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("gym: error: \(ErrorReporting.joinedLines(Gym.message(for: error))) (see 'gym --help')")
  Glibc.exit(ExitStatus.usage.rawValue)
}
for directory in leading.directories where chdir(directory) != 0 {
  printError(ErrorReporting.oneLine("gym: error: -C '\(directory)': \(String(cString: strerror(errno)))"))
  Glibc.exit(ExitStatus.noInput.rawValue)
}
// `gym --version --verbose` is `gym version`: the long form of the one line.
let arguments =
  Set(leading.arguments) == ["--version", "--verbose"] ? ["version"] : leading.arguments

// `gym help foo` for a command gym does not have is an error with a suggestion, not the top help.
if arguments.first == "help",
  let unknown = CommandSuggestion.unknownWord(in: Array(arguments.dropFirst()), root: Gym.self)
{
  let hint = unknown.nearest.map { "; did you mean '\($0)'?" } ?? ""
  printError(
    ErrorReporting.oneLine(
      "gym: error: '\(unknown.path)' has no command '\(unknown.word)'\(hint) (see '\(unknown.path) --help')"))
  Glibc.exit(ExitStatus.usage.rawValue)
}

do {
  var command = try LeafCommandParsing.parse(Gym.self, arguments)
  // Called by its own name: `run()` on an existential would pick ParsableCommand's synchronous one.
  if let waiting = command as? any AsyncGymCommand {
    try await waiting.runReportingErrors()
  } else {
    try command.run()
  }
} catch let exit as ExitCode {
  // A command's own error: its one line is already on stderr.
  Glibc.exit(exit.rawValue)
} catch {
  // `gym foo …` for a command gym does not have never parses: only then look for `gym-foo`.
  ExternalCommand.dispatchIfExternal(
    arguments, known: Gym.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
  let code = Gym.exitCode(for: error)
  guard code != .success else {  // --help, --version, `gym help …`: own options first
    // Through the checked writer: help that cannot be written (`> /dev/full`) is exit 74, not 0.
    let output = BufferedOutput.standardOutput()
    output.write(HelpLayout.ownOptionsFirst(Gym.fullMessage(for: error)) + "\n")
    output.flush()
    Glibc.exit(0)
  }
  // `gym history lsit`: a word that names no subcommand, below the top level too.
  if let unknown = CommandSuggestion.unknownWord(in: arguments, root: Gym.self), unknown.path != "gym" {
    let hint = unknown.nearest.map { "; did you mean '\($0)'?" } ?? ""
    printError(
      ErrorReporting.oneLine(
        "gym: error: '\(unknown.path)' has no command '\(unknown.word)'\(hint) (see '\(unknown.path) --help')"))
    Glibc.exit(ExitStatus.usage.rawValue)
  }
  // Usage errors in one line, like every other error; the usage itself is one --help away.
  printError(
    "gym: error: \(ErrorReporting.joinedLines(Gym.message(for: error))) (see '\(ErrorReporting.oneLine(commandPath(arguments))) --help')"
  )
  Glibc.exit(code.rawValue)
}

/// `gym history import` for `gym history import x.csv --from strong`: the subcommands named.
func commandPath(_ arguments: [String]) -> String {
  var path = ["gym"]
  var command: any ParsableCommand.Type = Gym.self
  for argument in arguments {
    guard let next = CommandNames.subcommand(of: command, named: argument) else { break }
    path.append(argument)
    command = next
  }
  return path.joined(separator: " ")
}
