import Foundation
import Testing

/// Every Strong and Hevy layout, language and quirk seen in real exports, generated here (no one's
/// real export is committed) and imported through the binary. Each file holds the same session:
/// "Morning" on 2024-03-05 from 07:15 for 1 h 5 min (when the layout says), a warm-up bench set
/// of 20 × 10, a working set of 60 × 8.0 at RPE 8, a rest timer, and a 5-unit run of 1,800 s, in
/// the layout's units. The expected values are worked out from that, not read back from gym.
@Suite struct RealExportTests {
  struct Layout: CustomTestStringConvertible, Sendable {
    let name: String
    /// The header as the app writes it, and the English column each name stands for.
    let header: [(written: String, column: String)]
    var separator = ","
    var quoteAll = false
    var byteOrderMark = false
    var crlf = false
    /// How the layout spells 1 h 5 min; nil when it has no duration.
    var duration: String? = "1h 5m"
    var rest = "Rest Timer"
    /// Pounds and miles (else kilograms and kilometres), and the distance in metres.
    var pounds = false
    var miles = false
    var metres = false
    var arguments: [String] = []
    var testDescription: String { name }

    init(_ name: String, _ line: String, columns: String? = nil) {
      self.name = name
      let written = line.split(separator: line.contains(";") ? ";" : ",", omittingEmptySubsequences: false)
      let english = (columns ?? line).split(separator: (columns ?? line).contains(";") ? ";" : ",")
      header = zip(written, english).map { (String($0), String($1)) }
    }

    func with(_ change: (inout Layout) -> Void) -> Layout {
      var copy = self
      change(&copy)
      return copy
    }

    var has: (String) -> Bool { { column in header.contains { $0.column == column } } }

    /// The four rows, cell by cell.
    var text: String {
      let weightUnit = pounds ? "lbs" : "kg"
      let distanceUnit = miles ? "mi." : "km"
      let rows: [[String: String]] = [
        ["Exercise Name": "Bench Press (Barbell)", "Set Order": "W", "Weight": "20", "Reps": "10"],
        ["Exercise Name": "Bench Press (Barbell)", "Set Order": "1", "Weight": "60", "Reps": "8.0", "RPE": "8"],
        ["Exercise Name": "Bench Press (Barbell)", "Set Order": rest, "Seconds": "90"],
        ["Exercise Name": "Running", "Set Order": "2", "Distance": metres ? "5000" : "5", "Seconds": "1800"],
      ]
      let common = [
        "Date": "2024-03-05 07:15:00", "Workout Name": "Morning", "Duration": duration ?? "",
        "Workout Notes": "Felt good", "Workout #": "1", "Weight Unit": weightUnit, "Distance Unit": distanceUnit,
      ]
      func cell(_ text: String) -> String { quoteAll || text.contains(separator) ? "\"\(text)\"" : text }
      let end = crlf ? "\r\n" : "\n"
      var lines = [header.map { cell($0.written) }.joined(separator: separator)]
      for row in rows {
        let values = row.merging(common) { a, _ in a }
        lines.append(header.map { cell(values[$0.column] ?? "") }.joined(separator: separator))
      }
      return (byteOrderMark ? "\u{FEFF}" : "") + lines.joined(separator: end) + end
    }
  }

  static let english =
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
  static let englishShort = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE"
  static let kg = ["--weight-unit", "kg", "--distance-unit", "km"]

