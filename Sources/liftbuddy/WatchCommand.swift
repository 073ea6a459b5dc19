import ArgumentParser

struct WatchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "watch", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'watch' is not built yet") }
}
