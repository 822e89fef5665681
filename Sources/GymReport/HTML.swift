/// Text for HTML: the five characters that could end an element or an attribute, escaped, and every
/// control character shown as the terminal shows it (`\x1B`, `\u{9B}`, `\u{202E}`): an escape
/// sequence in a name would act on a terminal the page is printed to (`report --out -`), and a
/// bidirectional override in a label would reverse the number after it (`Run\u{202E}: 12.5` reads
/// `Run5.21 :`).
enum HTML {
  /// Scalar by scalar, as the browser reads them: a `<` that a neighbouring scalar joins into one
  /// Swift character (after U+0600, before U+0301) is still a `<` to the HTML parser.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case _ where String.isTerminalControl(scalar): out += String.shown(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A label followed by other text on its line (a point's `label: value`): isolated (U+2068 … U+2069),
  /// so that a right-to-left label does not carry the value into its run. Its own isolates and
  /// overrides are escaped first, so none can close the isolate early.
  static func isolated(_ label: String) -> String { "\u{2068}" + escape(label) + "\u{2069}" }
}
