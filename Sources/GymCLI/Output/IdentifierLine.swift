/// One identifier of `--ids` on its line, as `show`, `set` and `remove` take it back
/// (`gym staples show "$(gym staples list --ids -n 1)"`): the text as stored, a backslash included.
/// To a terminal its control characters are shown escaped, as every table shows them; into a pipe
/// the bytes are as stored, except a line break, which would split the line: such an identifier is
/// written as TSV writes a value (`\n`, `\r`, `\\`), the one case that does not read back as it is.
struct IdentifierLine {
  let toTerminal: Bool

  func append(_ identifier: String, to out: inout [UInt8]) {
    if toTerminal {
      out.append(contentsOf: identifier.inertOnTerminal.utf8)
    } else if identifier.utf8.contains(where: { $0 == 10 || $0 == 13 }) {
      TSVText.append(identifier.utf8, to: &out)
    } else {
      out.append(contentsOf: identifier.utf8)
    }
    out.append(10)
  }
}
