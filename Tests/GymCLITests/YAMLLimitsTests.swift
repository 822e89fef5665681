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

  @Test func anEmptyOrRelativeXDGVariableIsAsIfUnset() {
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config")
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "conf", "HOME": "/h"]) == "/h/.config")
    #expect(XDGDirectories.configHome(["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c")
    #expect(XDGDirectories.dataHome(["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share")
    #expect(XDGDirectories.dataHome(["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d")
    #expect(Store.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/gym/gym.sqlite")
  }
}
