import Foundation
import Testing

/// `gym export --encrypt-to`: every data file age-encrypted, readable by the `age` tool; checksums
/// checked without the key, rows with it; an import needs the key, and the right one.
@Suite struct EncryptedExportTests {
  func shell(_ command: String, in directory: String) throws -> (status: Int32, stdout: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func anEncryptedExportRoundTrips() throws {
    let gym = try GymProcess()
    try gym.seed(50)
    #expect(
      try shell("age-keygen -o key.txt 2>/dev/null && age-keygen -o other.txt 2>/dev/null", in: gym.directory).status
        == 0)
    let recipient = try shell("age-keygen -y key.txt", in: gym.directory).stdout.trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(recipient.hasPrefix("age1"))
    let made = try gym.run(["export", "--out", "backups", "--encrypt-to", recipient, "-q"])
    #expect(made.status == 0, "\(made.stderr)")
    let export = try #require(
      try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/backups").first {
        $0.hasPrefix("gym-export-")
      })
    let path = gym.directory + "/backups/" + export
    let files = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != "manifest.json" }
    #expect(!files.isEmpty && files.allSatisfy { $0.hasSuffix(".ndjson.gz.age") }, "\(files)")
    let manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + "/manifest.json")))
        as? [String: Any])
    #expect(manifest["encryption"] as? String == "age")
    // The age tool opens a file: the 50 workouts, one per line.
    let lines = try shell(
      "age -d -i key.txt 'backups/\(export)/workout.ndjson.gz.age' | gunzip | wc -l", in: gym.directory)
    #expect(lines.stdout.trimmingCharacters(in: .whitespaces) == "50\n")
    // Without the key: the checksums; with it: every row too.
    let checksums = try gym.run(["export", "verify", path])
    #expect(checksums.status == 0 && checksums.stderr.contains("checksums match; rows not read"), "\(checksums.stderr)")
    let rows = try gym.run(["export", "verify", path, "--identity", gym.directory + "/key.txt"])
    #expect(rows.status == 0 && rows.stderr.contains("every row loads into its schema"), "\(rows.stderr)")
    // An import needs the key, and the right one; nothing is imported otherwise.
    let copy = ["GYM_DATABASE": gym.directory + "/copy.sqlite"]
    let keyless = try gym.run(["import", path], environment: copy)
    #expect(keyless.status == 65 && keyless.stderr.contains("is encrypted (age): give --identity FILE"))
    let wrong = try gym.run(["import", path, "--identity", gym.directory + "/other.txt"], environment: copy)
    #expect(wrong.status == 65 && wrong.stderr.contains("no identity given opens this file"))
    let right = try gym.run(["import", path, "--identity", gym.directory + "/key.txt"], environment: copy)
    #expect(right.status == 0, "\(right.stderr)")
    #expect(try gym.run(["history", "count"], environment: copy).stdoutLines == ["50"])
    // A changed byte is caught by the checksum, key or no key.
    let target = path + "/workout.ndjson.gz.age"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: target))
    bytes[bytes.count / 2] ^= 1
    try bytes.write(to: URL(fileURLWithPath: target))
    let damaged = try gym.run(["export", "verify", path])
    #expect(damaged.status == 65 && damaged.stderr.contains("workout.ndjson.gz.age: its checksum does not match"))
    // A recipient that is not one is a usage error.
    #expect(try gym.run(["export", "--out", "b2", "--encrypt-to", "age1nope"]).status == 64)
  }

  /// A snapshot export: one SQLite file, gzip'd then encrypted; the age tool and gunzip give back
  /// a database, and gym restores it with the key.
  @Test func anEncryptedSnapshotRoundTrips() throws {
    let gym = try GymProcess()
    try gym.seed(30)
    #expect(try shell("age-keygen -o key.txt 2>/dev/null", in: gym.directory).status == 0)
    let recipient = try shell("age-keygen -y key.txt", in: gym.directory).stdout.trimmingCharacters(
      in: .whitespacesAndNewlines)
    // The plaintext copy SQLite's backup writes goes to a private directory under TMPDIR, removed after.
    let scratch = gym.directory + "/tmp"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let made = try gym.run(
      ["export", "--out", "snap", "--format", "sqlite", "--encrypt-to", recipient, "-q"],
      environment: ["TMPDIR": scratch])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    // Where TMPDIR cannot take it, the export refuses (73) rather than copy the database beside itself.
    let nowhere = try gym.run(
      ["export", "--out", "elsewhere", "--format", "sqlite", "--encrypt-to", recipient, "-q"],
      environment: ["TMPDIR": gym.directory + "/missing"])
    #expect(nowhere.status == 73 && nowhere.stderr.contains("private directory"), "\(nowhere.stderr)")
    let left = (try? FileManager.default.subpathsOfDirectory(atPath: gym.directory + "/elsewhere")) ?? []
    #expect(!left.contains { $0.hasSuffix("gym.sqlite") }, "\(left)")
    let path = gym.directory + "/" + made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: path).sorted() == ["gym.sqlite.gz.age", "manifest.json"])
    let header = try shell("age -d -i key.txt '\(path)/gym.sqlite.gz.age' | gunzip | head -c 15", in: gym.directory)
    #expect(header.stdout == "SQLite format 3")
    let checksums = try gym.run(["export", "verify", path])
    #expect(checksums.status == 0 && checksums.stderr.contains("1 encrypted files, checksums match"))
    let copy = ["GYM_DATABASE": gym.directory + "/copy.sqlite"]
    #expect(try gym.run(["import", path], environment: copy).status == 65)
    #expect(!FileManager.default.fileExists(atPath: gym.directory + "/copy.sqlite"))
    let right = try gym.run(["import", path, "--identity", gym.directory + "/key.txt"], environment: copy)
    #expect(right.status == 0, "\(right.stderr)")
    #expect(try gym.run(["history", "count"], environment: copy).stdoutLines == ["30"])
  }

  /// `--passphrase-file`: age's scrypt recipient, the passphrase read from a file's first line; the
  /// same file opens it, another passphrase does not, and a passphrase cannot sit beside a recipient.
  @Test func aPassphraseExportRoundTrips() throws {
    let gym = try GymProcess()
    try gym.seed(10)
    let passphrase = try gym.write("passphrase.txt", "correct horse battery staple\r\n")
    let other = try gym.write("other.txt", "correct horse battery\n")
    let made = try gym.run(["export", "--out", "pp", "--tables", "workout", "--passphrase-file", passphrase, "-q"])
    #expect(made.status == 0, "\(made.stderr)")
    let path = gym.directory + "/" + made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    // The file's one recipient is an scrypt stanza at age's own work factor, 2^18.
    let file = try Data(contentsOf: URL(fileURLWithPath: path + "/workout.ndjson.gz.age"))
    let lines = String(decoding: file.prefix(200), as: UTF8.self).split(separator: "\n")
    #expect(lines.first == "age-encryption.org/v1")
    #expect(lines[1].hasPrefix("-> scrypt ") && lines[1].hasSuffix(" 18"), "\(lines[1])")
    #expect(!lines[2].hasPrefix("->"))
    let wrong = try gym.run(["export", "verify", path, "--passphrase-file", other])
    #expect(wrong.status == 65 && wrong.stderr.contains("workout.ndjson.gz.age: no identity given opens this file"))
    let right = try gym.run(["export", "verify", path, "--passphrase-file", passphrase])
    #expect(right.status == 0 && right.stderr.contains("10 rows"), "\(right.stderr)")
    let copy = ["GYM_DATABASE": gym.directory + "/copy.sqlite"]
    #expect(try gym.run(["import", path, "--passphrase-file", passphrase], environment: copy).status == 0)
    #expect(try gym.run(["history", "count"], environment: copy).stdoutLines == ["10"])
    // age allows a passphrase only as a file's one recipient; an empty passphrase file is refused.
    let both = try gym.run(
      [
        "export", "--out", "x", "--passphrase-file", passphrase, "--encrypt-to",
        "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
      ])
    #expect(both.status == 64 && both.stderr.contains("cannot be combined"), "\(both.stderr)")
    let empty = try gym.write("empty.txt", "\n")
    #expect(try gym.run(["export", "--out", "x", "--passphrase-file", empty]).status == 64)
    #expect(try gym.run(["export", "--out", "x", "--passphrase-file", gym.directory + "/none.txt"]).status == 66)
    // A recipient in the configuration that is not one is a configuration error.
    let configured = try gym.run(["export", "--out", "x"], environment: ["GYM_EXPORT_RECIPIENTS": "age1nope"])
    #expect(configured.status == 78 && configured.stderr.contains("export.recipients"), "\(configured.stderr)")
  }
}
