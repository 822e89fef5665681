import Foundation
import GRDB
import Testing

/// Input that would be stored as something it does not say is refused (65, naming the line): a NUL
/// inside a field of another app's CSV (its text would be cut there), bytes that are not UTF-8 (they would
/// become U+FFFD), a record past the 16 MiB limit however the buffer grew, a manifest listing no
/// files. What gym writes, it reads back: no work gets more readings than an import takes.
@Suite struct InputEdgeTests {
  static let goodreadsHeader =
    "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
    + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
    + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"

  static func goodreadsRow(title: [UInt8]) -> [UInt8] {
    Array("1,\"".utf8) + title
      + Array("\",Tamsyn Muir,\"Muir, Tamsyn\",,,,0,0,,,,,,,2024/01/01,,,to-read,,,,0,0\n".utf8)
  }

  @Test func aNulOrBytesThatAreNotUTF8AreRefused() throws {
    let gym = try GymProcess()
    let nul = Array("Gideon".utf8) + [0] + Array("the Ninth".utf8)
    let latin1 = Array("Caf".utf8) + [0xE9]
    for (title, message) in [(nul, "holds a NUL byte"), (latin1, "is not valid UTF-8")] {
      let file = Data(Array(Self.goodreadsHeader.utf8) + Self.goodreadsRow(title: title))
      let result = try gym.run(["library", "import", "goodreads", "-", "--strict"], stdinBytes: file)
      #expect(result.status == 65, "\(result.stderr)")
      #expect(result.stderr.contains("<stdin>:2:") && result.stderr.contains(message), "\(result.stderr)")
      let skipped = try gym.run(["library", "import", "goodreads", "-", "--dry-run"], stdinBytes: file)
      #expect(skipped.status == 0, "\(skipped.stderr)")
      #expect(skipped.stderr.contains("<stdin>:2: skipped: ") && skipped.stderr.contains(message), "\(skipped.stderr)")
    }
    // gym's own formats keep such text whole (ControlCharacterTests); another app's export is refused,
    // since the text would be cut where it is read back through a C string.
    let count = try gym.run(["library", "count"]).stdout
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath) || count == "0\n", "\(count)")
  }

  /// A quoted field of 17 MiB of short lines: one record over the limit, refused however far the
  /// reading buffer grew before the record closed.
  @Test func aRecordPastTheLimitIsRefusedWithLineBreaksInside() throws {
    let gym = try GymProcess()
    var text = Array(Self.goodreadsHeader.utf8) + Array("1,\"".utf8)
    text += [UInt8](repeating: UInt8(ascii: "a"), count: 63) + [10]
    let line = [UInt8](repeating: UInt8(ascii: "a"), count: 63) + [10]
    for _ in 0..<(17 << 20) / 64 { text += line }
    text += Array("\",A,\"A, B\",,,,0,0,,,,,,,2024/01/01,,,to-read,,,,0,0\n".utf8)
    let path = gym.directory + "/long.csv"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text)))
    let result = try gym.run(["library", "import", "goodreads", path])
    #expect(result.status == 65 && result.stderr.contains("longer than 16 MiB"), "\(result.stderr)")
  }

  @Test func aManifestListingNothingIsRefused() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let made = try gym.run(["export", "--out", "b", "-q"])
    let path = gym.directory + "/" + made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let manifestPath = path + "/manifest.json"
    var manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
    manifest["tables"] = [Any]()
    manifest["files"] = [Any]()
    try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
    for directory in try FileManager.default.contentsOfDirectory(atPath: path) where directory != "manifest.json" {
      try FileManager.default.removeItem(atPath: path + "/" + directory)
    }
    let verify = try gym.run(["export", "verify", path])
    #expect(verify.status == 65 && verify.stderr.contains("lists no tables"), "\(verify.stderr)")
    let restored = gym.directory + "/restored.sqlite"
    let imported = try gym.run(["import", path, "--database", restored])
    #expect(imported.status == 65, "\(imported.stderr)")
    #expect(!FileManager.default.fileExists(atPath: restored))
  }

  /// A work read 10,000 times takes no more readings, so `library export goodreads` never writes a
  /// Read Count its own import refuses; the export at the limit imports back.
  @Test func readingsStopAtWhatAnImportTakes() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["library", "add", "Emma", "-q"]).status == 0)
    let emma = RecordKeys.work("Emma", authors: [])
    let queue = try DatabaseQueue(path: gym.databasePath)
    try queue.write { db in
      for day in 0..<9_999 {
        try db.execute(
          sql: "INSERT INTO reading (workId, finished, status) VALUES (?, date('2000-01-01', ? || ' days'), 'read')",
          arguments: [emma, day])
      }
    }
    try queue.close()
    #expect(try gym.run(["library", "finish", "\(emma)", "-q"]).status == 0)  // the 10,000th
    let refused = try gym.run(["library", "finish", "\(emma)"])
    #expect(refused.status == 65 && refused.stderr.contains("10000 readings"), "\(refused.stderr)")
    let exported = try gym.run(["library", "export", "goodreads"])
    #expect(exported.status == 0 && exported.stdout.contains(",10000,"), "\(exported.stderr)")
    let copy = ["GYM_DATABASE": gym.directory + "/copy.sqlite"]
    let imported = try gym.run(
      ["library", "import", "goodreads", "-", "-q"], stdin: exported.stdout, environment: copy)
    #expect(imported.status == 0, "\(imported.stderr)")
  }
}
