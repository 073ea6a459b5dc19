import ArgumentParser

struct AnalyzeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "analyze", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'analyze' is not built yet") }
}