  static let strongLayouts: [Layout] = [
    Layout(
      "S1 units in the header", "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes",
      columns: "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes"
    ).with {
      $0.duration = nil
      $0.crlf = true
    },
    Layout(
      "S2 pounds and miles", "Date,Workout Name,Exercise Name,Set Order,lb,Reps,mi,Seconds",
      columns: "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds"
    ).with {
      $0.duration = nil
      $0.pounds = true
      $0.miles = true
    },
    Layout(
      "S2 lbs; mi.", "Date;Workout Name;Exercise Name;Set Order;lbs;Reps;mi.;Seconds",
      columns: "Date;Workout Name;Exercise Name;Set Order;Weight;Reps;Distance;Seconds"
    ).with {
      $0.duration = nil
      $0.pounds = true
      $0.miles = true
      $0.separator = ";"
    },
    Layout("S3", "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes").with {
      $0.duration = nil
      $0.pounds = true
      $0.miles = true
      $0.arguments = ["--weight-unit", "lb", "--distance-unit", "mi"]
    },
    Layout("S4", "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE")
      .with {
        $0.duration = nil
        $0.arguments = kg
      },
    Layout("S5", english).with { $0.arguments = kg },
    Layout("S6", englishShort).with {
      $0.duration = "1h 5min"
      $0.arguments = kg
    },
    Layout(
      "S7 unit columns",
      "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes"
    ).with {
      $0.separator = ";"
      $0.duration = nil
      $0.pounds = true
      $0.miles = true
    },
    Layout(
      "S8 unit columns and duration",
      "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration",
      columns:
        "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Duration"
    ).with {
      $0.separator = ";"
      $0.pounds = true
    },
    Layout(
      "S9 seconds and metres",
      "Workout #;Date;Workout Name;Duration (sec);Exercise Name;Set Order;Weight (kg);Reps;RPE;Distance (meters);Seconds;Notes;Workout Notes",
      columns:
        "Workout #;Date;Workout Name;Duration;Exercise Name;Set Order;Weight;Reps;RPE;Distance;Seconds;Notes;Workout Notes"
    ).with {
      $0.separator = ";"
      $0.quoteAll = true
      $0.duration = "3900"
      $0.metres = true
    },
    Layout(
      "S9 pounds",
      "Workout #;Date;Workout Name;Duration (sec);Exercise Name;Set Order;Weight (lbs);Reps;RPE;Distance (m);Seconds;Notes;Workout Notes",
      columns:
        "Workout #;Date;Workout Name;Duration;Exercise Name;Set Order;Weight;Reps;RPE;Distance;Seconds;Notes;Workout Notes"
    ).with {
      $0.separator = ";"
      $0.quoteAll = true
      $0.duration = "3900"
      $0.metres = true
      $0.pounds = true
    },
    Layout(
      "French",
      "Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,Notes,Notes d'entraînement,RPE",
      columns: english
    ).with {
      $0.duration = "1h 5min"
      $0.rest = "Minuteur de repos"
      $0.arguments = kg
    },
    Layout(
      "French without notes",
      "Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,RPE",
      columns: englishShort
    ).with {
      $0.duration = "1h 5min"
      $0.arguments = kg
    },
    Layout(
      "German",
      "Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,Notizen,Workout-Notizen,RPE",
      columns: english
    ).with {
      $0.duration = "1h 5min"
      $0.rest = "Ruhezeit"
      $0.arguments = kg
    },
    Layout(
      "Spanish",
      "Fecha,Nombre de entrenamiento,Duración,Nombre del ejercicio,Orden de la serie,Peso,Rep.,Distancia,Segundos,Notas,Notas del entrenamiento,RPE",
      columns: english
    ).with {
      $0.duration = "1 h 5 min"
      $0.rest = "Temporizador de descanso"
      $0.arguments = kg
    },
    Layout(
      "Portuguese",
      "Data,Nome do treino,Duração,Nome do exercício,Ordem da série,Peso,Reps,Distância,Segundos,Notas,Notas do treino,RPE",
      columns: english
    ).with {
      $0.duration = "1h 5min"
      $0.arguments = kg
    },
    Layout(
      "Italian",
      "Data,Nome dell'allenamento,Durata,Nome dell'esercizio,Ordine della serie,Peso,Ripetizioni,Distanza,Secondi,Note,Note dell'allenamento,RPE",
      columns: english
    ).with {
      $0.duration = "1h 5min"
      $0.arguments = kg
    },
    Layout(
      "Dutch",
      "Datum,Naam van training,Duur,Naam van oefening,Setvolgorde,Gewicht,Herh.,Afstand,Seconden,Notities,Trainingsnotities,RPE",
      columns: english
    ).with {
      $0.duration = "1h 5min"
      $0.arguments = kg
    },
    Layout("Chinese", "日期,锻炼名称,时长,运动名称,设置顺序,重量,次,距离,秒,备注,锻炼备注,RPE", columns: english)
      .with {
        $0.duration = "1小时5分钟"
        $0.arguments = kg
      },
    Layout(
      "Chinese 2019", "日期,锻炼名称,运动名称,设置顺序,重量,次,距离,秒,备注,锻炼备注",
      columns: "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes"
    ).with {
      $0.duration = nil
      $0.arguments = kg
    },
    Layout("S5 through a spreadsheet", english).with {
      $0.byteOrderMark = true
      $0.quoteAll = true
      $0.crlf = true
      $0.duration = "1:05:00"
      $0.arguments = kg
    },
  ]

