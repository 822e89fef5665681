import GymCLI
import GymHistory
import GymLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fuzz targets by name; `make fuzz` runs each under libFuzzer.
let targets: [String: @Sendable ([UInt8]) -> Void] = [
  "where": Fuzzing.whereExpression, "config": Fuzzing.configuration,
  "ndjson": { Fuzzing.records($0, csv: false) }, "csv": { Fuzzing.records($0, csv: true) },
  "goodreads": LibraryFuzzing.goodreads, "storygraph": LibraryFuzzing.storygraph, "strong": HistoryFuzzing.strong,
  "hevy": HistoryFuzzing.hevy,
  "health": HistoryFuzzing.health,
]

#if FUZZING
  /// libFuzzer's entry (libFuzzer brings `main`): the target named by GYM_FUZZ_TARGET.
  let selected: @Sendable ([UInt8]) -> Void = {
    let name = getenv("GYM_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = targets[name] else {
      printError("gym-fuzz: set GYM_FUZZ_TARGET to one of \(targets.keys.sorted().joined(separator: ", "))")
      exit(64)
    }
    return target
  }()

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }

  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// SwiftPM names an executable's entry `<module>_main`; here it hands over to libFuzzer's driver.
  @_cdecl("gym_fuzz_main")
  public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOne)
  }
#else
  /// `gym-fuzz TARGET FILE…`: replays inputs (a corpus, a crash) through a target, without libFuzzer.
  @main struct Replay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = targets[name] else {
        printError("usage: gym-fuzz TARGET FILE…; targets: \(targets.keys.sorted().joined(separator: ", "))")
        exit(64)
      }
      for path in arguments.dropFirst() {
        guard let file = fopen(path, "rb") else { continue }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        fclose(file)
        target(bytes)
      }
    }
  }
#endif
