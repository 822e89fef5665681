import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A database gym may not write: a read-only file, a read-only `-shm` left behind, a directory that is
/// not writable. Permissions do not stop root, so as root (CI) gym runs as `nobody` through `setpriv`.
@Suite(.enabled(if: Unprivileged.possible, "running as root without setpriv"))
struct PermissionTests {

  let gym: GymProcess

  init() throws {
    gym = try GymProcess()
    chmod(gym.directory, 0o777)
  }

  /// Runs gym as a user without privileges over files it does not own.
  func run(_ arguments: [String], stdin: String? = nil, as user: UInt32 = Self.nobody) throws -> GymProcess.Result {
    guard getuid() == 0 else { return try gym.run(arguments, stdin: stdin) }
    return try gym.run(
      ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", GymProcess.executable] + arguments, stdin: stdin,
      executable: Unprivileged.setpriv)
  }

  static let nobody: UInt32 = 65534
  /// The owner of a database another user reads: any unprivileged uid other than `nobody`.
  static let owner: UInt32 = 65533

  func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  func expectRefused(_ result: GymProcess.Result, _ reason: String, _ arguments: [String]) {
    #expect(result.status == 73, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("gym: error: cannot "), "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
  }

  static let writes: [[String]] = [
    ["history", "add", "--plan-title", "Push", "--focus", "push", "--duration", "30"],
    ["history", "import", "-"], ["library", "add", "Dune"], ["staples", "add", "Milk", "--category", "Dairy"],
  ]

  @Test func aReadOnlyFileIsReadButNeverWritten() throws {
    try gym.seed(4)  // as the test's user: the file is not the unprivileged user's
    chmod(gym.databasePath, 0o444)
    let before = try digest(gym.databasePath)
    #expect(try run(["history", "count"]).stdout == "4\n")
    #expect(try run(["history", "list", "--format", "ndjson"]).stdout.split(separator: "\n").count == 4)
    let sample = try gym.run(["history", "sample", "--count", "3"]).stdout
    for arguments in Self.writes {
      expectRefused(try run(arguments, stdin: sample), "the file is read-only for this user", arguments)
    }
    #expect(try digest(gym.databasePath) == before)
    #expect(try run(["history", "count"]).stdout == "4\n")
  }

  @Test func aReadOnlyShmLeftByAReaderIsRemovedWhenNoOneHasTheDatabaseOpen() throws {
    try gym.seed(2)
    chmod(gym.databasePath, 0o444)
    #expect(try run(["history", "count"]).stdout == "2\n")  // the reader creates -shm as read-only as the file
    chmod(gym.databasePath, 0o666)
    #expect(access(gym.databasePath + "-shm", F_OK) == 0, "the reader left no -shm: nothing to test")
    let added = try run(Self.writes[0])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(try run(["history", "count"]).stdout == "3\n")  // 2 seeded + 1 added
  }

  /// Another user reads the owner's database (readable to all, in a directory both may write): SQLite
  /// gives that reader its own `-shm` and `-wal`, which the owner may not write.
  @Test(.enabled(if: getuid() == 0, "needs two users"))
  func aReadByAnotherUserLeavesNothingThatLocksTheOwnerOut() throws {
    try gym.seed(2)
    chown(gym.databasePath, Self.owner, Self.owner)
    chmod(gym.databasePath, 0o644)
    #expect(try run(["history", "count"], as: Self.nobody).stdout == "2\n")
    var info = stat()
    #expect(stat(gym.databasePath + "-shm", &info) == 0 && info.st_uid == Self.nobody, "nothing to test")
    let added = try run(Self.writes[0], as: Self.owner)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(try run(["history", "count"], as: Self.owner).stdout == "3\n")  // 2 seeded + 1 added
    #expect(try run(["history", "count"], as: Self.nobody).stdout == "3\n")
  }

  /// While the reader still has the database open its `-shm` is in use: removing it would split the
  /// two processes' views of the WAL, so the owner is refused and nothing is removed.
  @Test(.enabled(if: getuid() == 0, "needs two users"))
  func aStrandedShmInUseIsLeftAndNamed() throws {
    try gym.seed(2)
    chown(gym.databasePath, Self.owner, Self.owner)
    chmod(gym.databasePath, 0o644)
    #expect(try run(["history", "count"], as: Self.nobody).stdout == "2\n")
    // A reader's shared lock, as SQLite takes it: a read lock over the 510-byte shared range at 2^30 + 2.
    let reader = open(gym.databasePath, O_RDONLY)
    defer { close(reader) }
    var lock = flock()
    lock.l_type = Int16(F_RDLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 0x4000_0002
    lock.l_len = 510
    #expect(fcntl(reader, F_SETLK, &lock) == 0)
    expectRefused(
      try run(Self.writes[0], as: Self.owner), "is read-only for this user (a reader that may not write",
      Self.writes[0])
    #expect(access(gym.databasePath + "-shm", F_OK) == 0)
    lock.l_type = Int16(F_UNLCK)
    #expect(fcntl(reader, F_SETLK, &lock) == 0)
    #expect(try run(Self.writes[0], as: Self.owner).status == 0)
    #expect(try run(["history", "count"], as: Self.owner).stdout == "3\n")
  }

  @Test func aDirectoryThatIsNotWritableIsNamed() throws {
    let directory = gym.directory + "/read-only dir"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    let database = directory + "/gym.sqlite"
    try gym.seed(3, database: database)
    chmod(database, 0o666)
    chmod(directory, 0o555)
    defer { chmod(directory, 0o755) }
    let before = try digest(database)
    let sample = try gym.run(["history", "sample", "--count", "3"]).stdout
    for arguments in [["history", "count"]] + Self.writes {
      let result = try run(arguments + ["--database", database], stdin: sample)
      expectRefused(result, "its directory is not writable", arguments)
    }
    #expect(try digest(database) == before)
    let new = try run(Self.writes[2] + ["--database", directory + "/new.sqlite"])
    expectRefused(new, "is not writable; choose a writable --database path", ["new database"])
    #expect(!FileManager.default.fileExists(atPath: directory + "/new.sqlite"))
  }

  @Test func anExportIntoADirectoryThatIsNotWritableLeavesNothing() throws {
    try gym.seed(3)
    chmod(gym.databasePath, 0o666)
    let out = gym.directory + "/exports"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    chmod(out, 0o555)
    defer { chmod(out, 0o755) }
    let result = try run(["export", "--out", out])
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
  }
}

enum Unprivileged {
  static let setpriv = "/usr/bin/setpriv"
  static var possible: Bool { getuid() != 0 || access(setpriv, X_OK) == 0 }
}
