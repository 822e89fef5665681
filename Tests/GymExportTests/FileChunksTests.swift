import Foundation
import GymCLI
import Testing

@testable import GymExport

#if canImport(Glibc)
  import Glibc
#endif

/// A read that fails is an I/O error, never the end of the file: a checksum or a gzip of what came
/// before it would look like a whole file.
@Suite struct FileChunksTests {
  @Test func aReadErrorIsExit74NotTheEndOfTheFile() throws {
    // A directory opens for reading on Linux, and every read of it fails with EISDIR.
    let directory = NSTemporaryDirectory()
    let descriptor = open(directory, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    var chunks = 0
    let error = #expect(throws: GymError.self) {
      try FileChunks.forEach(descriptor, path: directory) { _ in chunks += 1 }
    }
    #expect(error?.status == .ioError)
    #expect(error?.message.contains("Is a directory") == true, "\(String(describing: error?.message))")
    #expect(chunks == 0)
  }

  @Test func aWholeFileComesInOrder() throws {
    let path = NSTemporaryDirectory() + "gym-chunks-" + UUID().uuidString
    defer { unlink(path) }
    // 2.5 MiB: two whole chunks and a part, each byte its offset modulo 251 (a prime, so no chunk repeats another).
    let bytes = (0..<(5 << 19)).map { UInt8($0 % 251) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var read: [UInt8] = []
    try FileChunks.forEach(descriptor, path: path) { read += $0 }
    #expect(read == bytes)
    let (sha, count) = try HashedFile.sha256(of: path)
    #expect(count == bytes.count)
    // The reference digest from coreutils.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    #expect(sha == String(decoding: out.fileHandleForReading.readDataToEndOfFile().prefix(64), as: UTF8.self))
  }
}
