import Foundation
import LiftBuddyCore
import Testing

@testable import LiftBuddySimulator

@Suite("Simulator")
struct SimulatorTests {
  static let exercises = Exercise.allCases
  static let transports = Transport.allCases

  @Test("The same request gives the same bytes and truth; another seed does not")
  func deterministic() throws {
    let request = SimulationRequest(
      exercise: .squat, reps: 4, seed: 7, transport: .ble, noise: .dirty)
    let a = Simulator.run(request)
    let b = Simulator.run(request)
    #expect(a.bytes == b.bytes)
    #expect(try TruthFile.encode(a.truth) == TruthFile.encode(b.truth))
    var other = request
    other.seed = 8
    #expect(Simulator.run(other).bytes != a.bytes)
  }

  @Test("Truth has the requested reps, consistent figures, plausible ranges", arguments: exercises)
  func truthConsistent(exercise: Exercise) {
    let profile = ExerciseProfile.of(exercise)
    for seed in UInt64(1)...6 {
      let request = SimulationRequest(
        exercise: exercise, reps: 6, sets: seed == 1 ? 2 : 1, loadKg: 60 + Double(seed) * 10,
        seed: seed,
        transport: .serial, noise: .clean)
      let truth = Simulator.run(request).truth
      #expect(truth.sets.count == request.sets)
      for set in truth.sets {
        #expect(set.reps.count == 6)
        #expect(set.reps.map(\.index) == Array(1...6))
        var previousEnd = set.startS
        for rep in set.reps {
          let duration = rep.concentricEndS - rep.concentricStartS
          #expect(rep.concentricStartS >= previousEnd - 0.001)
          previousEnd = rep.concentricEndS
          #expect(duration > 0.3 && duration < 3.5)
          // Mean velocity is ROM over duration, to the truth file's rounding.
          #expect(abs(rep.meanVelocityMps - rep.romCm / 100 / duration) < 0.002)
          #expect(
            rep.romCm > profile.romCm.lowerBound - 6 && rep.romCm < profile.romCm.upperBound + 3.5)
          #expect(rep.meanVelocityMps > 0.25 && rep.meanVelocityMps < 1.15)
          let ratio = rep.peakVelocityMps / rep.meanVelocityMps
          #expect(ratio > 1.3 && ratio < 2.2, "peak/mean \(ratio)")
          #expect(rep.stickingPointCm == nil)
          #expect((rep.eccentricStartS != nil) == exercise.isEccentricFirst)
          if let eccentric = rep.eccentricStartS { #expect(eccentric < rep.concentricStartS - 0.5) }
        }
        let velocities = set.reps.map(\.meanVelocityMps)
        #expect(velocities.last! < velocities.first!, "fatigue slows the set down")
      }
    }
  }