  static func kilograms(_ value: Double, pounds: Bool) -> Double {
    pounds ? (value * 0.453_592_37 * 1000).rounded() / 1000 : value
  }

  /// The workout and its sets as `list` and `show` print them in JSON.
  static func stored(_ gym: GymProcess) throws -> (workout: [String: Any], sets: [[String: Any]]) {
    let list = try gym.run(["history", "list", "--format", "json"])
    let items = try #require(
      (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
    try #require(items.count == 1, "\(list.stdout)")
    let shown = try gym.run(["history", "show", try #require(items[0]["id"] as? String), "--format", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    return (items[0], try #require(document["sets"] as? [[String: Any]]))
  }

  @Test(arguments: strongLayouts)
  func strongLayoutImportsItsValues(layout: Layout) throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", layout.text)
    let first = try gym.run(["history", "import", "--from", "strong"] + layout.arguments + [path])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("workouts 1 inserted") && first.stderr.contains("sets 3 inserted"), "\(first.stderr)")
    let (workout, sets) = try Self.stored(gym)
    if layout.duration != nil {
      #expect(workout["durationMinutes"] as? Double == 65)
      #expect(workout["completedAt"] as? String == "2024-03-05T08:20:00.000Z")
    } else {
      #expect(workout["durationMinutes"] is NSNull)  // unknown, not zero
      #expect(workout["completedAt"] as? String == "2024-03-05T07:15:00.000Z")
    }
    #expect(workout["focus"] is NSNull)  // "Morning" says nothing of a focus
    #expect(layout.has("RPE") ? workout["intensity"] as? String == "moderate" : workout["intensity"] is NSNull)
    #expect(layout.has("Workout Notes") ? workout["notes"] as? String == "Felt good" : workout["notes"] is NSNull)
    #expect(sets.map { $0["kind"] as? String } == ["warmup", "normal", "normal"])
    #expect(sets.map { $0["exercise"] as? String } == ["Bench Press (Barbell)", "Bench Press (Barbell)", "Running"])
    let weights = [20.0, 60].map { Self.kilograms($0, pounds: layout.pounds) }
    #expect(sets.map { $0["weightKg"] as? Double } == [weights[0], weights[1], nil])
    #expect(sets.map { $0["reps"] as? Int } == [10, 8, nil])
    let km = layout.miles ? (5 * 1.609_344 * 1000).rounded() / 1000 : 5
    #expect(sets[2]["distanceKm"] as? Double == km)
    #expect(sets[2]["durationSeconds"] as? Double == 1800)
    let again = try gym.run(["history", "import", "--from", "strong"] + layout.arguments + [path])
    #expect(
      again.stderr.contains("workouts 0 inserted, 0 updated, 1 unchanged; sets 0 inserted, 0 updated, 3 unchanged"),
      "\(again.stderr)")
  }

