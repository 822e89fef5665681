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
    // A snapshot cannot be encrypted yet; a recipient that is not one is a usage error.
    #expect(try gym.run(["export", "--out", "b2", "--format", "sqlite", "--encrypt-to", recipient]).status == 64)
    #expect(try gym.run(["export", "--out", "b2", "--encrypt-to", "age1nope"]).status == 64)
  }
}
