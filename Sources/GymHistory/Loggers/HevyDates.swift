import Foundation
import GymCore

/// Hevy writes a workout's times in the export's language: `8 Apr 2026, 16:50`,
/// `Jun 11, 2026, 1:01 PM`, `17 may 2024, 15:05`, `3 de set. de 2026, 15:30`, `25. Juli 2026, 14:21`,
/// `03.09.2026, 15:30`, or ISO 8601. All are local time. A new language is a row in `months`.
enum HevyDates {
  /// Month names and abbreviations, January first, per language (lower case, without dots).
  static let months: [String: [[String]]] = [
    "en": [
      ["jan", "january"], ["feb", "february"], ["mar", "march"], ["apr", "april"], ["may"], ["jun", "june"],
      ["jul", "july"], ["aug", "august"], ["sep", "sept", "september"], ["oct", "october"], ["nov", "november"],
      ["dec", "december"],
    ],
    "es": [
      ["ene", "enero"], ["feb", "febrero"], ["mar", "marzo"], ["abr", "abril"], ["may", "mayo"], ["jun", "junio"],
      ["jul", "julio"], ["ago", "agosto"], ["sep", "sept", "septiembre", "setiembre"], ["oct", "octubre"],
      ["nov", "noviembre"], ["dic", "diciembre"],
    ],
    "pt": [
      ["jan", "janeiro"], ["fev", "fevereiro"], ["mar", "março"], ["abr", "abril"], ["mai", "maio"], ["jun", "junho"],
      ["jul", "julho"], ["ago", "agosto"], ["set", "setembro"], ["out", "outubro"], ["nov", "novembro"],
      ["dez", "dezembro"],
    ],
    "fr": [
      ["janv", "janvier"], ["févr", "fevr", "février"], ["mars"], ["avr", "avril"], ["mai"], ["juin"],
      ["juil", "juillet"], ["août", "aout"], ["sept", "septembre"], ["oct", "octobre"], ["nov", "novembre"],
      ["déc", "dec", "décembre"],
    ],
    "de": [
      ["jan", "januar", "jän", "jänner"], ["feb", "februar"], ["mär", "märz"], ["apr", "april"], ["mai"],
      ["jun", "juni"], ["jul", "juli"], ["aug", "august"], ["sep", "sept", "september"], ["okt", "oktober"],
      ["nov", "november"], ["dez", "dezember"],
    ],
    "it": [
      ["gen", "gennaio"], ["feb", "febbraio"], ["mar", "marzo"], ["apr", "aprile"], ["mag", "maggio"],
      ["giu", "giugno"], ["lug", "luglio"], ["ago", "agosto"], ["set", "settembre"], ["ott", "ottobre"],
      ["nov", "novembre"], ["dic", "dicembre"],
    ],
    "nl": [
      ["jan", "januari"], ["feb", "februari"], ["mrt", "maart"], ["apr", "april"], ["mei"], ["jun", "juni"],
      ["jul", "juli"], ["aug", "augustus"], ["sep", "sept", "september"], ["okt", "oktober"], ["nov", "november"],
      ["dec", "december"],
    ],
    "tr": [
      ["oca", "ocak"], ["şub", "şubat"], ["mar", "mart"], ["nis", "nisan"], ["may", "mayıs"], ["haz", "haziran"],
      ["tem", "temmuz"], ["ağu", "ağustos"], ["eyl", "eylül"], ["eki", "ekim"], ["kas", "kasım"], ["ara", "aralık"],
    ],
  ]

  /// Every name → its month (1–12). No name means two months across these languages.
  static let monthNumbers: [String: Int] = {
    var numbers: [String: Int] = [:]
    for names in months.values {
      for (index, spellings) in names.enumerated() {
        for name in spellings { numbers[name] = index + 1 }
      }
    }
    return numbers
  }()

  /// Words that stand between a date's parts in some languages (`3 de set. de 2026`).
  static let fillers: Set<String> = ["de", "del"]

  /// A local date and time as a start or end writes it, before it is placed in time.
  struct Written: Equatable {
    let year, month, day, hour, minute, second: Int
  }

  static func parse(_ text: String) -> Timestamp? {
    if let iso = Timestamp(parsingDateTime: text) { return iso }
    guard let written = written(text) else { return nil }
    func pad(_ n: Int, _ width: Int = 2) -> String {
      String(repeating: "0", count: max(0, width - String(n).count)) + String(n)
    }
    return Timestamp(
      parsing: "\(pad(written.year, 4))-\(pad(written.month))-\(pad(written.day)) "
        + "\(pad(written.hour)):\(pad(written.minute)):\(pad(written.second))")
  }

