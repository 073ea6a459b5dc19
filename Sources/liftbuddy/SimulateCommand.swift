import ArgumentParser

struct SimulateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "simulate", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'simulate' is not built yet") }
}
