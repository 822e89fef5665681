import GRDB
import GymCLI
import GymCore

/// What a sample of a type gym knows must say, beyond each field's own rule: a value of 0 or more,
/// the type's one unit (a `steps` sample in `kg` would be summed as steps), and a stage only for
/// sleep, one of its stages. A type gym does not know keeps its own unit and no stage. Checked on `history samples
/// import`, all or nothing like gym's other formats.
///
/// Read where the bytes lie, with the fields' positions found once: a String per field and record
/// was 3.6% of a 712,671-sample import (PerformanceNotes).
final class SampleRules: ExtraFieldImport {
  let fieldNames: [String] = []
  /// Where the fields are in each record: the sample table's own order (`RecordImport` reads its fields).
  private static let positions = ["type", "unit", "stage", "value"].map {
    SampleSchema.table.fieldNames.firstIndex(of: $0)!
  }
  private static let types = SampleType.allCases.map {
    (type: $0, name: Array($0.rawValue.utf8), unit: Array($0.unit.utf8))
  }
  private static let stages = SleepStage.allCases.map { Array($0.rawValue.utf8) }
  private static let none = Array(SleepStage.none.rawValue.utf8)

  func stage(_ values: RecordValues, line: Int) throws {
    let (typeField, unitField, stageField) = (Self.positions[0], Self.positions[1], Self.positions[2])
    let known = values.withBytes(typeField) { name in Self.types.first { ByteRuns.equal($0.name, name) } }
    // A stage left out or empty is none, as the loader stores it.
    let stageIsNone =
      values.kinds[stageField] != .string
      || values.withBytes(stageField) { $0.isEmpty || ByteRuns.equal(Self.none, $0) }
    if let known {
      // Every type gym knows counts or measures something that is never below zero (steps -100
      // would take 100 from a day's total).
      let valueField = Self.positions[3]
      if values.withBytes(valueField, { $0.first == UInt8(ascii: "-") }),
        let value = DecimalNumber.parse(values.string(valueField)), value < 0
      {
        throw InputError(
          line: line,
          message: "field 'value': '\(values.string(valueField))' is negative, and a \(known.type.rawValue) "
            + "sample never is")
      }
      guard values.withBytes(unitField, { ByteRuns.equal(known.unit, $0) }) else {
        throw InputError(
          line: line,
          message: "field 'unit': '\(values.string(unitField))' is not the unit of \(known.type.rawValue), "
            + "which is stored in \(known.type.unit)")
      }
      if known.type == .sleep {
        guard
          stageIsNone || values.withBytes(stageField, { bytes in Self.stages.contains { ByteRuns.equal($0, bytes) } })
        else {
          throw InputError(
            line: line,
            message: "field 'stage': '\(values.string(stageField))' is not a sleep stage; give one of "
              + SleepStage.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return
      }
    }
    guard stageIsNone else {
      throw InputError(
        line: line,
        message: "field 'stage': '\(values.string(stageField))' is for sleep only; "
          + "a \(values.string(typeField)) sample has none")
    }
  }

  func finish(_ db: Database?) throws {}
}
