import Foundation
import GRDB
import GymCore
import GymModules
import Testing

/// A table marked `checksFollowFromFields` has its CHECKs skipped during a bulk append, so the
/// loader must refuse every value they refuse. Candidates are generated from the CHECK expressions
/// themselves (each literal, one either side of each number, other spellings of each word) plus
/// edge values; whatever SQLite's CHECK refuses, the loader must refuse too, and every CHECK must
/// refuse at least one candidate (or the test proves nothing about it).
@Suite struct CheckConstraintTests {
  static let edges = ["-1e30", "1e30", "-0", "nan", "inf", "9223372036854775808", "-9223372036854775809", "", " "]

  /// Values made from the literals of `checks`.
  static func candidates(from checks: [String]) -> [String] {
    var values = Set(edges)
    for check in checks {
      for match in check.matches(of: /'((?:[^']|'')*)'/) {
        let word = String(match.1)
        values.formUnion([word, word.uppercased(), word + "x", String(word.dropLast()), " " + word])
      }
      let unquoted = check.replacing(/'(?:[^']|'')*'/, with: "''")
      for match in unquoted.matches(of: /\b(\d+(?:\.\d+)?)\b/) {
        let number = Double(match.1)!
        for value in [number, number - 1, number - 0.5, number + 0.5, number + 1, -number] {
          values.insert(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
        }
      }
    }
    return values.sorted()
  }

  /// A value each field's validation accepts: the base record every candidate is tried in.
  static func valid(_ field: Field) -> String {
    switch field.type {
    case .text: "x"
    case .uuid: "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    case .timestamp: "2026-01-01T00:00:00.000Z"
    case .enumeration(let allowed): allowed[0]
    case .integer, .real: field.bounds.map { String(Int64($0.lowerBound)) } ?? "1"
    case .bool: "true"
    }
  }

  @Test func theLoaderRefusesEveryValueACheckRefuses() throws {
    let tables = registeredModules.flatMap(\.tables).filter(\.checksFollowFromFields)
    #expect(tables.map(\.name).contains("workout"))
    let store = try Store(path: try MigrationFixtures.temporaryPath(), modules: registeredModules)
    for table in tables {
      try store.write { db in
        let checks = try CheckConstraints.expressions(db, table: table.name)
        #expect(!checks.isEmpty, "\(table.name) has no CHECK to follow")
        var refusedChecks: Set<String> = []
        let columns = table.fields.map { SQL.quote($0.name) }.joined(separator: ", ")
        let marks = table.fields.map { _ in "?" }.joined(separator: ", ")
        let loader = try BulkLoader(table: table, conflict: .updateChanged(key: table.fields[0].name), db: nil)
        for (index, field) in table.fields.enumerated() {
          for candidate in Self.candidates(from: checks) {
            var cells = table.fields.map { DatabaseValue(value: Self.valid($0))! }
            // A number as a file would give it; NaN and infinities (no SQL value) as text.
            let number = Double(candidate).flatMap { $0.isFinite ? $0 : nil }
            cells[index] = number.map { $0.databaseValue } ?? candidate.databaseValue
            // SQLite's verdict, its CHECKs on: a refusal names the CHECK.
            var refusedBy: String?
            try db.inSavepoint {
              do {
                try db.execute(
                  sql: "INSERT INTO \(SQL.quote(table.name)) (\(columns)) VALUES (\(marks))",
                  arguments: StatementArguments(cells))
              } catch let error as DatabaseError {
                // NOT NULL and the like are not CHECKs: the loader's own business, tested elsewhere.
                if error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK { refusedBy = error.message }
              }
              return .rollback
            }
            guard let refusedBy else { continue }
            refusedChecks.insert(refusedBy)
            // The loader's verdict on the same value, as a file gives it (a number or a string).
            var values = RecordValues(fieldNames: table.fieldNames)
            for (other, otherField) in table.fields.enumerated() { values.set(other, Self.valid(otherField)) }
            values.set(index, candidate, kind: number == nil ? .string : .number)
            #expect(throws: InputError.self, "\(table.name).\(field.name) = '\(candidate)' passes the loader") {
              try loader.add(&values, line: 1)
            }
          }
        }
        // Every CHECK refused something.
        for check in checks {
          #expect(refusedChecks.contains { $0.contains(check) }, "no candidate breaks CHECK (\(check))")
        }
      }
    }
  }
}
