import Foundation
import TestTimeZone
import Testing

@testable import GymCLI

@Suite struct OutputTests {
  /// Runs `body` with a stream on a temporary file and returns what it wrote.
  func capture(_ body: (BufferedOutput) -> Void) throws -> String {
    let path = NSTemporaryDirectory() + "gym-out-" + UUID().uuidString
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
    let stream = BufferedOutput(descriptor: fd)
    body(stream)
    stream.flush()
    close(fd)
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  let rows: [[Cell]] = [
    [.text("a, \"b\"\nc"), .integer(3), .timestamp("2026-11-21T10:00:00.000Z"), .null],
    [.text("plain"), .real(2.5), .timestamp("2026-11-20T10:00:00.000Z"), .bool(true)],
  ]

  func write(_ format: OutputFormat, next: String? = nil) throws -> String {
    try capture { out in
      let writer = RecordWriter(format: format, columns: ["title", "n", "at", "flag"], out: out)
      for row in rows { writer.write(row) }
      writer.finish(next: next)
    }
  }

  @Test func csvFollowsRFC4180() throws {
    #expect(
      try write(.csv)
        == "title,n,at,flag\r\n\"a, \"\"b\"\"\nc\",3,2026-11-21T10:00:00.000Z,\r\nplain,2.5,2026-11-20T10:00:00.000Z,true\r\n"
    )
  }

  @Test func ndjsonIsOneObjectPerLineWithUTCDates() throws {
    let lines = try write(.ndjson, next: "abc").split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == #"{"title":"a, \"b\"\nc","n":3,"at":"2026-11-21T10:00:00.000Z","flag":null}"#)
    let decoded = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
    #expect(decoded?["flag"] as? Bool == true)
  }

  @Test func jsonIsOneDocumentWithItemsAndNext() throws {
    let text = try write(.json, next: "cursor-1")
    let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect((decoded?["items"] as? [Any])?.count == 2)
    #expect(decoded?["next"] as? String == "cursor-1")
    let last = try JSONSerialization.jsonObject(with: Data(try write(.json).utf8)) as? [String: Any]
    #expect(last?["next"] is NSNull)
  }

  @Test func jsonEscapesControlCharacters() {
    #expect(JSONText.string("a\u{01}\t\"\\") == #""a\u0001\t\"\\""#)
  }

  @Test func tableAlignsAndShowsLocalTime() throws {
    try TestTimeZone.requireUTC()
    let text = try write(.table)
    let lines = text.split(separator: "\n")
    #expect(lines[0].hasPrefix("title"))
    #expect(lines[1].contains("2026-11-21 10:00"))
    #expect(lines[1].contains("a, \"b\" c"))
  }

  @Test func tableShrinksFreeTextThenLeavesOutColumnsToFit() {
    // 10 + 50 + 8 and two separators of 2 is 72: the free-text column gives up 32.
    let shrunk = TableLayout.fit([10, 50, 8], freeText: [false, true, false], headers: ["a", "b", "c"], into: 40)
    #expect(shrunk.widths == [10, 18, 8] && shrunk.shown == 3)
    let roomy = TableLayout.fit([3, 3], freeText: [true, true], headers: ["a", "b"], into: 80)
    #expect(roomy.widths == [3, 3] && roomy.shown == 2)
    // An id, a date and a status: nothing may be cut, so the last column is left out (36 + 2 + 16 = 54).
    let fixed = TableLayout.fit([36, 16, 9], freeText: [false, false, false], headers: ["a", "b", "c"], into: 60)
    #expect(fixed.shown == 2 && fixed.widths == [36, 16, 9])
  }
}

@Suite struct ProgressTests {
  func capture(enabled: Bool?, _ body: (ProgressLine) -> Void) throws -> String {
    let path = NSTemporaryDirectory() + "gym-progress-" + UUID().uuidString
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
    body(ProgressLine("importing", output: BufferedOutput(descriptor: fd), enabled: enabled))
    close(fd)
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func drawsALiveLineAndClearsItOnATerminal() throws {
    let text = try capture(enabled: true) { progress in
      progress.update(1024)
      progress.finish()
    }
    #expect(text == "\rimporting: 1024 records\u{1B}[K\r\u{1B}[K")
  }

  @Test func drawsADetailMadeOnlyWhenShown() throws {
    var made = 0
    let text = try capture(enabled: true) { progress in
      progress.update {
        made += 1
        return "12 read, 3 unknown"
      }
      progress.update {
        made += 1
        return "too soon to be drawn"
      }
    }
    #expect(text == "\rimporting: 12 read, 3 unknown\u{1B}[K")
    #expect(made == 1)
  }

  @Test func staysSilentWhenNotATerminal() throws {
    // A regular file is not a terminal: the default is silence.
    let text = try capture(enabled: nil) { progress in
      progress.update(1024)
      progress.finish()
    }
    #expect(text.isEmpty)
  }
}
