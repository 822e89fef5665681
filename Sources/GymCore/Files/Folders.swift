import Foundation

/// The folders a new file's path needs: found before it is made, removed again while empty when what
/// made them failed (a failed import, a command that made a database and then failed).
public enum Folders {
  /// The folders of `path` not there yet, deepest first.
  public static func missing(above path: String) -> [String] {
    var missing: [String] = []
    var ancestor = (path as NSString).deletingLastPathComponent
    while !ancestor.isEmpty && ancestor != "/" && access(ancestor, F_OK) != 0 {
      missing.append(ancestor)
      ancestor = (ancestor as NSString).deletingLastPathComponent
    }
    return missing
  }

  /// Each of `folders`, deepest first, removed while it is empty: another command's files stay.
  public static func removeWhileEmpty(_ folders: [String]) {
    for folder in folders { rmdir(folder) }
  }
}
