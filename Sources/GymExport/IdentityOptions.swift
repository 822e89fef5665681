import ArgumentParser
import Foundation
import GymCLI

/// `--identity FILE`: the age identities (`AGE-SECRET-KEY-1…`, as age-keygen writes them) that open
/// an encrypted export, for `export verify` and `import`.
public struct IdentityOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("An age identity file (AGE-SECRET-KEY-1…), to read an encrypted export.", valueName: "file"))
  var identity: String?

  public init() {}

  func identities() throws -> [AgeIdentity] {
    guard let identity else { return [] }
    guard let text = try? String(contentsOfFile: identity, encoding: .utf8) else {
      throw GymError.noInput("cannot read the identity file '\(identity)'")
    }
    do {
      return try AgeIdentity.file(text)
    } catch let error as AgeError {
      throw GymError.usage("--identity '\(identity)': \(error.description)")
    }
  }
}
