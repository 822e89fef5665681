import Foundation
import Testing

/// `gym report` rendered by headless Chromium (the Debian package `chromium`, which scripts/setup.sh
/// installs): loaded with networking disabled, its DOM dumped and its charts and points counted
/// against the data below, a screenshot that is not blank, a PDF; and the same for an empty database.
@Suite(.serialized) struct ReportBrowserTests {
  static var chromium: String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs Chromium headless on a file with no network: every host resolves to nothing, and any
  /// proxy is a closed port.
  func chromium(_ arguments: [String], file: String, in directory: String) throws -> (status: Int32, stdout: String) {
    let binary = try #require(
      Self.chromium,
      "Chromium is needed for the report's browser tests: run scripts/setup.sh as root, or apt-get install chromium")
    // Chromium's profile and its sockets go in a short directory of their own: a Unix socket path
    // over 107 bytes (deep under the test run's TMPDIR) makes it exit 6.
    var template = Array("/tmp/gym-chromium-XXXXXX".utf8CString)
    let profile = try #require(
      template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    defer { try? FileManager.default.removeItem(atPath: profile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
        "--user-data-dir=\(profile)/profile", "--hide-scrollbars",
      ] + arguments + ["file://\(file)"]
    process.environment = ["HOME": profile, "PATH": "/usr/bin:/bin", "TMPDIR": profile]
    let output = Pipe()
    process.standardOutput = output
    let log = directory + "/chromium.log"
    FileManager.default.createFile(atPath: log, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Issue.record(
        "chromium exited \(process.terminationStatus): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Each chart in the DOM: its title and how many points it draws.
  func charts(in dom: String) -> [(title: String, points: Int)] {
    dom.components(separatedBy: "<figure class=\"chart\"").dropFirst().map { figure in
      let body = figure.components(separatedBy: "</figure>")[0]
      let title = body.components(separatedBy: "<h3>").dropFirst().first?.components(separatedBy: "</h3>")[0] ?? ""
      return (title, body.components(separatedBy: "class=\"point").count - 1)
    }
  }

  /// Distinct byte values in a PNG's decompressed image data (python3's zlib): a blank page is one
  /// colour, so its scanlines hold two or three values.
  func distinctBytes(png path: String) throws -> Int {
    let script = """
      import struct, sys, zlib
      data = open(sys.argv[1], 'rb').read()
      assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
      i, idat = 8, b''
      while i < len(data):
          n, kind = struct.unpack('>I4s', data[i:i + 8])
          if kind == b'IDAT': idat += data[i + 8:i + 8 + n]
          i += 12 + n
      print(len(set(zlib.decompress(idat))))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  func day(_ offset: Int, _ time: String = "12:00:00") -> String {
    let format = DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    return format.string(from: Date().addingTimeInterval(Double(offset) * 86_400)) + "T\(time).000Z"
  }

  /// Three leg sessions of two squat sets a week apart; 5,000 steps yesterday; a resting heart rate;
  /// a night's sleep; two books read this year; two recipes cooked (and one never).
  func fixture(_ gym: GymProcess) throws {
    let workouts = [-1, -8, -15].enumerated().map { index, offset in
      #"{"id":"00000000-0000-4000-8000-00000000000\#(index + 1)","completedAt":"\#(day(offset))","status":"completed","planTitle":"Legs","focus":"legs","durationMinutes":60,"sets":[{"position":1,"exercise":"Squat (Barbell)","kind":"normal","weightKg":\#(100 + index * 5),"reps":5},{"position":2,"exercise":"Squat (Barbell)","kind":"normal","weightKg":100,"reps":5}]}"#
    }
    #expect(
      try gym.run(["history", "import", try gym.write("w.ndjson", workouts.joined(separator: "\n") + "\n"), "-q"])
        .status == 0)
    let samples = [
      #"{"type":"steps","start":"\#(day(-1))","end":"\#(day(-1, "12:30:00"))","value":5000,"unit":"count","stage":"none","source":"Phone"}"#,
      #"{"type":"restingHeartRate","start":"\#(day(-2))","end":"\#(day(-2))","value":58,"unit":"count/min","stage":"none","source":"Watch"}"#,
      #"{"type":"sleep","start":"\#(day(-3, "23:00:00"))","end":"\#(day(-2, "06:00:00"))","value":420,"unit":"min","stage":"asleepCore","source":"Watch"}"#,
    ]
    #expect(
      try gym.run([
        "history", "samples", "import", try gym.write("s.ndjson", samples.joined(separator: "\n") + "\n"), "-q",
      ]).status == 0)
    let year = String(day(0).prefix(4))
    let books = """
      Book Id,Title,Author,Exclusive Shelf,Date Read,Read Count,Number of Pages
      1,First,Ann Author,read,\(year)/01/02,1,100
      2,Second <b>bold</b>,Bo Author,read,\(year)/01/20,1,200

      """
    #expect(try gym.run(["library", "import", "goodreads", try gym.write("g.csv", books), "-q"]).status == 0)
    let recipes =
      #"{"name":"Omelette","usageCount":4}"# + "\n" + #"{"name":"Porridge","usageCount":2}"# + "\n"
      + #"{"name":"Soup","usageCount":0}"# + "\n"
    #expect(try gym.run(["staples", "import", "--recipes", try gym.write("r.ndjson", recipes), "-q"]).status == 0)
    // Milk past its best-before yesterday, spinach tomorrow; rice in a year is not expiring.
    for (item, amount, unit, offset) in [("Milk", "1", "l", -1), ("Spinach", "200", "g", 1), ("Rice", "1", "kg", 365)] {
      #expect(
        try gym.run([
          "staples", "buy", item, amount, unit, "--category", "Food", "--best-before", String(day(offset).prefix(10)),
          "--location", "fridge", "-q",
        ]).status == 0)
    }
  }

  @Test func theReportInABrowser() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    try fixture(gym)
    // Rice: 1 kg in stock, keep at least 2: low on stock.
    #expect(try gym.run(["staples", "set", "Rice", "--min-stock", "2", "-q"]).status == 0)
    let path = gym.directory + "/report.html"
    let written = try gym.run(["report", "--out", path, "--since", "90d"], environment: ["GYM_LIBRARY_GOAL": "10"])
    #expect(written.status == 0, "\(written.stderr)")
    let html = try String(contentsOfFile: path, encoding: .utf8)
    // Self-contained: no script, no stylesheet or image to fetch, a policy forbidding them.
    for needle in ["<script", "<link", "<img", "<iframe", "url(", "@import", "https://"] {
      #expect(!html.contains(needle), "\(needle)")
    }
    #expect(html.contains("Content-Security-Policy") && html.contains("default-src 'none'"))
    // Text from the data is escaped, never markup.
    #expect(html.contains("Second &lt;b&gt;bold&lt;/b&gt;") && !html.contains("<b>bold</b>"))
    let dom = try chromium(["--dump-dom"], file: path, in: gym.directory)
    #expect(dom.status == 0)
    // The charts and their points, from the data: 90 days back is 91 days, and the weeks (by their
    // Monday) from the one 90 days ago to this one; one focus; the squat's four muscle groups (quads and
    // glutes, adductors and lower back); the one day with steps and the one night with sleep (a day or
    // night nothing recorded is not drawn as zero); one week with a resting heart rate; twelve months,
    // and the goal's read, expected and goal; two recipes cooked (Soup never was).
    func daysSince1970(_ offset: Int) -> Int { Int(Date().timeIntervalSince1970 / 86_400) + offset }
    // 1970-01-01 was a Thursday, so (day + 3) % 7 is 0 on a Monday: a day's Monday is that many days back.
    func monday(_ day: Int) -> Int { day - (day + 3) % 7 }
    let weeks = (monday(daysSince1970(0)) - monday(daysSince1970(-90))) / 7 + 1
    let expected: [(String, Int)] = [
      ("Sessions per week", weeks), ("Minutes per focus", 1), ("Hard sets per muscle group", 4), ("Steps per day", 1),
      ("Resting heart rate, weekly average", 1), ("Sleep per night", 1), ("Books per month, \(day(0).prefix(4))", 12),
      ("Goal \(day(0).prefix(4)): 10 books", 3), ("Most-cooked recipes", 2),
    ]
    let found = charts(in: dom.stdout)
    #expect(found.map(\.title) == expected.map(\.0))
    #expect(found.map(\.points) == expected.map(\.1))
    // Every drawn chart names itself and its axes for a screen reader, with its numbers; the four
    // category charts (focus, muscles, goal, recipes) are lists of named bars.
    #expect(dom.stdout.components(separatedBy: "<desc id=").count - 1 == expected.count - 4)
    #expect(dom.stdout.components(separatedBy: "<ol class=\"bars\"").count - 1 == 4)
    #expect(dom.stdout.contains("steps by day:") && dom.stdout.contains(" 5000"))
    // What is expiring: the two lots within a week, soonest first; the rice is not.
    let expiring = try #require(dom.stdout.range(of: "What is expiring (within 7 days)</h3>"))
    let rows = dom.stdout[expiring.upperBound...].prefix { _ in true }.components(separatedBy: "</table>")[0]
    #expect(rows.components(separatedBy: "<tr>").count - 1 == 3, "\(rows)")
    #expect(
      rows.contains("<td>Milk</td><td>1 l</td><td>\(day(-1).prefix(10))</td><td>1 past</td><td>fridge</td>"),
      "\(rows)")
    #expect(rows.contains("<td>Spinach</td><td>200 g</td><td>\(day(1).prefix(10))</td><td>in 1</td>"))
    #expect(!rows.contains("Rice"))
    #expect(dom.stdout.contains("<h3>Low on stock</h3>"))
    #expect(dom.stdout.contains("<tr><td>Rice</td><td>1 kg</td><td>2 kg</td></tr>"))
    let shot = gym.directory + "/report.png"
    #expect(
      try chromium(["--window-size=1100,1800", "--screenshot=\(shot)"], file: path, in: gym.directory).status == 0)
    #expect(try distinctBytes(png: shot) > 16)
    let pdf = gym.directory + "/report.pdf"
    #expect(
      try chromium(["--no-pdf-header-footer", "--print-to-pdf=\(pdf)"], file: path, in: gym.directory).status == 0)
    let document = try Data(contentsOf: URL(fileURLWithPath: pdf))
    #expect(document.starts(with: Array("%PDF-".utf8)) && document.count > 10_000)
  }

  /// No data: the report says so, and draws no chart and no axis.
  @Test func anEmptyDatabase() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["migrate", "up", "-q"]).status == 0)
    let path = gym.directory + "/empty.html"
    #expect(try gym.run(["report", "--out", path]).status == 0)
    let dom = try chromium(["--dump-dom"], file: path, in: gym.directory)
    #expect(dom.stdout.contains("id=\"no-data\"") && dom.stdout.contains("No data yet"))
    #expect(!dom.stdout.contains("<svg") && !dom.stdout.contains("<figure"))
    let shot = gym.directory + "/empty.png"
    #expect(try chromium(["--window-size=800,600", "--screenshot=\(shot)"], file: path, in: gym.directory).status == 0)
    #expect(FileManager.default.fileExists(atPath: shot))
  }

  /// A report that cannot be written is refused (`> /dev/full` is in HostileValueTests); the one
  /// there stays whole.
  @Test func aReportThatCannotBeWritten() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["migrate", "up", "-q"]).status == 0)
    let old = try gym.write("old.html", "<p>old</p>")
    let missing = try gym.run(["report", "--out", gym.directory + "/no/such/dir/r.html"])
    #expect(missing.status == 73 && missing.stderr.contains("cannot write"))
    #expect(try gym.run(["report", "--out", old, "--modules", "history,garden"]).status == 64)
    #expect(try String(contentsOfFile: old, encoding: .utf8) == "<p>old</p>")
    #expect(try gym.run(["report", "--out", old]).status == 0)
    #expect(try String(contentsOfFile: old, encoding: .utf8).contains("No data yet"))
    // No partial file is left behind.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter { $0.hasSuffix(".partial") }.isEmpty)
  }

  /// `export schedule --report`: the report beside the exports after each one, as the compose
  /// stack's exporter runs it.
  @Test func theSchedulerWritesTheReport() throws {
    let gym = try GymProcess()
    try fixture(gym)
    // Stopped (SIGTERM) once the first report is written, however long that took.
    let (status, log) = try gym.runUntilLogged(
      ["export", "schedule", "--every", "1h", "--out", "exports", "--report"], marker: "wrote report.html", count: 1)
    #expect(status == 0, "\(log)")
    // The nine charts of theReportInABrowser but the goal's (no library.goal here): eight, in four sections.
    #expect(log.contains("wrote report.html: 4 sections, 8 charts"), "\(log)")
    let html = try String(contentsOfFile: gym.directory + "/exports/report.html", encoding: .utf8)
    #expect(charts(in: html).count == 8)
  }
}
