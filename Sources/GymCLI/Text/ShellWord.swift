import Foundation

/// Text as one word a POSIX shell reads back exactly: single-quoted, a quote inside as `'\''`. Data
/// from a database or a file goes to a shell only this way (completion candidates, a command gym
/// suggests).
public enum ShellWord {
  /// Scalar by scalar, as the shell reads bytes: replacing the character `'` missed a quote that a
  /// combining mark after it (U+0301) joins into another character, and that quote ended the word.
  public static func quoted(_ text: String) -> String {
    var out = "'"
    for scalar in text.unicodeScalars {
      if scalar == "'" { out += "'\\''" } else { out.unicodeScalars.append(scalar) }
    }
    return out + "'"
  }

  /// Left as it is when it is plain (letters, digits, `._/-+@:,=`), else quoted: a suggested
  /// command stays readable for ordinary paths.
  public static func plainOrQuoted(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "._/-+@:,=".unicodeScalars.contains($0))
      }
    return plain ? text : quoted(text)
  }

  /// What bash or zsh reads a word typed so far as, the quote it may still be in read as closed:
  /// `Olive\ o`, `'Olive o` and `"Olive o` are all `Olive o`. Both shells hand completion the word
  /// as typed. A `$` stays as it is: what it would expand to is not known here.
  public static func unquoted(_ typed: String) -> String {
    var out = String.UnicodeScalarView()
    var quote: Unicode.Scalar?
    var scalars = typed.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch (quote, scalar) {
      case (nil, "\\"):
        if let escaped = scalars.next() { out.append(escaped) }
      case (nil, "'"), (nil, "\""):
        quote = scalar
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case ("\"", "\\"):
        // Inside double quotes a backslash escapes only `$`, a backtick, `"`, itself and a line break.
        guard let next = scalars.next() else {
          out.append(scalar)
          break
        }
        if !"$`\"\\\n".unicodeScalars.contains(next) { out.append(scalar) }
        out.append(next)
      default:
        out.append(scalar)
      }
    }
    return String(out)
  }
}