  /// The local date and time a text says: in one of the languages, or ISO 8601 without a zone
  /// (`2024-01-12 18:30:00`, `2024-01-12T18:30`); nil for anything else.
  static func written(_ text: String) -> Written? {
    if let iso = isoLocal(text) { return iso }
    // The 12-hour marker as English and Spanish devices write it: PM, p.m., p. m.
    var text = text.lowercased()
    for (written, marker) in [("a. m.", "am"), ("p. m.", "pm"), ("a.m.", "am"), ("p.m.", "pm")] {
      text = text.replacingOccurrences(of: written, with: marker)
    }
    var words = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { word in
      String(word.hasSuffix(".") && word.count > 1 && !word.dropLast().contains(".") ? word.dropLast() : word)
        .lowercased()
    }
    words.removeAll { fillers.contains($0) }
    var marker: String?
    if let last = words.last, last == "am" || last == "pm" {
      marker = last
      words.removeLast()
    }
    guard let time = words.last, words.count >= 2, let (hour, minute, second) = clock(time, marker: marker) else {
      return nil
    }
    words.removeLast()
    let date: (day: Int, month: Int, year: Int)?
    switch words.count {
    case 1:  // 03.09.2026
      let parts = words[0].split(separator: ".").map { Int($0) }
      date = parts.count == 3 ? parts[0].flatMap { d in parts[1].flatMap { m in parts[2].map { (d, m, $0) } } } : nil
    case 3:
      if let day = Int(words[0]), let month = monthNumbers[words[1]], let year = Int(words[2]) {
        date = (day, month, year)
      } else if let month = monthNumbers[words[0]], let day = Int(words[1]), let year = Int(words[2]) {
        date = (day, month, year)  // English (US): Jun 11, 2026
      } else {
        date = nil
      }
    default: date = nil
    }
    // Four-digit years only: `03.09.26` could be 1926 or 2026, and gym does not guess.
    guard let (day, month, year) = date, (1...31).contains(day), (1...12).contains(month), (1000...9999).contains(year)
    else { return nil }
    return Written(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// `2024-01-12 18:30`, `2024-01-12T18:30:05`: ISO 8601's local date and time, no zone.
  private static func isoLocal(_ text: String) -> Written? {
    let bytes = Array(text.utf8)
    guard bytes.count == 16 || bytes.count == 19, bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      guard bytes[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
      return bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (13, ":")] + (bytes.count == 19 ? [(16, ":")] : [])
    guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }), let year = number(0..<4),
      let month = number(5..<7),
      let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
    else { return nil }
    let second = bytes.count == 19 ? number(17..<19) : 0
    guard let second, second < 60 else { return nil }
    return Written(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// The texts Hevy has written, or may write, for this time in the styles it exports: each
  /// language's date (English day first and US, Spanish, Portuguese and Brazil's, Turkish, French,
  /// German's three, Italian, Dutch) with a 24-hour time (hours with and without a leading zero, with
  /// and without seconds), the English and Spanish ones also with a 12-hour time (`6:30 PM`, `6:30 p. m.`),
  /// and ISO 8601. A session exported once in one style and once in another is one session: its
  /// earlier key is among these. Each reads back as this time (`HevyDatesTests`).
  static func spellings(_ written: Written) -> [String] {
    func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let (d, m, y, minute) = ("\(written.day)", written.month - 1, "\(written.year)", pad(written.minute))
    let seconds = [":" + pad(written.second)] + (written.second == 0 ? [""] : [])
    let hours = Set(["\(pad(written.hour))", "\(written.hour)"]).sorted()
    let clocks = hours.flatMap { hour in seconds.map { "\(hour):\(minute)\($0)" } }
    let twelve = (written.hour + 11) % 12 + 1
    let evening = written.hour >= 12
    let twelveHour = seconds.flatMap { second in
      [evening ? "PM" : "AM", evening ? "p. m." : "a. m.", evening ? "p.m." : "a.m."].map {
        "\(twelve):\(minute)\(second) \($0)"
      }
    }
    let english = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m]
    let englishDates = Set([english, m == 8 ? "Sept" : english]).sorted().flatMap { month in
      ["\(d) \(month) \(y)", "\(month) \(d), \(y)"]
    }
    let spanish = Set([
      ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"][m],
      ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"][m],
    ]).sorted().map { "\(d) \($0) \(y)" }
    let german = [
      "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
      "Dezember",
    ][m]
    let otherDates =
      [
        ["Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez"][m],
        ["Oca", "Şub", "Mar", "Nis", "May", "Haz", "Tem", "Ağu", "Eyl", "Eki", "Kas", "Ara"][m],
        ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."][m],
        ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"][m],
        ["jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"][m],
        german,
      ].map { "\(d) \($0) \(y)" } + [
        "\(d) de \(["jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."][m]) de \(y)",
        "\(d). \(german) \(y)", "\(pad(written.day)).\(pad(m + 1)).\(y)",
      ]
    let iso = "\(y)-\(pad(m + 1))-\(pad(written.day))"
    let isoTimes = seconds.flatMap { second in
      [" ", "T"].map { "\(iso)\($0)\(pad(written.hour)):\(minute)\(second)" }
    }
    let dated = (englishDates + spanish + otherDates).flatMap { date in clocks.map { "\(date), \($0)" } }
    let dated12 = (englishDates + spanish).flatMap { date in twelveHour.map { "\(date), \($0)" } }
    var seen: Set<String> = []  // the same month name in two languages spells one text
    return (dated + dated12 + isoTimes).filter { seen.insert($0).inserted }
  }

  /// `16:50`, `16:50:05`, or `1:01` with a 12-hour marker.
  private static func clock(_ text: String, marker: String?) -> (Int, Int, Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, let hour = Int(parts[0]), let minute = Int(parts[1]),
      (0..<60).contains(minute), parts.allSatisfy({ (1...2).contains($0.count) })
    else { return nil }
    var second = 0
    if parts.count == 3 {
      guard let read = Int(parts[2]), (0..<60).contains(read) else { return nil }
      second = read
    }
    guard let marker else { return (0..<24).contains(hour) ? (hour, minute, second) : nil }
    guard (1...12).contains(hour) else { return nil }
    return (hour % 12 + (marker.hasPrefix("p") ? 12 : 0), minute, second)
  }
}
