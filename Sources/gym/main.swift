import GymCLI
import GymHistory

// The modules the store and the cross-cutting commands know: add a module here, once.
ModuleRegistry.register([historyModule])
CompletionsCommand.root = Gym.self

let known = Gym.configuration.subcommands.map { $0._commandName } + ["help"]
ExternalCommand.dispatchIfExternal(Array(CommandLine.arguments.dropFirst()), known: known)
Gym.main()
