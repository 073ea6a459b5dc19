import ArgumentParser

struct EvaluateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "evaluate", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'evaluate' is not built yet") }
}
