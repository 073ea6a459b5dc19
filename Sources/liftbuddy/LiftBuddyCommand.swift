import ArgumentParser

/// `liftbuddy`: the tool beside the daemon. Each verb lives in its own file.
@main
struct LiftBuddyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "liftbuddy",
    abstract:
      "Analyse, replay, record, watch and simulate barbell-clip streams; serve the coach's room view.",
    subcommands: [
      AnalyzeCommand.self, SimulateCommand.self, ReplayCommand.self, RecordCommand.self,
      WatchCommand.self, ScanCommand.self, EvaluateCommand.self, CoachCommand.self,
    ]
  )
}
