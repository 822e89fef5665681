/// Bounds checked on a configuration's text before the YAML parser sees it. Aliases can make a
/// few hundred bytes expand exponentially (aliases used as mapping keys took 83 s at 460 bytes), and
/// gym reads `./gym.yaml` by itself, so such a file would hang every command run beside it. A
/// configuration needs none of that: a few kilobytes, a handful of aliases, shallow nesting. Every
/// YAML file gym reads (gym.yaml, muscles.yaml) is checked against them.
public enum YAMLLimits {
  public static let maximumBytes = 64 * 1024
  public static let maximumAliases = 16
  public static let maximumDepth = 32

  /// The first limit `text` exceeds, as a message and its line; nil when it is within all.
  public static func violation(in text: String) -> (message: String, line: Int)? {
    let bytes = Array(text.utf8)
    if bytes.count > maximumBytes {
      return ("the file is \(bytes.count) bytes; a configuration is at most \(maximumBytes)", 1)
    }
    var aliases = 0
    var line = 1
    var flowDepth = 0
    var atLineStart = true
    var indentDepth = 0
    var quote: UInt8? = nil
    var previous: UInt8 = 10
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      defer {
        previous = byte
        i += 1
      }
      if byte == 10 {
        line += 1
        atLineStart = true
        indentDepth = 0
        if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") { continue }  // quoted scalars may span lines
        continue
      }
      if let open = quote {
        if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
          i += 1  // an escaped character
          continue
        } else if byte == open {
          quote = nil
          continue
        }
        // A quote read as opening may be text (`device: a 'b`), which would hide the rest of the
        // file: aliases and brackets inside one still count, so no quote hides a bomb (a quoted
        // `[*x` counts too, which no configuration needs).
        let counted: [UInt8] = [
          UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "]"), UInt8(ascii: "}"),
        ]
        guard counted.contains(byte) else { continue }
      }
      if atLineStart && quote == nil {
        if byte == UInt8(ascii: " ") {
          indentDepth += 1
          if indentDepth / 2 > maximumDepth { return ("the file nests deeper than \(maximumDepth) levels", line) }
          continue
        }
        atLineStart = false
      }
      let startsNode =
        [
          10, 32, 9, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-"),
          UInt8(ascii: "?"),
        ].contains(previous)
      switch byte {
      case UInt8(ascii: "#") where previous == 32 || previous == 9 || previous == 10:
        while i + 1 < bytes.count, bytes[i + 1] != 10 { i += 1 }  // a comment, to the end of the line
      // A quote opens a scalar only where a node starts: the apostrophe in `title: Don't` is text.
      case UInt8(ascii: "'") where startsNode, UInt8(ascii: "\"") where startsNode:
        quote = byte
      case UInt8(ascii: "*") where startsNode:
        aliases += 1
        if aliases > maximumAliases {
          return ("the file uses more than \(maximumAliases) aliases (*name); write the values out", line)
        }
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        flowDepth += 1
        if flowDepth > maximumDepth { return ("the file nests deeper than \(maximumDepth) levels", line) }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        flowDepth = max(0, flowDepth - 1)
      default: break
      }
    }
    return nil
  }
}
