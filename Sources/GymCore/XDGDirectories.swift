import Foundation

/// Where gym's files live by the XDG Base Directory rules: a variable counts only when it holds an
/// absolute path (empty or relative is as if unset), else the default under `$HOME`.
public enum XDGDirectories {
  /// `$XDG_CONFIG_HOME`, or `~/.config`: gym.yaml and muscles.yaml are in its `gym/`.
  public static func configHome(_ environment: [String: String]) -> String {
    absolute(environment["XDG_CONFIG_HOME"]) ?? home(environment) + "/.config"
  }

  /// `$XDG_DATA_HOME`, or `~/.local/share`: the database is in its `gym/`.
  public static func dataHome(_ environment: [String: String]) -> String {
    absolute(environment["XDG_DATA_HOME"]) ?? home(environment) + "/.local/share"
  }

  static func absolute(_ value: String?) -> String? {
    guard let value, value.hasPrefix("/") else { return nil }
    return value
  }

  static func home(_ environment: [String: String]) -> String { environment["HOME"] ?? NSHomeDirectory() }
}
