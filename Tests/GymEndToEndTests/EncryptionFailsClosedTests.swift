import Foundation
import Testing

/// Encryption that was asked for and cannot be done is an error, never a plaintext export: a
/// recipients file with no key in it, a low-order key, a secret key where a recipient belongs, an
/// `export.recipients` that holds none. A key given to read an export refuses one that is not
/// encrypted. No message repeats a secret.
@Suite struct EncryptionFailsClosedTests {
  /// The identity of age's own test vectors (the scalar 0x42 × 32).
  static let identity = "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
  static let recipient = "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"
  /// The X25519 point u = 0, Bech32-encoded: it has order 1, so every shared secret with it is zero.
  static let lowOrder = "age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47z"

  func exportsMade(_ gym: GymProcess, in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: gym.directory + "/" + directory)) ?? [])
      .filter { $0.hasPrefix("gym-export-") }
  }

  @Test func recipientsFilesWithoutAKeyAreRefused() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    // (file contents, the line the message names, if one)
    let cases: [(String, String, String?)] = [
      ("empty", "", nil),
      ("comments", "# created: 2026-01-01\n\n   \n# public key: none\n", nil),
      ("identity", "# created: 2026-01-01\n# public key: \(Self.recipient)\n\(Self.identity)\n", "line 3"),
      ("loworder", "\(Self.recipient)\n\(Self.lowOrder)\n", "line 2"),
      ("garbage", "# keys\n\nhello world\n", "line 3"),
    ]
    for (name, text, line) in cases {
      let path = try gym.write("\(name).txt", text)
      for command in [
        ["export", "create", "--out", "backups", "--recipients-file", path],
        ["export", "schedule", "--every", "1h", "--out", "backups", "--recipients-file", path],
      ] {
        let result = try gym.run(command)
        #expect(result.status == 64, "\(name) \(command[1]): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("'\(path)'"), "\(name): \(result.stderr)")
        if let line { #expect(result.stderr.contains(line), "\(name): \(result.stderr)") }
        #expect(!result.stderr.uppercased().contains("AGE-SECRET-KEY-1"), "\(name) echoed a secret")
        #expect(exportsMade(gym, in: "backups").isEmpty, "\(name) \(command[1]) wrote an export")
      }
    }
    let lowOrder = try gym.run(["export", "--out", "backups", "--encrypt-to", Self.lowOrder])
    #expect(lowOrder.status == 64 && lowOrder.stderr.contains("low-order"), "\(lowOrder.stderr)")
    let secret = try gym.run(["export", "--out", "backups", "--encrypt-to", Self.identity])
    #expect(secret.status == 64 && !secret.stderr.contains(Self.identity), "\(secret.stderr)")
    #expect(exportsMade(gym, in: "backups").isEmpty)
  }

  /// `export.recipients` that holds no usable key is a configuration error (78), for `create` and
  /// the scheduler alike; nothing is written.
  @Test func configuredRecipientsWithoutAKeyAreRefused() throws {
    let gym = try GymProcess()
    try gym.seed(5)
    // The last: a secret key pasted on a line before a recipient, which the environment's reading
    // refuses before the recipients are; the key is not repeated either way.
    for value in [Self.lowOrder, Self.identity, "", Self.identity + "\n" + Self.recipient] {
      let environment = ["GYM_EXPORT_RECIPIENTS": value]
      for command in [
        ["export", "create", "--out", "backups"], ["export", "schedule", "--every", "1h", "--out", "backups"],
      ] {
        let result = try gym.run(command, environment: environment)
        #expect(result.status == 78, "'\(value)' \(command[1]): \(result.status) \(result.stderr)")
        #expect(
          result.stderr.contains("export.recipients") || result.stderr.contains("GYM_EXPORT_RECIPIENTS"),
          "\(result.stderr)")
        #expect(!result.stderr.contains(Self.identity))
      }
    }
    #expect(exportsMade(gym, in: "backups").isEmpty)
    // A working one encrypts.
    let made = try gym.run(
      ["export", "--out", "backups", "-q"], environment: ["GYM_EXPORT_RECIPIENTS": Self.recipient])
    #expect(made.status == 0, "\(made.stderr)")
    let export = try #require(exportsMade(gym, in: "backups").first)
    let files = try FileManager.default.contentsOfDirectory(atPath: gym.directory + "/backups/" + export)
    #expect(files.filter { $0 != "manifest.json" }.allSatisfy { $0.hasSuffix(".age") }, "\(files)")
  }

  /// A key asks for an encrypted export: a plaintext one in its place is refused (65) by `import`
  /// and `export verify`, unless --allow-plaintext says it is expected.
  @Test func aKeyRefusesAPlaintextExport() throws {
    let gym = try GymProcess()
    try gym.seed(7)
    #expect(try gym.run(["export", "--out", "plain", "-q"]).status == 0)
    let path = gym.directory + "/plain/" + (try #require(exportsMade(gym, in: "plain").first))
    let key = try gym.write("key.txt", Self.identity + "\n")
    let passphrase = try gym.write("passphrase.txt", "correct horse\n")
    let copy = ["GYM_DATABASE": gym.directory + "/copy.sqlite"]
    for keyOption in [["--identity", key], ["--passphrase-file", passphrase]] {
      let verify = try gym.run(["export", "verify", path] + keyOption)
      #expect(verify.status == 65 && verify.stderr.contains("is not encrypted"), "\(verify.stderr)")
      let refused = try gym.run(["import", path] + keyOption, environment: copy)
      #expect(refused.status == 65 && refused.stderr.contains("--allow-plaintext"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: gym.directory + "/copy.sqlite"))
      #expect(try gym.run(["export", "verify", path, "--allow-plaintext"] + keyOption).status == 0)
    }
    let allowed = try gym.run(["import", path, "--identity", key, "--allow-plaintext", "-q"], environment: copy)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(try gym.run(["history", "count"], environment: copy).stdoutLines == ["7"])
  }
}