  @Test("Bar heights stay in the exercise's range", arguments: exercises)
  func heightsInRange(exercise: Exercise) {
    let profile = ExerciseProfile.of(exercise)
    for seed in UInt64(1)...5 {
      var planner = SessionPlanner(
        request: SimulationRequest(exercise: exercise, reps: 5, seed: seed, rackMoves: true))
      let plan = planner.plan()
      for rep in plan.sets[0].reps {
        let top = plan.trajectory.height(at: rep.concentricPulseEnd)
        let bottom = plan.trajectory.height(at: rep.concentricPulseStart)
        // A bounce turns before the lowering is over, so only a first pull
        // starts from the rest height of a concentric-first lift.
        guard exercise.isEccentricFirst || rep.index == 1 else { continue }
        let rest = exercise.isEccentricFirst ? top : bottom
        #expect(
          rest >= profile.restHeightCm.lowerBound - 0.01
            && rest <= profile.restHeightCm.upperBound + 0.01)
        #expect(top - bottom > profile.romCm.lowerBound - 6)
      }
      // Everything returns to where it started: hooks or floor.
      #expect(abs(plan.trajectory.height(at: plan.durationS) - plan.trajectory.baseHeightCm) < 1e-9)
    }
  }

  @Test("Velocity is continuous (the truth's turnarounds are well defined)")
  func smoothVelocity() {
    var planner = SessionPlanner(
      request: SimulationRequest(
        exercise: .deadlift, reps: 5, seed: 3, grinder: true, rackMoves: true))
    let plan = planner.plan()
    var t = 0.0
    var worst = 0.0
    while t < plan.durationS {
      worst = max(
        worst, abs(plan.trajectory.velocity(at: t + 1e-5) - plan.trajectory.velocity(at: t)))
      t += 0.0013
    }
    // 1e-5 s at a hard 50 m/s² would change velocity by 0.05 cm/s.
    #expect(worst < 0.05)
  }

  @Test("A grinder is slow and has a sticking point", arguments: exercises)
  func grinder(exercise: Exercise) {
    for seed in UInt64(1)...4 {
      let truth = Simulator.run(
        SimulationRequest(exercise: exercise, reps: 4, seed: seed, noise: .clean, grinder: true)
      ).truth
      let last = truth.sets[0].reps.last!
      #expect(last.meanVelocityMps >= 0.14 && last.meanVelocityMps <= 0.31)
      #expect(last.stickingPointCm != nil)
      if let point = last.stickingPointCm { #expect(point > 0 && point < last.romCm) }
      #expect(truth.sets[0].reps.dropLast().allSatisfy { $0.stickingPointCm == nil })
    }
  }

  @Test("Rack moves are recorded as non-reps")
  func nonReps() {
    let squat = Simulator.run(SimulationRequest(exercise: .squat, reps: 3, sets: 2, seed: 2)).truth
    let kinds = Set(squat.nonReps.map(\.kind))
    #expect(kinds.isSuperset(of: [.unrack, .walkOut, .walkIn, .rerack, .rest]))
    let rest = squat.nonReps.first { $0.kind == .rest }!
    #expect(rest.endS - rest.startS >= 60 && rest.endS - rest.startS <= 180)
    let plain = Simulator.run(
      SimulationRequest(exercise: .squat, reps: 3, seed: 2, rackMoves: false)
    ).truth
    #expect(plain.nonReps.isEmpty)
  }

  @Test("Rows parse as the contract says", arguments: transports)
  func rowsParse(transport: Transport) {
    let stream = Simulator.run(
      SimulationRequest(
        exercise: .benchPress, reps: 3, loadKg: 80, seed: 11, transport: transport, noise: .clean))
    let rows = StreamRows(stream.bytes)
    #expect(rows.header.formatVersion == 1)
    #expect(rows.header.exercise == "bench_press")
    #expect(rows.header.loadKg == 80)
    #expect(rows.header.source == "sim:\(transport.rawValue)")
    #expect(rows.header.rateHz == stream.rateHz)
    #expect(rows.header.startedAt == "2026-01-05T10:00:00Z")
    #expect(rows.rejections.isEmpty)
    #expect(rows.lines.count > 100)
    #expect(zip(rows.lines, rows.lines.dropFirst()).allSatisfy { $0.t <= $1.t })
    for line in rows.lines {
      guard case .reading = LineParser.parse(line.text) else {
        Issue.record("clean stream has a bad line: \(line.text)")
        return
      }
    }
    let text = String(decoding: stream.bytes, as: UTF8.self)
    if transport == .raw {
      #expect(!text.split(separator: "\n").contains { $0.first?.isNumber == true })
    } else {
      // Times with exactly three decimals.
      let firstRow = text.split(separator: "\n").first { !$0.hasPrefix("#") }!
      let time = firstRow.split(separator: " ")[0]
      #expect(time.split(separator: ".").last?.count == 3)
    }
  }

  @Test(
    "Truth is on the stream's clock: sonar readings track the truth's turnarounds",
    arguments: transports)
  func truthOnStreamClock(transport: Transport) {
    let stream = Simulator.run(
      SimulationRequest(
        exercise: .squat, reps: 3, seed: 5, transport: transport, noise: .clean, rackMoves: false))
    let sonar = StreamRows(stream.bytes).sonar
    for rep in stream.truth.sets[0].reps {
      // Lowest reading near the concentric start, highest near its end.
      func reading(near t: Double) -> Double {
        sonar.min { abs($0.t - t) < abs($1.t - t) }!.cm
      }
      let measuredRom = reading(near: rep.concentricEndS) - reading(near: rep.concentricStartS)
      #expect(abs(measuredRom - rep.romCm) < 3, "rep \(rep.index): \(measuredRom) vs \(rep.romCm)")
    }
  }

  @Test("BLE delivers in bursts with stalls; serial one line at a time")
  func bleBursts() {
    let request = SimulationRequest(
      exercise: .deadlift, reps: 5, loadKg: 140, seed: 4, transport: .ble, noise: .dirty, rateHz: 40
    )
    let ble = StreamRows(Simulator.run(request).bytes).lines.map(\.t)
    let gaps = zip(ble, ble.dropFirst()).map { $1 - $0 }
    let together = gaps.filter { $0 <= 0.001 }.count
    // At 40 Hz with at least one IMU line per ping, most lines share an event.
    #expect(Double(together) / Double(gaps.count) > 0.4)
    // Between events, a connection interval (≥ 7.5 ms) less the host's
    // jitter (≤ 1 ms) and a burst's spread passes.
    #expect(gaps.filter { $0 > 0.0015 }.allSatisfy { $0 >= 0.0055 })
    #expect(gaps.contains { $0 >= 0.1 }, "a stall")

    var serialRequest = request
    serialRequest.transport = .serial
    let serial = StreamRows(Simulator.run(serialRequest).bytes).lines.map(\.t)
    let serialGaps = zip(serial, serial.dropFirst()).map { $1 - $0 }
    #expect(serialGaps.max()! < 0.7, "serial gaps are dropouts at most")
    #expect(Double(serialGaps.filter { $0 <= 0.001 }.count) / Double(serialGaps.count) < 0.1)
  }

  @Test("Faults appear at the noise level's rates, and never in clean streams")
  func faultRates() {
    var request = SimulationRequest(
      exercise: .squat, reps: 8, sets: 3, seed: 9, transport: .serial, noise: .dirty)
    request.rateHz = 40
    let dirty = Simulator.run(request).truth.faults!
    let rates = NoiseLevel.dirty.faultRates
    let n = Double(dirty.sonarSamples)
    #expect(n > 10_000)
    func near(_ count: Int, _ rate: Double) -> Bool {
      // Within 4 binomial standard deviations of the expected count.
      let expected = n * rate
      return abs(Double(count) - expected) <= 4 * expected.squareRoot() + 2
    }
    #expect(near(dirty.spikes, rates.spike), "spikes \(dirty.spikes)")
    #expect(near(dirty.spikyRegions, rates.spikyRegion), "regions \(dirty.spikyRegions)")
    #expect(near(dirty.stuckRuns, rates.stuck), "stuck \(dirty.stuckRuns)")
    #expect(near(dirty.dropouts, rates.dropout), "dropouts \(dirty.dropouts)")
    #expect(
      dirty.spikyRegionSamples >= 2 * dirty.spikyRegions
        && dirty.spikyRegionSamples <= 8 * dirty.spikyRegions)
    #expect(dirty.stuckSamples >= 3 * dirty.stuckRuns && dirty.stuckSamples <= 10 * dirty.stuckRuns)
    #expect(dirty.garbageLines > 0)

    // Faults are really in the bytes: readings far from both neighbours.
    let rows = StreamRows(Simulator.run(request).bytes)
    #expect(rows.rejections.count > 0, "overlong garbage is rejected by the reader")
    let sonar: [Double] = rows.sonar.map(\.cm)
    var isolated = 0
    for i in 1..<(sonar.count - 1) {
      let jumpIn: Double = abs(sonar[i] - sonar[i - 1])
      let jumpOut: Double = abs(sonar[i] - sonar[i + 1])
      if jumpIn > 15, jumpOut > 15 { isolated += 1 }
    }
    #expect(isolated >= dirty.spikes / 2)

    request.noise = .clean
    let clean = Simulator.run(request).truth.faults!
    #expect(
      clean.spikes + clean.spikyRegions + clean.stuckRuns + clean.dropouts + clean.garbageLines == 0
    )
  }

  @Test("Raw captures carry no times and truth follows the rate_hz clock")
  func rawCapture() {
    let stream = Simulator.run(
      SimulationRequest(
        exercise: .overheadPress, reps: 3, loadKg: 40, seed: 6, transport: .raw, noise: .dirty))
    let rows = StreamRows(stream.bytes)
    #expect(rows.header.rateHz == stream.rateHz)
    let times = rows.lines.filter { $0.text.hasPrefix("s:") }.map(\.t)
    #expect(abs(times[10] - 10 / stream.rateHz) < 1e-9)
    #expect(stream.truth.faults!.dropouts == 0)
  }

  @Test("IMU tilt episodes show in some reps' maxima")
  func tilt() {
    var rolls: [Double] = []
    for seed in UInt64(1)...6 {
      rolls += Simulator.run(SimulationRequest(exercise: .benchPress, reps: 5, seed: seed)).truth
        .sets[0].reps
        .compactMap(\.maxAbsRollDeg)
    }
    #expect(rolls.contains { $0 >= 4 })
    #expect(rolls.contains { $0 < 3 })
  }
}

