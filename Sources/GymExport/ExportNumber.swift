import GymCLI
import GymCore

/// An export's JSON number as SQLite takes it: one with a fraction or an exponent, or a whole
/// number past 64 bits, is REAL; other numbers INTEGER. (Text, CSV's numbers included, goes in as
/// text and the column's type affinity converts it.) The one reading both imports of an export
/// use: `DirectImport`, and `ImportJob.databaseValues` for the staging database.
enum ExportNumber {
  case integer(Int64)
  case real(Double)

  /// An error names the table when the number does not fit a 64-bit float.
  init(_ bytes: UnsafeBufferPointer<UInt8>, table: String) throws {
    if let integer = WholeNumber.parse(bytes) {
      self = .integer(integer)
      return
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let real = Double(text), real.isFinite else {
      throw GymError.data(
        "\(table): the number \(text.prefix(40)) does not fit a 64-bit float; the export was edited or damaged")
    }
    self = .real(real)
  }
}
