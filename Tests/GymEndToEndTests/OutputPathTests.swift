import Foundation
import Testing

/// A path named for output is written as what it is: a regular file is replaced whole, a FIFO or a
/// character device is written through in place, `/dev/stdout` is the descriptor; a directory, a
/// symbolic link to a file, or a block device is refused (73). Nothing outside the named path is
/// ever replaced, and a write that fails is 74 with no temporary file left.
@Suite struct OutputPathTests {
  func fileType(_ path: String) -> FileAttributeType? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
  }

  func partials(_ gym: GymProcess) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: gym.directory).filter { $0.hasSuffix(".partial") }
  }

  @Test func reportOutWritesThroughOrRefuses() throws {
    let gym = try GymProcess()
    #expect(try gym.run(["migrate", "up", "-q"]).status == 0)
    let expected = try gym.run(["report", "--out", "-"]).stdout
    #expect(expected.hasPrefix("<!doctype html>"))

    // /dev/full is a character device: written in place, ENOSPC is 74, and the device stays one.
    let full = try gym.run(["report", "--out", "/dev/full"])
    #expect(full.status == 74 && full.stderr.contains("No space left on device"), "\(full.stderr)")
    #expect(fileType("/dev/full") == .typeCharacterSpecial)
    #expect(try gym.run(["report", "--out", "/dev/null", "-q"]).status == 0)
    #expect(fileType("/dev/null") == .typeCharacterSpecial)

    // /dev/stdout: the process's own standard output.
    let stdout = try gym.run(["report", "--out", "/dev/stdout", "-q"])
    #expect(stdout.status == 0 && stdout.stdout.hasPrefix("<!doctype html>"), "\(stdout.stderr)")

    // A FIFO is read by another process while gym writes; it stays a FIFO.
    let fifo = gym.directory + "/report.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [fifo]
    let piped = Pipe()
    reader.standardOutput = piped
    try reader.run()
    #expect(try gym.run(["report", "--out", fifo, "-q"]).status == 0)
    let read = piped.fileHandleForReading.readDataToEndOfFile()
    reader.waitUntilExit()
    #expect(String(decoding: read, as: UTF8.self).hasPrefix("<!doctype html>"))
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

    // A directory and a link to a file elsewhere are refused, untouched.
    let directory = gym.directory + "/reports"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    let refusedDirectory = try gym.run(["report", "--out", directory])
    #expect(refusedDirectory.status == 73 && refusedDirectory.stderr.contains("is a directory"))
    #expect(fileType(directory) == .typeDirectory)
    let outside = try gym.write("outside.txt", "keep me")
    let link = gym.directory + "/report-link.html"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
    let refusedLink = try gym.run(["report", "--out", link])
    #expect(refusedLink.status == 73 && refusedLink.stderr.contains("symbolic link"), "\(refusedLink.stderr)")
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep me")
    #expect(fileType(link) == .typeSymbolicLink)

    // A regular file is replaced whole.
    let file = try gym.write("report.html", "old")
    #expect(try gym.run(["report", "--out", file, "-q"]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("<!doctype html>"))
    #expect(try partials(gym).isEmpty)
  }

  /// As root, a device node of its own in the scratch directory: the case that once replaced
  /// `/dev/full` with a regular file.
  @Test func aDeviceNodeIsNeverReplaced() throws {
    guard getuid() == 0 else { return }
    let gym = try GymProcess()
    #expect(try gym.run(["migrate", "up", "-q"]).status == 0)
    let device = gym.directory + "/full"
    // Major 1, minor 7 (glibc encodes small numbers as major << 8 | minor): the full device,
    // on which every write fails with ENOSPC.
    #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0)
    let result = try gym.run(["report", "--out", device])
    #expect(result.status == 74, "\(result.stderr)")
    #expect(fileType(device) == .typeCharacterSpecial)
    #expect(try partials(gym).isEmpty)
  }

  /// An export's --out is a directory: a file, a device or a FIFO there is refused (73).
  @Test func exportOutMustBeADirectory() throws {
    let gym = try GymProcess()
    try gym.seed(3)
    let file = try gym.write("a-file", "x")
    let fifo = gym.directory + "/a-fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    for out in [file, fifo, "/dev/full", "/dev/null"] {
      let result = try gym.run(["export", "--out", out])
      #expect(result.status == 73, "\(out): \(result.stderr)")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
    #expect(fileType("/dev/full") == .typeCharacterSpecial && fileType("/dev/null") == .typeCharacterSpecial)
  }
}
