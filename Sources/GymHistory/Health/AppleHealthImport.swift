import GRDB
import GymCLI
import GymCore

/// What an Apple Health import did.
struct HealthCounts {
  var records = 0
  var samples = ImportCounts()
  /// Records of types gym keeps as the export writes them (no unit conversion).
  var unknownRecords = 0
  var workouts = ImportCounts()
  /// Records gym could not read, skipped and told (with `--strict`, the first refuses the export).
  var skips = ImportSkips(strict: true, displayName: "")
}

/// Imports Apple Health's `export.xml` (or the export's `.zip`, or stdin) as a stream: `<Record>`s
/// of known types become samples (units converted), `<Workout>`s become completed workouts; other
/// records are kept as written. A record gym cannot read is skipped and told (`strict`: the export
/// is refused). One transaction; memory does not grow with
/// the file. The XML is parsed on a second thread while the first writes (`BatchPipeline`).
struct AppleHealthImport {
  let path: String
  /// All or nothing: the first record gym cannot read refuses the export.
  var strict = false

  var displayName: String { path == "-" ? "<stdin>" : path }

  func run(openStore: (() throws -> Store)?, progress: ProgressLine) throws -> HealthCounts {
    let source = try HealthExportSource.open(path)
    defer { source.close() }
    if let file = source.descriptor { progress.measure(file) }  // export.xml; a zip's entry is unmeasured
    let parser = HealthParser(scanner: XMLTagScanner(input: source.input), strict: strict)
    do {
      func load(_ db: Database?) throws -> HealthCounts {
        var counts = HealthCounts()
        var kinds = SampleSources.Kinds()
        counts.skips = ImportSkips(strict: strict, displayName: displayName)
        let samples = try BulkLoader(table: SampleSchema.table, conflict: SampleSchema.conflict, db: db)
        let workouts = try db.map { try LoggerWriter($0) }
        var workoutCounts = LoggerCounts()
        let pipeline = BatchPipeline(make: { HealthBatch() })
        try pipeline.run(produce: parser.fill) { batch in
          counts.records += batch.records
          for skipped in batch.skips { try counts.skips.skip(skipped, progress: progress) }
          kinds.models.merge(batch.models) { first, _ in first }
          kinds.manual.formUnion(batch.manual)
          for i in 0..<batch.count {
            do {
              try samples.add(&batch.samples[i], line: batch.lines[i])
              // Of a type gym does not know, kept as written: counted once it is kept, not when read.
              if batch.isUnknown[i] { counts.unknownRecords += 1 }
            } catch let error as InputError {
              try counts.skips.skip(error, progress: progress)  // a value past what gym keeps
            }
          }
          for workout in batch.workouts {
            if let workouts {
              try workouts.write(workout, counts: &workoutCounts)
            } else {
              workoutCounts.workouts.read += 1
            }
          }
          progress.update {
            "\(counts.records) records read, \(samples.counts.inserted) samples written, "
              + "\(samples.counts.unchanged) duplicates, \(counts.unknownRecords) of other types"
          }
        }
        try samples.finish()
        try workouts?.countWorkouts(&workoutCounts.workouts)
        if let db { try SampleSources.record(kinds, db) }
        counts.samples = samples.counts
        counts.workouts = workoutCounts.workouts
        return counts
      }
      let counts: HealthCounts
      if let store = try openStore?() {
        counts = try store.write { db in try load(db) }
      } else {
        counts = try load(nil)
      }
      try source.finish()
      return counts
    } catch let error as InputError {
      try source.finish(cancelling: true)  // a broken archive explains a cut-off document better
      throw ImportInput.failure(error, displayName: displayName)
    }
  }
}

/// Up to `capacity` parsed samples and the workouts met among them, reused batch after batch.
struct HealthBatch {
  /// 12,288 records in flight (`BatchPipeline.depth` batches), as many as three batches of 4,096 held.
  static let capacity = 1536
  var samples = Array(repeating: RecordValues(fieldNames: SampleSchema.table.fieldNames), count: capacity)
  var lines = Array(repeating: 0, count: capacity)
  /// Whether each sample is of a type gym does not know (kept as the export writes it).
  var isUnknown = Array(repeating: false, count: capacity)
  var count = 0
  var records = 0
  var workouts: [LoggedWorkout] = []
  /// Records gym could not read, to be skipped and told by the consumer.
  var skips: [InputError] = []
  /// Sources met for the first time in this batch, and the device model their records name.
  var models: [String: String] = [:]
  /// Sources whose records this batch found entered by hand (`HKWasUserEntered`).
  var manual: Set<String> = []
}

