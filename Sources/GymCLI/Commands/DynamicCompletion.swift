import ArgumentParser
import GRDB
import GymCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A list command's table: what its `--fields` and `--sort` complete.
public protocol ListsTable {
  static var listedTable: TableSchema { get }
}

/// Values the shell completes that only the data knows: ids, names, categories, sample types, and
/// a list's field names. swift-argument-parser's scripts call `gym ---completion …`, which runs
/// these in the gym process; each is one indexed query on the database the command line names
/// (read-only; nothing when there is none), at most `limit` values.
public enum DynamicCompletion {
  public static let limit = 100

  /// Rows of `sql`'s first column, bound to the word being completed (`?1`) and the limit (`?2`).
  /// `sql` must walk an index in its order: completion runs while the user waits.
  public static func values(_ words: [String], sql: String, prefix: String) -> [String] {
    guard let path = databasePath(words), access(path, R_OK) == 0 else { return [] }
    guard let reader = try? StoreReader(path: path, busyTimeoutMilliseconds: 200, ofStore: true) else { return [] }
    // bash and zsh give the word as typed (`Olive\ o`); fish gives it as it reads it.
    let typed = CompletionShell.requesting == .fish ? prefix : ShellWord.unquoted(prefix)
    return candidates((try? reader.read { try String.fetchAll($0, sql: sql, arguments: [typed, limit]) }) ?? [])
  }

  /// Values as the requesting shell's script reads them, inert: a name from the database is data,
  /// never code. bash's script hands them to `compgen -W`, which expands `$(…)`, backticks and
  /// variables in each word, so every value goes single-quoted; zsh's `_describe` reads `:` as the
  /// start of a description, so it is escaped there. fish takes lines as they are. A value with a
  /// control character (a line break, a tab: the scripts' separators) is left out rather than split,
  /// and so is one with a bidirectional override, which would reorder the command line shown.
  /// In bash a value with `$` or a backtick is left out too: readline quotes the completion it
  /// inserts as a file name, and leaves those two as they are, so `$(…)` in a name would run when
  /// the line is entered.
  public static func candidates(_ values: [String], shell: CompletionShell? = CompletionShell.requesting)
    -> [String]
  {
    values.filter { value in
      !value.unicodeScalars.contains {
        $0.value < 32 || String.isTerminalControl($0) || (shell == .bash && ($0 == "$" || $0 == "`"))
      }
    }.map { value in
      switch shell {
      case .bash: ShellWord.quoted(value)
      case .zsh: zshDescribed(value)
      default: value
      }
    }
  }

  /// `\` and `:` escaped for `_describe`, scalar by scalar (a combining mark cannot hide one).
  static func zshDescribed(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
      if scalar == "\\" || scalar == ":" { out += "\\" }
      out.unicodeScalars.append(scalar)
    }
    return out
  }

  /// `(?1 <= column AND column < ?1 || x'F48FBFBF')`: the values starting with `?1`, as an index range.
  public static func prefixRange(_ column: String) -> String {
    "(\(column) >= ?1 AND \(column) < ?1 || char(1114111))"
  }

  /// `--fields id,comp` → `id,completedAt`: the list's fields, completing the last of a comma list.
  @Sendable public static func fields(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    guard let table = listedTable(words) else { return [] }
    let head = prefix.range(of: ",", options: .backwards).map { String(prefix[..<$0.upperBound]) } ?? ""
    let last = prefix.dropFirst(head.count)
    let sign = last.hasPrefix("-") ? "-" : ""
    return candidates(table.fieldNames.filter { $0.hasPrefix(last.dropFirst(sign.count)) }.map { head + sign + $0 })
  }

  /// The database the words name with `--database`, else the configured one.
  static func databasePath(_ words: [String]) -> String? {
    guard let global = try? GlobalOptions.named(in: words) else { return nil }
    return (try? CommandContext(global))?.databasePath
  }

  /// The list command the words run (`gym history list …`), found through the command tree.
  static func listedTable(_ words: [String]) -> TableSchema? {
    var command: any ParsableCommand.Type = CompletionsCommand.root
    for word in words.dropFirst() {
      guard let next = CommandNames.subcommand(of: command, named: word) else { break }
      command = next
    }
    return (command as? any ListsTable.Type)?.listedTable
  }
}
