import Foundation

/// The zone the unit tests read local days and hours in. It is given to the test process
/// (`TZ=UTC`, which `scripts/test.sh` and `make` set), never set by a test: a suite that needs it
/// refuses to run without it, saying how to run it.
public enum TestTimeZone {
  public struct NotUTC: Error, CustomStringConvertible {
    public var description: String {
      "these tests read local days and hours in UTC: run them with TZ=UTC (./scripts/test.sh does)"
    }
  }

  public static func requireUTC() throws {
    guard ProcessInfo.processInfo.environment["TZ"] == "UTC" else { throw NotUTC() }
  }
}