/// The producer side: reads tags and fills batches, on the pipeline's thread.
final class HealthParser: @unchecked Sendable {
  private var scanner: XMLTagScanner
  private var sawRoot = false
  /// The last element under the root was a `<Workout>`: its `<WorkoutStatistics>` follow.
  private var inWorkout = false
  /// The last element under the root was a `<Correlation>` (blood pressure): its `<Record>`s follow.
  private var inCorrelation = false
  /// All or nothing: the first record gym cannot read ends the import.
  private let strict: Bool
  /// The sources whose device is known (with a model or none), and those found entered by hand.
  private var settledSources: [[UInt8]] = []
  private var manualSources: [[UInt8]] = []
  /// The last element under the root was a `<Record>` this batch holds: its metadata follow.
  private var lastWasSample = false
  /// What each record type and unit came to.
  private var types = RecordTypeCache()
  /// Bytes a record's values are written into before they are copied to the batch.
  private var scratch: [UInt8] = []

  init(scanner: XMLTagScanner, strict: Bool) {
    self.scanner = scanner
    self.strict = strict
  }

  /// Whether a sample's source (already read) is settled: compared with the few known ones, since
  /// one source's records come interleaved with another's.
  private func isSettled(_ sample: borrowing RecordValues) -> Bool { Self.isSource(of: sample, in: settledSources) }

  private static func isSource(of sample: borrowing RecordValues, in sources: [[UInt8]]) -> Bool {
    sample.withBytes(6) { bytes in
      sources.contains { ByteRuns.equal($0, bytes) }
    }
  }

  /// The device model of a source not yet settled: the first of its records that names a device
  /// settles it (with the model the device names, if any); a source whose records name no device
  /// costs a look for the attribute.
  private func noteModel(of tag: XMLTagScanner.Tag, in batch: inout HealthBatch) {
    guard let device = tag.attribute("device") else { return }
    let source = batch.samples[batch.count - 1].string(6)
    settledSources.append(Array(source.utf8))
    if let model = SampleSources.model(inDevice: device) { batch.models[source] = model }
  }

  /// `<MetadataEntry key="HKWasUserEntered" value="1"/>` under a record: its source is one a person
  /// enters by hand (ranked with the Health app's own entries).
  private func noteManualEntry(_ tag: XMLTagScanner.Tag, in batch: inout HealthBatch) {
    guard tag.withAttribute("key", { $0.elementsEqual("HKWasUserEntered".utf8) }) == true,
      tag.withAttribute("value", { $0.elementsEqual("1".utf8) }) == true,
      !Self.isSource(of: batch.samples[batch.count - 1], in: manualSources)
    else { return }
    let source = batch.samples[batch.count - 1].string(6)
    manualSources.append(Array(source.utf8))
    batch.manual.insert(source)
  }

  /// A record gym cannot read: kept for the consumer to tell, or with `strict` thrown.
  private func skip(_ error: InputError, in batch: inout HealthBatch) throws(InputError) {
    if strict { throw error }
    batch.skips.append(error)
  }

  /// Fills `batch`; false once the document has ended.
  func fill(_ batch: inout HealthBatch) throws -> Bool {
    batch.count = 0
    batch.records = 0
    batch.workouts.removeAll(keepingCapacity: true)
    batch.skips.removeAll(keepingCapacity: true)
    batch.models.removeAll(keepingCapacity: true)
    batch.manual.removeAll(keepingCapacity: true)
    while batch.count + batch.skips.count < HealthBatch.capacity {  // skips count too: memory stays bounded
      guard let tag = try scanner.next() else {
        guard sawRoot else { throw InputError(line: 0, message: "not an Apple Health export: no <HealthData> element") }
        return false
      }
      if tag.depth == 1 {
        guard tag.isNamed("HealthData") else {
          throw InputError(
            line: tag.line, message: "not an Apple Health export: the root element is <\(tag.name)>, not <HealthData>")
        }
        sawRoot = true
      }
      if tag.depth == 3, inWorkout, tag.isNamed("WorkoutStatistics"), !batch.workouts.isEmpty {
        do {
          try HealthRecord.addStatistics(from: tag, to: &batch.workouts[batch.workouts.count - 1])
        } catch {
          try skip(error, in: &batch)
        }
      }
      let isSample = tag.isNamed("Record") && (tag.depth == 2 || (tag.depth == 3 && inCorrelation))
      if tag.depth == 3, lastWasSample, batch.count > 0, tag.isNamed("MetadataEntry") {
        noteManualEntry(tag, in: &batch)
      }
      if tag.depth == 2 { lastWasSample = false }
      if tag.depth == 2 {
        inWorkout = tag.isNamed("Workout")
        inCorrelation = tag.isNamed("Correlation")
      }
      if isSample {
        batch.records += 1
        do {
          batch.isUnknown[batch.count] = try !HealthRecord.fill(
            &batch.samples[batch.count], from: tag, types: &types, scratch: &scratch)
        } catch {
          try skip(error, in: &batch)
          continue
        }
        batch.lines[batch.count] = tag.line
        batch.count += 1
        lastWasSample = tag.depth == 2
        if !isSettled(batch.samples[batch.count - 1]) { noteModel(of: tag, in: &batch) }
      } else if tag.depth == 2, tag.isNamed("Workout") {
        do {
          batch.workouts.append(try HealthRecord.workout(from: tag))
        } catch {
          inWorkout = false  // its <WorkoutStatistics> are not the workout before it's
          try skip(error, in: &batch)
        }
      }
    }
    return true
  }
}
