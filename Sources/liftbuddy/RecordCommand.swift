import ArgumentParser

struct RecordCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "record", abstract: "(not yet built)")
  func run() async throws { throw ValidationError("'record' is not built yet") }
}
