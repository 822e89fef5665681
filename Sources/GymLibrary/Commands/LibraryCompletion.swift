import GymCLI

/// What the shell completes for library commands: work ids, most recently changed first.
enum LibraryCompletion {
  @Sendable static func workIDs(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    DynamicCompletion.values(
      words,
      sql: "SELECT id FROM work WHERE substr(id, 1, length(?1)) = ?1 ORDER BY lastModified DESC, id DESC LIMIT ?2",
      prefix: prefix)
  }
}
