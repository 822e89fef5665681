/// What a module contributes to `gym report`: its charts and tables, as data; the report renders
/// them. A module with nothing to show contributes no section.
public struct ReportSection: Sendable {
  public let id: String
  public let title: String
  public var charts: [ReportChart]
  public var tables: [ReportTable]

  public init(id: String, title: String, charts: [ReportChart] = [], tables: [ReportTable] = []) {
    self.id = id
    self.title = title
    self.charts = charts
    self.tables = tables
  }

  public var isEmpty: Bool { charts.isEmpty && tables.isEmpty }
}

/// One chart: a value per labelled point, drawn as bars or a line, with its axes named.
public struct ReportChart: Sendable {
  /// `bars` and `line` over an ordered axis (days, weeks, months); `categories` as one named
  /// horizontal bar per category (muscles, recipes, focus), largest first, `unknown` last and apart.
  public enum Kind: String, Sendable { case bars, line, categories }

  /// The category a source did not name: listed last, apart from the named ones.
  public static let unknown = "unknown"

  public struct Point: Sendable, Equatable {
    public let label: String
    public let value: Double
    public init(_ label: String, _ value: Double) {
      self.label = label
      self.value = value
    }
  }

  /// Charts over long ranges are aggregated by their module to at most this many points; a time
  /// chart still longer joins consecutive points (`joined`), never drops any.
  public static let maximumPoints = 400

  public let title: String
  public let kind: Kind
  public let xLabel: String
  public let yLabel: String
  public let points: [Point]

  /// A chart whose values are all zero has nothing to draw: a module leaves it out.
  /// A value that is not a finite number (a sum of outside values that overflowed) is left out.
  /// `sorted` (categories only): largest first, then by name, `unknown` last; else as given.
  /// `summing`: whether a run of points joins into their sum (counts, totals) or their mean
  /// (averages, such as the average night of a month); by default bars sum and lines average.
  public init?(
    title: String, kind: Kind, xLabel: String, yLabel: String, points: [Point], sorted: Bool = true,
    summing: Bool? = nil
  ) {
    var points = points.filter(\.value.isFinite)
    guard points.contains(where: { $0.value != 0 }) else { return nil }
    if kind == .categories && sorted {
      points.sort { a, b in
        (a.label == Self.unknown ? 1 : 0, -a.value, a.label) < (b.label == Self.unknown ? 1 : 0, -b.value, b.label)
      }
    }
    var xLabel = xLabel
    if kind != .categories, points.count > Self.maximumPoints {
      let size = (points.count + Self.maximumPoints - 1) / Self.maximumPoints
      points = Self.joined(points, size, summing: summing ?? (kind == .bars))
      xLabel += ", \(size) to a point"
    }
    self.title = title
    self.kind = kind
    self.xLabel = xLabel
    self.yLabel = yLabel
    self.points = points
  }

  /// Runs of `size` consecutive points as one, labelled `first – last`: bars add up (sessions,
  /// steps), a line's values are averaged (each period's average counted once).
  static func joined(_ points: [Point], _ size: Int, summing: Bool) -> [Point] {
    stride(from: 0, to: points.count, by: size).map { start in
      let run = points[start..<min(start + size, points.count)]
      let total = run.reduce(0) { $0 + $1.value }
      let label = run.count == 1 ? run[start].label : "\(run[start].label) – \(run[run.endIndex - 1].label)"
      return Point(label, summing ? total : total / Double(run.count))
    }
  }
}

/// A small table (recent records, what is expiring): text cells under their column names.
public struct ReportTable: Sendable {
  public let title: String
  public let columns: [String]
  public let rows: [[String]]

  public init?(title: String, columns: [String], rows: [[String]]) {
    guard !rows.isEmpty else { return nil }
    self.title = title
    self.columns = columns
    self.rows = rows
  }
}