@Suite("Clip firmware")
struct ClipFirmwareTests {
  @Test("The repository firmware: one decimal, device millis, 20 Hz, no out-of-range lines")
  func liftbuddyFirmware() {
    let stream = Simulator.run(
      SimulationRequest(
        exercise: .squat, reps: 4, seed: 12, transport: .serial, noise: .dirty, firmware: .liftbuddy
      ))
    #expect(stream.rateHz == 20)
    let rows = StreamRows(stream.bytes)
    let sonar = rows.lines.filter { $0.text.hasPrefix("s:") }
    let imu = rows.lines.filter { $0.text.hasPrefix("a:") }
    var millis: [Int] = []
    for line in sonar {
      let fields = line.text.split(separator: ":", omittingEmptySubsequences: false)
      guard fields.count == 3, let cm = Double(fields[1]), let ms = Int(fields[2]) else { continue }
      #expect(fields[1].split(separator: ".").last?.count == 1)
      #expect(cm >= 2 && cm <= 400)
      millis.append(ms)
    }
    #expect(Double(millis.count) > 0.9 * Double(sonar.count))
    // Consecutive pings 50 ms apart on the device clock (49–51 ms).
    let steps = zip(millis, millis.dropFirst()).map { $1 - $0 }
    #expect(Double(steps.filter { (49...51).contains($0) }.count) > 0.9 * Double(steps.count))
    let timedImu = imu.filter { $0.text.split(separator: ":").count == 4 }
    #expect(Double(timedImu.count) > 0.98 * Double(imu.count), "all but garbage carry millis")
    // Dirty streams have no-echo spikes, which this firmware does not send.
    #expect(stream.truth.faults!.skippedPings > 0)
    #expect(stream.truth.firmware == "liftbuddy")
  }

