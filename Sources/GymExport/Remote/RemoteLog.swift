import Foundation
import GymCore

/// What happened to each export's copy to a remote, kept beside the exports in
/// `.gym-remote.json`, so `export status` can say so and a later run retries the ones that failed.
struct RemoteLog: Codable, Sendable {
  struct Copy: Codable, Equatable, Sendable {
    var remote: String
    /// `copying` (begun and not finished: cut short if no copy is running), `copied` or `failed`.
    var state: String
    var tries: Int
    var at: String
    /// rclone's last message, when it failed.
    var error: String?
  }

  static let fileName = ".gym-remote.json"
  var copies: [String: Copy] = [:]

  static func read(in directory: String) -> RemoteLog {
    guard let data = FileManager.default.contents(atPath: directory + "/" + fileName),
      let log = try? JSONDecoder().decode(RemoteLog.self, from: data)
    else { return RemoteLog() }
    return log
  }

  /// Written to a temporary name and renamed: a reader sees the old log or the new one.
  func write(in directory: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return }
    try? data.write(to: URL(fileURLWithPath: directory + "/" + Self.fileName), options: .atomic)
  }

  /// The column `export status` shows: nil when the export was never to be copied.
  /// Exports whose copy has not been made yet: local thinning keeps them until it is.
  var pending: Set<String> { Set(copies.filter { $0.value.state != "copied" }.keys) }

  func summary(of name: String) -> String? {
    guard let copy = copies[name] else { return nil }
    if copy.state == "copied" { return "copied to \(copy.remote)" }
    if copy.state == "copying" { return "copy to \(copy.remote) begun \(copy.at), not finished" }
    return "failed (\(copy.tries) tr\(copy.tries == 1 ? "y" : "ies")) to \(copy.remote): \(copy.error ?? "")"
  }
}
