import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-reference` (`make docs`): builds
/// gym, then runs the gym-docs tool on it to write Docs/Reference/.
@main
struct GenerateReference: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let build = try packageManager.build(.product("gym"), parameters: .init(configuration: .debug))
    guard build.succeeded, let gym = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
      throw GenerateReferenceError("building gym failed:\n\(build.logText)")
    }
    let tool = try context.tool(named: "gym-docs")
    let process = Process()
    process.executableURL = tool.url
    process.arguments = [gym.url.path, context.package.directoryURL.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw GenerateReferenceError("gym-docs failed") }
  }
}

struct GenerateReferenceError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
