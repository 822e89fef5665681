import Foundation
import PackagePlugin

/// Writes `MuscleMapText.swift` before each build: `Config/muscles.yaml` as a string, so the static
/// executable carries the mapping (there is no bundle beside it). Replaced only when the file changes.
@main struct EmbedMuscles: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let source = context.package.directoryURL.appending(path: "Config/muscles.yaml").path
    let output = context.pluginWorkDirectoryURL.appending(path: "MuscleMapText.swift").path
    let script = #####"""
      {
        printf '/// Generated from Config/muscles.yaml by the EmbedMuscles plugin.\nenum MuscleMapText {\n  static let shipped = ####"""\n'
        cat "$1"
        printf '"""####\n}\n'
      } > "$2.new"
      if cmp -s "$2.new" "$2"; then rm "$2.new"; else mv "$2.new" "$2"; fi
      """#####
    return [
      .prebuildCommand(
        displayName: "embed Config/muscles.yaml", executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script, "sh", source, output], outputFilesDirectory: context.pluginWorkDirectoryURL)
    ]
  }
}
