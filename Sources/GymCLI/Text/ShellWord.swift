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
}
