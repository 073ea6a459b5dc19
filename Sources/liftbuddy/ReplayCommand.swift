import ArgumentParser

struct ReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "replay", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'replay' is not built yet") }
}
