import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (`GymBuild.commit`) before each build from the checkout's `git` commit,
/// for `gym version`; "unknown" outside a git checkout. The file is replaced only when the commit
/// changes, so an unchanged checkout compiles nothing again.
@main struct BuildInfo: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let directory = context.pluginWorkDirectoryURL
    let script = #"""
      commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
      if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null | head -c1)" ]; then
        commit="$commit-modified"
      fi
      printf '/// Generated before each build by the BuildInfo plugin.\nenum GymBuild {\n  static let commit = "%s"\n}\n' "$commit" > "$2.new"
      if cmp -s "$2.new" "$2"; then rm "$2.new"; else mv "$2.new" "$2"; fi
      """#
    return [
      .prebuildCommand(
        displayName: "gym build info (git commit)", executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [
          "-c", script, "sh", context.package.directoryURL.path, directory.appending(path: "BuildInfo.swift").path,
        ],
        outputFilesDirectory: directory)
    ]
  }
}
