import Foundation
import Testing

/// `gym report` on long histories, measured in headless Chromium at a phone's width (390 px) and a
/// desk's (1280 px): the default period follows the data, a long period is drawn at a coarser grain
/// and never cut, every category bar is named, and (from the laid-out DOM) no chart text is under
/// 11 CSS px, no two labels of a chart overlap and nothing is wider than the window.
@Suite(.serialized) struct ReportLayoutTests {
  let browser = ReportBrowserTests()

  /// The ten exercises of every workout and, from Config/muscles.yaml, the groups they work:
  /// squat (quads, glutes; adductors, lower back), bench press (chest; triceps, front delts), pull up
  /// (lats; biceps, upper back), deadlift (glutes, hamstrings, lower back; quads, traps, forearms),
  /// lateral raise (side delts), face pull (rear delts; upper back), calf raise (calves), plank (abs;
  /// obliques), hip abductor (abductors), neck curls (neck): 20 groups.
  static let exercises = [
    "Squat (Barbell)", "Bench Press (Barbell)", "Pull Up", "Deadlift (Barbell)", "Lateral Raise (Dumbbell)",
    "Face Pull (Cable)", "Calf Raise", "Plank", "Hip Abductor (Machine)", "Lying Neck Curls (Weighted)",
  ]

  static func day(_ offset: Int, _ time: String = "12:00:00") -> String {
    let format = DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    return format.string(from: Date().addingTimeInterval(Double(offset) * 86_400)) + "T\(time).000Z"
  }