  /// Hevy: every header name quoted behind a spreadsheet's byte-order mark, the four combinations
  /// of weight and distance columns, and the start and end times in each language.
  @Test(
    arguments: [
      ("5 Mar 2024, 07:15", "5 Mar 2024, 08:20"), ("Mar 5, 2024, 7:15 AM", "Mar 5, 2024, 8:20 AM"),
      ("5 mar 2024, 07:15", "5 mar 2024, 08:20"), ("5 Mar 2024, 07:15", "5 Mar 2024, 08:20"),
      ("5 de mar. de 2024, 07:15", "5 de mar. de 2024, 08:20"), ("5. März 2024, 07:15", "5. März 2024, 08:20"),
      ("05.03.2024, 07:15", "05.03.2024, 08:20"), ("5 mars 2024, 07:15", "5 mars 2024, 08:20"),
      ("5 mrt 2024, 07:15", "5 mrt 2024, 08:20"), ("2024-03-05T07:15:00Z", "2024-03-05T08:20:00Z"),
    ].enumerated().map { ($0.offset, $0.element.0, $0.element.1) })
  func hevyLanguagesAndUnits(index: Int, start: String, end: String) throws {
    let pounds = index % 2 == 1
    let miles = index % 4 >= 2
    let weight = pounds ? "weight_lbs" : "weight_kg"
    let distance = miles ? "distance_miles" : "distance_km"
    let columns = [
      "title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes", "set_index",
      "set_type", weight, "reps", distance, "duration_seconds", "rpe",
    ]
    func row(
      _ exercise: String, _ index: Int, _ type: String, _ w: String, _ reps: String, _ d: String, _ s: String,
      _ rpe: String
    ) -> String {
      "\"Morning\",\"\(start)\",\"\(end)\",\"\",\"\(exercise)\",,,\(index),\(type),\(w),\(reps),\(d),\(s),\(rpe)"
    }
    let text =
      "\u{FEFF}" + columns.map { "\"\($0)\"" }.joined(separator: ",") + "\n"
      + row("Bench Press (Barbell)", 0, "warmup", "20", "10", "", "", "") + "\n"
      + row("Bench Press (Barbell)", 1, "normal", "60", "8", "", "", "8") + "\n"
      + row("Running", 0, "normal", "", "", "5", "1800", "") + "\n"
    let gym = try GymProcess()
    let path = try gym.write("hevy.csv", text)
    let imported = try gym.run(["history", "import", "--from", "hevy", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let (workout, sets) = try Self.stored(gym)
    #expect(workout["completedAt"] as? String == "2024-03-05T08:20:00.000Z")
    #expect(workout["durationMinutes"] as? Double == 65)
    #expect(workout["focus"] is NSNull)
    let weights = [20.0, 60].map { Self.kilograms($0, pounds: pounds) }
    #expect(sets.map { $0["weightKg"] as? Double } == [weights[0], weights[1], nil])
    #expect(sets[2]["distanceKm"] as? Double == (miles ? (5 * 1.609_344 * 1000).rounded() / 1000 : 5))
    let again = try gym.run(["history", "import", "--from", "hevy", path])
    #expect(again.stderr.contains("workouts 0 inserted, 0 updated, 1 unchanged"), "\(again.stderr)")
  }

  /// Without --from, every layout and language is recognised as Strong by its header.
  @Test(arguments: strongLayouts)
  func strongLayoutIsRecognisedByItsHeader(layout: Layout) throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", layout.text)
    let result = try gym.run(["history", "import"] + layout.arguments + [path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("reading \(path) as a Strong export (from its header)"), "\(result.stderr)")
    #expect(
      result.stderr.contains("workouts 1 inserted") && result.stderr.contains("sets 3 inserted"), "\(result.stderr)")
  }

  @Test func aHevyDateGymCannotReadNamesLineColumnAndValue() throws {
    let gym = try GymProcess()
    let path = try gym.write(
      "hevy.csv",
      "title,start_time,end_time,exercise_title,set_type,weight_kg,reps\nA,5 Mar 2024 07:15,5 Mar 2024 08:20,X,normal,1,1\n"
        + "B,5 Zzz 2024 07:15,5 Mar 2024 08:20,X,normal,1,1\n")
    let result = try gym.run(["history", "import", "--from", "hevy", path, "--strict"])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("hevy.csv:3: column 'start_time': '5 Zzz 2024 07:15' is not a time"), "\(result.stderr)")
    // With --strict the good row before it is not imported either: no database is made at all.
    #expect(try gym.run(["history", "count"]).status == 66)
    // Without, the row is skipped and told, and the good one imported.
    let kept = try gym.run(["history", "import", "--from", "hevy", path])
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(
      kept.stderr.contains("hevy.csv:3: skipped: column 'start_time': '5 Zzz 2024 07:15' is not a time"),
      "\(kept.stderr)")
    #expect(kept.stderr.contains("workouts 1 inserted") && kept.stderr.contains("1 record skipped (line 3)"))
    #expect(try gym.run(["history", "count"]).stdout == "1\n")
  }

  /// Close but wrong: a required column missing, or a header in a language gym does not know.
  @Test(arguments: [
    ("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Distance,Seconds", "missing column(s) Reps"),
    (
      "Data,Nazwa treningu,Czas trwania,Nazwa ćwiczenia,Kolejność serii,Ciężar,Powtórzenia",
      "unknown column(s) Nazwa treningu, Czas trwania, Nazwa ćwiczenia, Kolejność serii, Ciężar, Powtórzenia"
    ),
  ])
  func aLayoutThatIsCloseButWrongIsOneLine(header: String, expected: String) throws {
    let gym = try GymProcess()
    let path = try gym.write("strong.csv", header + "\n2024-03-05 07:15:00,A,1h,X,1,1,1,1\n")
    let result = try gym.run(["history", "import", "--from", "strong", "--weight-unit", "kg", path])
    #expect(result.status == 65)
    #expect(result.stderr.contains(expected), "\(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(!FileManager.default.fileExists(atPath: gym.databasePath))
  }
}
