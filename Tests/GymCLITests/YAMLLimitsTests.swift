import GymCLI
import GymCore
import Testing

/// The guard every YAML file gym reads passes first, and where gym looks for its files.
@Suite struct YAMLLimitsTests {
  static func aliases(_ count: Int) -> String {
    "anchor: &a [1]\n" + (1...count).map { "k\($0): *a\n" }.joined()
  }

  @Test func aliasesAreCountedAfterAnApostropheInPlainText() {
    // 16 aliases are allowed, 17 are not: whether or not a plain value before them holds an apostrophe
    // (which opens no quoted scalar in the middle of `Don't`).
    #expect(YAMLLimits.violation(in: Self.aliases(16)) == nil)
    #expect(YAMLLimits.violation(in: Self.aliases(17))?.line == 18)
    #expect(YAMLLimits.violation(in: "title: Don't\n" + Self.aliases(17))?.line == 19)
    // A quoted scalar still hides what is inside it: `'*a'` is text, not an alias.
    #expect(YAMLLimits.violation(in: "anchor: &a 1\n" + (1...17).map { "k\($0): '*a'\n" }.joined()) == nil)
  }

  /// A plain value with a quote after a space (`device: a 'b`) reads to this guard as a quote left
  /// open, yet the aliases after it still count: a bomb of aliases used as keys (9 × 9 = 81 of them,
  /// which took the YAML parser past any timeout) is refused, as is the 17th plain alias.
  @Test func aQuoteLeftOpenHidesNoAlias() {
    let bomb =
      "version: 1\nsync:\n  device: a 'b\nk0: &a0 {lol: 1, lo2: 2}\n"
      + (1...9).map { level in
        "k\(level): &a\(level) {" + (0...8).map { "? [*a\(level - 1), \($0)] : \($0)" }.joined(separator: ", ") + "}\n"
      }.joined()
    #expect(YAMLLimits.violation(in: bomb)?.message.contains("more than 16 aliases") == true)
    #expect(YAMLLimits.violation(in: "device: a 'b\n" + Self.aliases(17))?.line == 19)
    #expect(YAMLLimits.violation(in: "device: a 'b\n" + Self.aliases(16)) == nil)
  }

  @Test func anEmptyOrRelativeXDGVariableIsAsIfUnset() {
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config")
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "conf", "HOME": "/h"]) == "/h/.config")
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c")
    #expect(XDGDirectories.dataHome(["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share")
    #expect(XDGDirectories.dataHome(["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d")
    #expect(Store.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/gym/gym.sqlite")
  }
}
