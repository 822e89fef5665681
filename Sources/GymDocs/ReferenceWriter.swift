import Foundation

/// Runs the binary for its help, renders the pages, and writes them (removing pages of commands
/// that are gone).
public enum ReferenceWriter {
  public static func pages(gym: String, package: String) throws -> [String: String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gym)
    process.arguments = ["--experimental-dump-help"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let tool = try JSONDecoder().decode(ToolInfo.self, from: data)
    let configuration = try String(contentsOfFile: package + "/Config/gym.yaml", encoding: .utf8)
    return ReferencePages.render(tool: tool, configuration: configuration)
  }

  public static func write(gym: String, package: String) throws -> Int {
    let directory = package + "/Docs/Reference"
    let pages = try pages(gym: gym, package: package)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for stale in try FileManager.default.contentsOfDirectory(atPath: directory) where pages[stale] == nil {
      try FileManager.default.removeItem(atPath: directory + "/" + stale)
    }
    for (name, text) in pages { try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }
    return pages.count
  }
}
