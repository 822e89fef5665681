import GymCore

/// One data file of an export as it is written: bytes → gzip (when asked) → age (when encrypted) →
/// the file, whose SHA-256 is of what is on disk, so the manifest's checksums hold without the key.
final class ExportFileWriter {
  private let file: HashedFile
  private let name: String
  private let age: AgeEncryptor?
  private let gzip: GzipWriter?

  /// `name` is the file's name in the export; the caller chooses it with `fileName(…)`.
  init(path: String, name: String, options: ExportOptions) throws {
    let file = try HashedFile(creating: path)
    let age =
      options.recipients.isEmpty
      ? nil
      : try AgeEncryptor(recipients: options.recipients) { bytes in try bytes.withUnsafeBytes { try file.write($0) } }
    func output(_ raw: UnsafeRawBufferPointer) throws(CompressionError) {
      guard let age else { return try file.write(raw) }
      do { try age.write(raw) } catch { throw CompressionError("cannot encrypt: \(error)") }
    }
    self.gzip =
      options.compression == .gzip
      ? try GzipWriter(level: Int32(options.level)) { bytes throws(CompressionError) in try output(bytes) } : nil
    self.file = file
    self.name = name
    self.age = age
  }

  /// `base` with the suffixes the options add: `.gz` when gzip'd, `.age` when encrypted.
  static func fileName(_ base: String, options: ExportOptions) -> String {
    base + (options.compression == .gzip ? ".gz" : "") + (options.recipients.isEmpty ? "" : ".age")
  }

  func write(_ raw: UnsafeRawBufferPointer) throws {
    if let gzip { return try gzip.write(raw) }
    guard let age else { return try file.write(raw) }
    try age.write(raw)
  }

  /// Ends the streams and the file; returns the manifest's entry for it.
  func finish() throws -> ExportManifest.File {
    try gzip?.finish()
    try age?.finish()
    return try file.close(name: name)
  }

  /// Closes the file after a failure (the export's temporary directory is removed).
  func abandon() { _ = try? file.close(name: name) }
}
