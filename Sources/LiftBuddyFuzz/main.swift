// liftbuddy-fuzz: one executable, two builds.
//
// - Built with `-sanitize=fuzzer,address -DLIFTBUDDY_FUZZ` (scripts/fuzz.sh),
//   it is a libFuzzer driver. SwiftPM owns `main`, so libFuzzer's own `main`
//   never runs: this file hands control to `LLVMFuzzerRunDriver` instead.
// - Built plainly (every `swift build` does), it replays corpus files and
//   directories through the same targets, a regression run that needs no
//   sanitizer, and offers `--bench` and `--generate` for throughput.
//
// The target is `core` or `command`, from `--target=NAME` or the
// LIFTBUDDY_FUZZ_TARGET environment variable (default `core`).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fuzz targets this executable can run.
enum FuzzTarget: String, CaseIterable, Sendable {
  case core
  case command

  /// Read once: libFuzzer calls the target millions of times.
  static let selected: FuzzTarget = {
    let argument = CommandLine.arguments.dropFirst().last { $0.hasPrefix(targetOption) }
    let name =
      argument.map { String($0.dropFirst(targetOption.count)) } ?? environmentValue() ?? "core"
    guard let target = FuzzTarget(rawValue: name) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      exit(PlainMode.fail("liftbuddy-fuzz: unknown target '\(name)' (targets: \(names))\n"))
    }
    return target
  }()

  static let targetOption = "--target="
  static let environmentVariable = "LIFTBUDDY_FUZZ_TARGET"

  private static func environmentValue() -> String? {
    guard let value = getenv(environmentVariable) else { return nil }
    return String(
      decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
  }

  func run(_ data: UnsafeRawBufferPointer) {
    switch self {
    case .core: fuzzCore(data)
    case .command: fuzzSocketCommand(data)
    }
  }
}

#if LIFTBUDDY_FUZZ
  /// libFuzzer's entry point for one input.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
  }

  /// libFuzzer's driver, for programs that have their own `main`.
  ///
  /// Declared by symbol name because there is no header to import it from;
  /// with pointer arguments and an `Int32` result the Swift and C calling
  /// conventions pass everything in the same registers (x86-64 and arm64).
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  // libFuzzer must not see `--target=`: it would take it for a corpus path.
  let fuzzerArguments = CommandLine.arguments.filter { !$0.hasPrefix(FuzzTarget.targetOption) }
  // An unknown target name should stop the run before libFuzzer starts.
  _ = FuzzTarget.selected
  var fuzzerArgv: [UnsafeMutablePointer<CChar>?] = fuzzerArguments.map { strdup($0) } + [nil]
  var fuzzerArgc = CInt(fuzzerArguments.count)
  let status = fuzzerArgv.withUnsafeMutableBufferPointer { argv in
    var base = argv.baseAddress
    return LLVMFuzzerRunDriver(&fuzzerArgc, &base, fuzzTestOneInput)
  }
  exit(status)
#else
  exit(
    PlainMode.run(
      CommandLine.arguments.dropFirst().filter { !$0.hasPrefix(FuzzTarget.targetOption) }))
#endif
