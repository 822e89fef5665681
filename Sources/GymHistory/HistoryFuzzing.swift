import GymCLI
import GymCore

/// The history module's parsers for `make fuzz`: Strong and Hevy rows, Apple Health XML.
public enum HistoryFuzzing {
  public static func strong(_ bytes: [UInt8]) {
    let format = StrongFormat(kilogramsPerUnit: 1, kilometresPerUnit: 1)
    Fuzzing.csvRows(bytes, columns: format.columns) { _ = try format.parse($0) }
  }

  public static func hevy(_ bytes: [UInt8]) {
    let format = HevyFormat()
    Fuzzing.csvRows(bytes, columns: format.columns) { _ = try format.parse($0) }
  }

  /// The export.xml path of `import-health`, samples validated as a dry run does.
  public static func health(_ bytes: [UInt8]) {
    let parser = HealthParser(scanner: XMLTagScanner(input: .memory(bytes)), strict: false)
    do {
      let samples = try BulkLoader(table: SampleSchema.table, conflict: SampleSchema.conflict, db: nil)
      var batch = HealthBatch()
      while true {
        let more = try parser.fill(&batch)
        for i in 0..<batch.count { try samples.add(&batch.samples[i], line: batch.lines[i]) }
        if !more { break }
      }
    } catch {}
  }
}
