import ArgumentParser
import GymCore

/// A feature module as the executable takes it in, from one line of the registered list: what the
/// store needs (migrations, tables, benchmarks, doctor checks), its commands, and its report
/// sections. The command tree and the store's modules come from the same value, so a module's
/// commands never run without its tables.
public struct FeatureModule: Sendable {
  public let module: GymModule
  public let command: any ParsableCommand.Type
  public let report: ReportContribution?

  public init(_ module: GymModule, command: any ParsableCommand.Type, report: ReportContribution? = nil) {
    self.module = module
    self.command = command
    self.report = report
  }
}
