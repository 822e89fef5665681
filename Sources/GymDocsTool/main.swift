import Foundation
import GymDocs

// gym-docs GYM-BINARY PACKAGE-DIRECTORY: writes Docs/Reference/ from the binary's help and
// Config/gym.yaml (run by `make docs` through the GenerateReference plugin).
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: gym-docs GYM-BINARY PACKAGE-DIRECTORY\n".utf8))
  exit(64)
}
do {
  let written = try ReferenceWriter.write(gym: arguments[1], package: arguments[2])
  print("wrote \(written) files to Docs/Reference")
} catch {
  FileHandle.standardError.write(Data("gym-docs: \(error)\n".utf8))
  exit(1)
}
