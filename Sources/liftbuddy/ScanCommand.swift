import ArgumentParser

struct ScanCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "scan", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'scan' is not built yet") }
}