  /// A lifter: a workout a week for 300 weeks, the last 200 days ago; every fourth with no focus.
  func lifter(_ gym: GymProcess) throws {
    let focuses = ["\"legs\"", "\"push\"", "\"pull\"", "null"]
    let lines = (0..<300).map { week in
      let sets = Self.exercises.enumerated().map { position, exercise in
        #"{"position":\#(position + 1),"exercise":"\#(exercise)","kind":"normal","weightKg":20,"reps":10}"#
      }
      return
        #"{"id":"00000000-0000-4000-8000-\#(String(format: "%012d", week))","completedAt":"\#(Self.day(-200 - week * 7))","status":"completed","planTitle":"Full","focus":\#(focuses[week % 4]),"durationMinutes":60,"sets":[\#(sets.joined(separator: ","))]}"#
    }
    let result = try gym.run([
      "history", "import", try gym.write("w.ndjson", lines.joined(separator: "\n") + "\n"), "-q",
    ])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A watch wearer whose export ends in 2019: 2018-01-01 to 2019-06-30, each day 8,000 steps, each
  /// night 360 minutes of core sleep, 60 of REM and 30 awake (7 hours asleep), a resting rate a week.
  func watch(_ gym: GymProcess) throws {
    var lines: [String] = []
    var date = DateComponents(calendar: Calendar(identifier: .gregorian), year: 2018, month: 1, day: 1).date!
    let format = DateFormatter()
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = "yyyy-MM-dd"
    var index = 0
    while format.string(from: date) <= "2019-06-30" {
      let d = format.string(from: date)
      let next = format.string(from: date.addingTimeInterval(86_400))
      func sample(_ type: String, _ start: String, _ end: String, _ value: Int, _ unit: String, _ stage: String)
        -> String
      {
        #"{"type":"\#(type)","start":"\#(start)","end":"\#(end)","value":\#(value),"unit":"\#(unit)","stage":"\#(stage)","source":"Watch"}"#
      }
      lines.append(sample("steps", "\(d)T10:00:00.000Z", "\(d)T11:00:00.000Z", 8000, "count", "none"))
      lines.append(sample("sleep", "\(d)T22:00:00.000Z", "\(next)T04:00:00.000Z", 360, "min", "asleepCore"))
      lines.append(sample("sleep", "\(next)T04:00:00.000Z", "\(next)T05:00:00.000Z", 60, "min", "asleepREM"))
      lines.append(sample("sleep", "\(next)T05:00:00.000Z", "\(next)T05:30:00.000Z", 30, "min", "awake"))
      if index % 7 == 0 {
        lines.append(sample("restingHeartRate", "\(d)T08:00:00.000Z", "\(d)T08:00:00.000Z", 55, "count/min", "none"))
      }
      date = date.addingTimeInterval(86_400)
      index += 1
    }
    let result = try gym.run([
      "history", "samples", "import", try gym.write("s.ndjson", lines.joined(separator: "\n") + "\n"), "-q",
    ])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A cook: eight recipes cooked 1 to 8 times, with long names.
  func cook(_ gym: GymProcess) throws {
    let recipes = (1...8).map { #"{"name":"Slow-cooked winter vegetable stew number \#($0)","usageCount":\#($0)}"# }
    let result = try gym.run([
      "staples", "import", "--recipes", try gym.write("r.ndjson", recipes.joined(separator: "\n") + "\n"), "-q",
    ])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A reader: 40 books finished every 25 days up to 10 days ago, 150 to 540 pages, rated 1 to 5.
  func reader(_ gym: GymProcess) throws {
    var csv = "Book Id,Title,Author,Exclusive Shelf,Date Read,Read Count,Number of Pages,My Rating\n"
    for n in 0..<40 {
      let day = Self.day(-10 - n * 25).prefix(10).replacingOccurrences(of: "-", with: "/")
      csv +=
        "\(n + 1),A Book With A Long Title Number \(n + 1),Author \(n % 7),read,\(day),1,\(150 + n * 10),\(1 + n % 5)\n"
    }
    let result = try gym.run(["library", "import", "goodreads", try gym.write("g.csv", csv), "-q"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func thePeriodFollowsTheData() throws {
    ClockEdge.avoidMidnight()  // the data and the checks name the same days
    let gym = try GymProcess()
    try lifter(gym)
    let path = gym.directory + "/r.html"
    // Without --since: the last 12 months of the data, ending at the last workout (200 days ago).
    #expect(try gym.run(["report", "--out", path]).status == 0)
    var html = try String(contentsOfFile: path, encoding: .utf8)
    #expect(html.contains("to \(Self.day(-200).prefix(10)): the last 12 months of your data"), "\(html.prefix(1500))")
    #expect(!html.contains("id=\"no-data\""))
    // 12 months back from a day: 365 days, by month (more than half a year): 12 or 13 months named.
    let sessions = browser.charts(in: html).first { $0.title.hasPrefix("Sessions per") }
    #expect(sessions?.title == "Sessions per month")
    #expect([12, 13].contains(sessions?.points ?? 0))
    // The commands that count periods back take no --since all (it would quietly be their default).
    let daily = try gym.run(["history", "daily", "--type", "steps", "--since", "all"])
    #expect(daily.status == 64 && daily.stderr.contains("--since all is not taken here"))
    // A period with no data says where the data is.
    #expect(try gym.run(["report", "--out", path, "--since", "90d"]).status == 0)
    html = try String(contentsOfFile: path, encoding: .utf8)
    #expect(html.contains("No data in this period: your latest workout is \(Self.day(-200).prefix(10))"))
    // --since all: the whole 300 weeks (about 5.7 years), by quarter: one bar per quarter from the
    // first workout's to the last's, none cut.
    #expect(try gym.run(["report", "--out", path, "--since", "all"]).status == 0)
    html = try String(contentsOfFile: path, encoding: .utf8)
    let first = Self.day(-200 - 299 * 7)
    let last = Self.day(-200)
    func quarter(_ text: String) -> Int { Int(text.prefix(4))! * 4 + (Int(text.dropFirst(5).prefix(2))! - 1) / 3 }
    let all = browser.charts(in: html).first { $0.title.hasPrefix("Sessions per") }
    #expect(all?.title == "Sessions per quarter")
    #expect(all?.points == quarter(last) - quarter(first) + 1)
    #expect(html.contains("From \(first.prefix(10)) to "))
  }

  /// A watch whose export ends in 2019: the default period ends with it, and its last nights are
  /// listed as `history sleep` counts them: 360 minutes of core and 60 of REM asleep (7 h), 30 awake, no
  /// in-bed time recorded.
  @Test func aWatchThatStoppedIn2019() throws {
    let gym = try GymProcess()
    try watch(gym)
    let path = gym.directory + "/r.html"
    #expect(try gym.run(["report", "--out", path]).status == 0)
    let html = try String(contentsOfFile: path, encoding: .utf8)
    // The last sample starts 2019-07-01 05:00 (the last night's awake half hour).
    #expect(html.contains("to 2019-07-01: the last 12 months of your data"), "\(html.prefix(1200))")
    #expect(html.contains("<h3>The last nights</h3>"))
    #expect(
      html.contains(
        "<tr><td>2019-07-01</td><td></td><td>7 h 00</td><td></td><td>1 h 00</td><td>6 h 00</td><td>0 h 30</td></tr>"))
    #expect(
      html.components(separatedBy: "<h3>The last nights</h3>")[1].components(separatedBy: "</table>")[0]
        .components(separatedBy: "<tr><td>").count - 1 == 7)
  }

  /// What a page measures of itself, from a copy with a script at its end (the report itself has
  /// none and forbids them), laid out in a frame of the width measured.
  struct Measurements: Decodable {
    let viewport: Double
    let scrollWidth: Double
    let charts: Int
    let texts: Int
    let minFont: Double
    let small: [String]
    let overlaps: [String]
    let unnamed: Int
    let bars: Int
    /// Table cells that hold a date and take more than one line.
    let wrappedDates: [String]
  }

  static let measure = """
    <script>
    (() => {
      const out = { viewport: innerWidth, scrollWidth: document.documentElement.scrollWidth, charts: 0, texts: 0,
        minFont: 1e9, small: [], overlaps: [], unnamed: 0, bars: 0, wrappedDates: [] };
      const shown = el => { const s = getComputedStyle(el); const r = el.getBoundingClientRect();
        return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
      const size = el => { const f = parseFloat(getComputedStyle(el).fontSize);
        if (el.tagName.toLowerCase() !== 'text') return f; const m = el.getScreenCTM(); return f * Math.hypot(m.a, m.b); };
      const note = (el, what) => { const s = size(el); out.texts++; out.minFont = Math.min(out.minFont, s);
        if (s < 11) out.small.push(what + ' "' + el.textContent.trim().slice(0, 30) + '" ' + s.toFixed(1)); };
      for (const figure of document.querySelectorAll('figure.chart')) {
        out.charts++;
        const title = figure.querySelector('h3').textContent;
        const boxes = [];
        for (const text of figure.querySelectorAll('svg text')) {
          if (!shown(text)) continue;
          note(text, title);
          boxes.push([text.textContent, text.getBoundingClientRect()]);
        }
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i][1], b = boxes[j][1];
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            out.overlaps.push(title + ': ' + boxes[i][0] + ' / ' + boxes[j][0]);
        }
        for (const row of figure.querySelectorAll('.bars li')) {
          out.bars++;
          const label = row.querySelector('.label');
          if (!label || !label.textContent.trim() || !shown(label)) out.unnamed++; else note(label, title);
        }
      }
      for (const el of document.querySelectorAll('h1, h2, h3, p, td, th, summary')) if (shown(el)) note(el, el.tagName);
      for (const cell of document.querySelectorAll('td')) {
        if (!/^\\d{4}-\\d{2}-\\d{2}/.test(cell.textContent) || !cell.firstChild) continue;
        const range = document.createRange();
        range.selectNodeContents(cell);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) out.wrappedDates.push(cell.textContent);
      }
      parent.postMessage(JSON.stringify(out), '*');
    })();
    </script>
    """

  /// The page that holds the copy in a frame `width` px wide (Chromium's window is at least 500 px)
  /// and writes what the copy measured into its own DOM.
  static func frame(_ file: String, width: Int) -> String {
    """
    <!doctype html><html><body style="margin: 0"><pre id="measurements"></pre>
    <iframe src="\(file)" style="border: 0; width: \(width)px; height: 4000px"></iframe>
    <script>addEventListener('message', e => { document.getElementById('measurements').textContent = e.data; });</script>
    </body></html>
    """
  }

  /// The report laid out at `width`: its own measurements.
  func measure(_ report: String, width: Int, in directory: String) throws -> Measurements {
    var html = try String(contentsOfFile: report, encoding: .utf8)
    // The copy only: without the policy, with the script.
    html = html.replacingOccurrences(
      of: #"<meta http-equiv="Content-Security-Policy" content="\#(policy)">"#, with: "")
    html = html.replacingOccurrences(of: "</body>", with: Self.measure + "</body>")
    let copy = "measured-\(width).html"
    try html.write(toFile: directory + "/" + copy, atomically: true, encoding: .utf8)
    let frame = directory + "/frame-\(width).html"
    try Self.frame(copy, width: width).write(toFile: frame, atomically: true, encoding: .utf8)
    let dom = try browser.chromium(
      ["--dump-dom", "--window-size=1400,2000", "--virtual-time-budget=10000"], file: frame, in: directory)
    let json = try #require(
      dom.stdout.components(separatedBy: "<pre id=\"measurements\">").dropFirst().first?
        .components(separatedBy: "</pre>").first)
    let text = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    return try JSONDecoder().decode(Measurements.self, from: Data(text.utf8))
  }

  let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

  @Test func theWholeHistoryReadsOnAPhoneAndADesk() throws {
    ClockEdge.avoidMidnight()
    let gym = try GymProcess()
    try lifter(gym)
    try watch(gym)
    try cook(gym)
    try reader(gym)
    // The default period ends with the latest book (10 days ago): the watch's samples, which stopped in
    // 2019, are named under the title, not silently left out.
    let recent = gym.directory + "/recent.html"
    #expect(try gym.run(["report", "--out", recent]).status == 0)
    #expect(
      try String(contentsOfFile: recent, encoding: .utf8).contains(
        "<p id=\"outside\">Not in this period: your latest health sample is 2019-07-01"))
    // A --since after now is refused, not drawn as an empty or broken page.
    #expect(try gym.run(["report", "--out", recent, "--since", "2999-01-01"]).status == 64)
    let path = gym.directory + "/all.html"
    let written = try gym.run(["report", "--out", path, "--since", "all"])
    #expect(written.status == 0, "\(written.stderr)")
    let html = try String(contentsOfFile: path, encoding: .utf8)
    let charts = browser.charts(in: html)
    // Every muscle group named (20, see `exercises`), every recipe (8), the focus chart's three
    // named foci and `unknown` apart, last.
    #expect(charts.first { $0.title == "Hard sets per muscle group" }?.points == 20)
    #expect(charts.first { $0.title == "Most-cooked recipes" }?.points == 8)
    let focus = try #require(html.components(separatedBy: "<h3>Minutes per focus</h3>").dropFirst().first)
      .components(separatedBy: "</figure>")[0]
    #expect(focus.contains("<ol class=\"bars unknown\""))
    #expect(
      focus.components(separatedBy: "class=\"label\">").dropFirst().map { $0.prefix { $0 != "<" } }.last == "unknown")
    // Sleep over the 18 months of the watch, by month: each night 360 + 60 minutes asleep (the 30
    // awake are not sleep), 7 hours.
    let sleep = try #require(html.components(separatedBy: "hours asleep by month: ").dropFirst().first)
      .components(separatedBy: "</desc>")[0]
    let values = sleep.components(separatedBy: "; ").compactMap { $0.split(separator: " ").last.map(String.init) }
    #expect(values.count >= 18 && values.allSatisfy { $0 == "7" }, "\(sleep)")
    // Records by their names, with units and the set: every set is 20 kg × 10, so the first workout's
    // bench press (first of the ten by name) holds the heaviest (20 kg), the e1RM (20 × (1 + 10/30) =
    // 26.7 kg), the set volume (200 kg) and the session volume (its one set: 200 kg, 10 reps).
    let first = Self.day(-200 - 299 * 7).prefix(10)
    #expect(
      html.contains("<td>\(first)</td><td>Bench Press (Barbell)</td><td>Heaviest</td><td>20 kg</td><td>20 kg × 10</td>")
    )
    #expect(html.contains("<td>Bench Press (Barbell)</td><td>Est. 1RM (Epley)</td><td>26.7 kg</td>"))
    #expect(html.contains("<td>Bench Press (Barbell)</td><td>Best set volume</td><td>200 kg</td>"))
    #expect(html.contains("<td>Best session volume</td><td>200 kg</td><td>10 reps in the session</td>"))
    #expect(!html.contains("setVolume") && !html.contains(">e1RM<"))
    for width in [390, 1280] {
      let measured = try measure(path, width: width, in: gym.directory)
      #expect(measured.viewport == Double(width))
      #expect(measured.charts == charts.count && measured.texts > 100)
      #expect(measured.small.isEmpty, "at \(width) px: \(measured.small.prefix(5))")
      #expect(measured.minFont >= 11, "at \(width) px")
      #expect(measured.overlaps.isEmpty, "at \(width) px: \(measured.overlaps.prefix(5))")
      #expect(measured.unnamed == 0 && measured.bars >= 20 + 8 + 4)
      #expect(measured.scrollWidth <= measured.viewport, "at \(width) px the page is \(measured.scrollWidth) wide")
      #expect(measured.wrappedDates.isEmpty, "at \(width) px: \(measured.wrappedDates.prefix(3))")
    }
  }
}
