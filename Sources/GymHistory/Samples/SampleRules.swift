import GRDB
import GymCLI
import GymCore

/// What a sample of a type gym knows must say, beyond each field's own rule: the type's one unit
/// (a `steps` sample in `kg` would be summed as steps), and a stage only for sleep, one of its
/// stages. A type gym does not know keeps its own unit and no stage. Checked on `history samples
/// import`, all or nothing like gym's other formats.
final class SampleRules: ExtraFieldImport {
  let fieldNames: [String] = []

  func stage(_ values: RecordValues, line: Int) throws {
    let field = { (name: String) in values.fieldNames.firstIndex(of: name).map { values.string($0) } }
    guard let type = field("type") else { return }
    let stage = field("stage").flatMap { $0.isEmpty ? nil : $0 } ?? SleepStage.none.rawValue
    if let known = SampleType(rawValue: type), let unit = field("unit"), unit != known.unit {
      throw InputError(
        line: line, message: "field 'unit': '\(unit)' is not the unit of \(type), which is stored in \(known.unit)")
    }
    if type == SampleType.sleep.rawValue {
      guard SleepStage(rawValue: stage) != nil else {
        throw InputError(
          line: line,
          message: "field 'stage': '\(stage)' is not a sleep stage; give one of "
            + SleepStage.allCases.map(\.rawValue).joined(separator: ", "))
      }
    } else if stage != SleepStage.none.rawValue {
      throw InputError(line: line, message: "field 'stage': '\(stage)' is for sleep only; a \(type) sample has none")
    }
  }

  func finish(_ db: Database?) throws {}
}
