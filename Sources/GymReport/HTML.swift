/// Text for HTML: the five characters that could end an element or an attribute, escaped.
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
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
