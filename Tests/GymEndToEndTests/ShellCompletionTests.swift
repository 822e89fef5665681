import Foundation
import Testing

/// Completion candidates from the database are inert text in bash, zsh and fish. Items, categories,
/// recipes and sample types are named with command substitutions, backticks, `;`, quotes, spaces,
/// glob characters and line breaks; each shell sources gym's own script and completes as a user
/// pressing TAB would (bash: the completion function with COMP_WORDS set; zsh and fish: an
/// interactive shell on a pseudo-terminal, driven by zsh's zpty). Nothing may run, and the
/// candidates must be exactly the names that start with what was typed (a name with a control
/// character is left out: the scripts separate candidates by line).
@Suite(.serialized) struct ShellCompletionTests {
  let gym: GymProcess
  let markers: String

  init() throws {
    gym = try GymProcess()
    markers = gym.directory + "/markers"
    try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)
  }

  /// What follows the first letter of each hostile name; every one would touch a marker file if a
  /// shell evaluated it.
  var hostileSuffixes: [String] {
    [
      "ice$(touch \(markers)/substitution)", "ice`touch \(markers)/backtick`", "ice; touch \(markers)/semicolon",
      "ice 'single' \"double\"", "ice*?[glob]", "ice$HOME ${PATH}", "ice:colon\\back",
      "ice\ntouch \(markers)/newline", "ice\ttab", "ice|touch \(markers)/pipe&",
      // A combining mark joins the quote before it into one Swift character: a quote must still be
      // escaped as the shell sees it, byte by byte.
      "ice'\u{301}$(touch \(markers)/combining)",
    ]
  }

  /// The names a shell may offer: those without a control character, sorted.
  func offered(_ names: [String]) -> [String] {
    names.filter { !$0.unicodeScalars.contains { $0.value < 32 } }.sorted()
  }

  func shell(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var environment = gym.environment
    environment["PATH"] =
      URL(fileURLWithPath: GymProcess.executable).deletingLastPathComponent().path + ":/usr/bin:/bin"
    environment["TERM"] = "dumb"
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: gym.directory)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// bash: the script's function, as readline calls it, with the line typed so far.
  func bash(_ words: [String]) throws -> [String] {
    let script = gym.directory + "/gym.bash"
    // Scalar by scalar: the combining-mark name's quote must be escaped here too.
    func quoted(_ word: String) -> String {
      "'" + word.unicodeScalars.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
    }
    let driver = """
      source '\(script)'
      COMP_WORDS=(\(words.map(quoted).joined(separator: " "))); COMP_CWORD=\(words.count - 1)
      COMP_LINE=\(quoted(words.joined(separator: " "))); COMP_POINT=${#COMP_LINE}
      _gym gym \(quoted(words.last!)) \(quoted(words[words.count - 2]))
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try shell("/bin/bash", ["--norc", "--noprofile", "-c", driver])
    #expect(result.status == 0, "\(result.output)")
    return result.output.split(separator: "\n").map(String.init).sorted()
  }

  /// zsh: an interactive `zsh -f` with compinit; TAB runs complete-word, whose compadd calls are
  /// recorded; Ctrl-X then marks the end.
  func zsh(_ words: [String]) throws -> [String] {
    let out = gym.directory + "/zsh-\(UUID().uuidString)"
    let setup = [
      "PS1=''; autoload -U compinit; compinit -u -D; source \(gym.directory)/_gym",
      "compadd() { local -a found; builtin compadd -O found \"$@\"; print -rl -- \"${found[@]}\" >> \(out); "
        + "builtin compadd \"$@\" }",
      "finished() { print done > \(out).done }; zle -N finished; bindkey '^X' finished; bindkey '^I' complete-word",
    ]
    let driver = """
      zmodload zsh/zpty
      zpty shell zsh -f -i
      \(setup.map { "zpty -w shell \(zshQuoted($0))" }.joined(separator: "\n"))
      zpty -wn shell \(zshQuoted(words.joined(separator: " ") + "\t\u{18}"))
      for i in {1..300}; do [[ -f \(out).done ]] && break; sleep 0.1; done
      zpty -d shell
      [[ -f \(out).done ]] || { print 'no completion within 30 s'; exit 1 }
      """
    let result = try shell("/usr/bin/zsh", ["-f", "-c", driver])
    #expect(result.status == 0, "\(result.output)")
    let found = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    // _describe adds its matches in more than one pass: each candidate once.
    return Set(found.split(separator: "\n").map(String.init)).sorted()
  }

  /// fish: an interactive `fish --no-config`; Ctrl-X runs `complete -C` on the line typed.
  func fish(_ words: [String]) throws -> [String] {
    let out = gym.directory + "/fish-\(UUID().uuidString)"
    let setup =
      "source \(gym.directory)/gym.fish; function dump; complete -C (commandline) > \(out).part; "
      + "mv \(out).part \(out); end; bind \\cx dump"
    let driver = """
      zmodload zsh/zpty
      zpty shell fish --no-config -i
      zpty -w shell \(zshQuoted(setup))
      zpty -wn shell \(zshQuoted(words.joined(separator: " ") + "\u{18}"))
      for i in {1..300}; do [[ -f \(out) ]] && break; sleep 0.1; done
      zpty -d shell
      [[ -f \(out) ]] || { print 'no completion within 30 s'; exit 1 }
      """
    let result = try shell("/usr/bin/zsh", ["-f", "-c", driver])
    #expect(result.status == 0, "\(result.output)")
    let found = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    // fish prints `candidate<TAB>description`; gym's candidates have none.
    return found.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }.sorted()
  }

  /// zsh's $'…' quoting, for the lines zpty types.
  func zshQuoted(_ text: String) -> String {
    var quoted = "$'"
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\", "'": quoted += "\\" + String(scalar)
      case _ where scalar.value < 32: quoted += String(format: "\\x%02x", scalar.value)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "'"
  }

  @Test func candidatesAreInertInEveryShell() throws {
    let items = hostileSuffixes.map { "R" + $0 }
    let categories = hostileSuffixes.map { "D" + $0 }
    let recipes = hostileSuffixes.map { "S" + $0 }
    let types = hostileSuffixes.map { "x" + $0 }
    for (item, category) in zip(items, categories) {
      let added = try gym.run(["staples", "add", item, "--category", category, "-q"])
      #expect(added.status == 0, "\(added.stderr)")
    }
    #expect(try gym.run(["staples", "add", "Milk", "--category", "Fridge", "-q"]).status == 0)
    for recipe in recipes {
      let added = try gym.run(["staples", "recipe", "add", recipe, "--ingredient", "Milk:100 ml", "-q"])
      #expect(added.status == 0, "\(added.stderr)")
    }
    let samples = try types.map { type -> String in
      let record: [String: Any] = [
        "type": type, "start": "2026-01-01T10:00:00Z", "end": "2026-01-01T10:10:00Z", "value": 5, "unit": "count",
        "stage": "none", "source": "Phone",
      ]
      return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
    }
    let imported = try gym.run(["history", "samples", "import", "-", "-q"], stdin: samples.joined(separator: "\n"))
    #expect(imported.status == 0, "\(imported.stderr)")
    for (shellName, file) in [("bash", "gym.bash"), ("zsh", "_gym"), ("fish", "gym.fish")] {
      let script = try gym.run(["completions", shellName])
      #expect(script.status == 0)
      _ = try gym.write(file, script.stdout)
    }

    let cases: [([String], [String])] = [
      (["gym", "staples", "show", "R"], offered(items)),
      (["gym", "staples", "list", "--category", "D"], offered(categories)),
      (["gym", "staples", "recipe", "show", "S"], offered(recipes)),
      (["gym", "history", "daily", "--type", "x"], offered(types)),
    ]
    for (words, expected) in cases {
      #expect(expected.count == hostileSuffixes.count - 2)  // the line break and the tab left out
      // bash inserts `$` and backticks unquoted (readline's file name quoting): those names are not offered.
      let bashFound = try bash(words)
      #expect(bashFound == expected.filter { !$0.contains("$") && !$0.contains("`") }, "bash: \(words): \(bashFound)")
      #expect(bashFound.count == expected.count - 4)
      let zshFound = try zsh(words)
      #expect(zshFound == expected, "zsh: \(words): \(zshFound)")
      let fishFound = try fish(words)
      #expect(fishFound == expected, "fish: \(words): \(fishFound)")
    }
    let ran = try FileManager.default.contentsOfDirectory(atPath: markers)
    #expect(ran.isEmpty, "completion ran code: \(ran)")
  }

  /// A name with a space or a quote is typed escaped or quoted (`Olive\ o`, `'Olive o`): each shell
  /// hands gym the word as typed, and gym looks the names up by what the shell will read it as.
  /// (`"Olive's` is left out: bash's own `compgen` drops every candidate for a quote inside `"…`.)
  @Test func aWordTypedEscapedOrQuotedCompletesItsName() throws {
    for name in ["Olive oil", "Olive tapenade", "Olive's brine", "Olives"] {
      #expect(try gym.run(["staples", "add", name, "--category", "Pantry", "-q"]).status == 0)
    }
    for (shellName, file) in [("bash", "gym.bash"), ("zsh", "_gym"), ("fish", "gym.fish")] {
      _ = try gym.write(file, try gym.run(["completions", shellName]).stdout)
    }
    let cases: [(typed: String, expected: [String])] = [
      ("Olive\\ o", ["Olive oil"]), ("'Olive o", ["Olive oil"]), ("\"Olive o", ["Olive oil"]),
      ("Olive\\ ", ["Olive oil", "Olive tapenade"]), ("Olive\\'", ["Olive's brine"]),
      ("Oli", ["Olive oil", "Olive tapenade", "Olive's brine", "Olives"].sorted()),
    ]
    for (typed, expected) in cases {
      let words = ["gym", "staples", "show", typed]
      let bashFound = try bash(words)
      #expect(bashFound == expected, "bash: \(typed): \(bashFound)")
      let zshFound = try zsh(words)
      #expect(zshFound == expected, "zsh: \(typed): \(zshFound)")
      let fishFound = try fish(words)
      #expect(fishFound == expected, "fish: \(typed): \(fishFound)")
    }
  }
}