  @Test("The original clip prints plain lines, out-of-range values included")
  func originalFirmware() {
    let stream = Simulator.run(
      SimulationRequest(exercise: .squat, reps: 4, seed: 12, transport: .serial, noise: .dirty))
    let rows = StreamRows(stream.bytes)
    #expect(
      rows.lines.filter { $0.text.hasPrefix("s:") }.allSatisfy {
        $0.text.split(separator: ":").count <= 2
      })
    #expect(rows.sonar.contains { $0.cm == 0 || $0.cm >= 400 })
    #expect(stream.truth.faults!.skippedPings == 0)
  }
}

@Suite("Fault hazard")
struct FaultHazardTests {
  @Test("Spikes are likelier at the bottom of reps and during walk-outs, the same on average")
  func clustersAtTheBottom() {
    var planner = SessionPlanner(request: SimulationRequest(exercise: .squat, reps: 5, seed: 4))
    let plan = planner.plan()
    let hazard = FaultHazard(plan: plan)
    let rep = plan.sets[0].reps[2]
    let bottom = hazard.multiplier(
      at: rep.concentricPulseStart, heightCm: plan.trajectory.height(at: rep.concentricPulseStart))
    let top = hazard.multiplier(
      at: rep.concentricPulseEnd, heightCm: plan.trajectory.height(at: rep.concentricPulseEnd))
    #expect(abs(bottom / top - FaultHazard.hazardFactor) < 1e-9)
    let walk = plan.nonReps.first { $0.kind == .walkOut }!
    let mid = (walk.startS + walk.endS) / 2
    #expect(hazard.multiplier(at: mid, heightCm: plan.trajectory.height(at: mid)) == bottom)
    var sum = 0.0
    var n = 0
    var t = 0.0
    while t < plan.durationS {
      sum += hazard.multiplier(at: t, heightCm: plan.trajectory.height(at: t))
      n += 1
      t += 0.01
    }
    #expect(abs(sum / Double(n) - 1) < 1e-9)
  }
}
