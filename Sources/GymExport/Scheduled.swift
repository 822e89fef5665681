import Foundation
import Logging
import ServiceLifecycle

/// A scheduler's service run until SIGTERM or SIGINT, which let the round in progress finish
/// (swift-service-lifecycle's graceful shutdown): `export schedule` and `sync schedule`.
enum Scheduled {
  static func run(_ service: some Service, label: String) async throws {
    var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .info
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
  }

  /// Sleeps what is left of `interval` since `started`, or until a graceful shutdown.
  static func wait(_ interval: Double, since started: Date) async {
    let wait = max(0, interval - Date().timeIntervalSince(started))
    try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
  }
}
