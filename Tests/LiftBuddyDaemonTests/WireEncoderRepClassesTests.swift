import LiftBuddyCore
import NIOCore
import Testing

@testable import LiftBuddyDaemon

/// The two classes protocol 1.1 added, byte for byte as docs/socket-protocol.md
/// shows them: a provisional rep has exactly the shape of a final one, and a
/// withdrawal names the set, the index and the reason.
@Suite("Wire encoding of provisional and withdrawn reps")
struct WireEncoderRepClassesTests {
  private static func text(_ event: DaemonEvent) -> String {
    var buffer = WireEncoder.event(event)
    return buffer.readString(length: buffer.readableBytes) ?? ""
  }

  @Test func provisionalRepIsARepObjectUnderItsOwnClass() {
    guard case .analyzer(.rep(let rep)) = SocketFixtures.repEvent(1) else {
      Issue.record("fixture is not a rep")
      return
    }
    let final = Self.text(.analyzer(.rep(rep)))
    let provisional = Self.text(.analyzer(.provisionalRep(rep)))
    #expect(final.hasPrefix(#"{"class":"rep","exercise":"squat""#))
    #expect(provisional.hasPrefix(#"{"class":"rep_provisional","exercise":"squat""#))
    // Everything after the class is the same bytes.
    #expect(
      final.dropFirst(#"{"class":"rep""#.count)
        == provisional.dropFirst(#"{"class":"rep_provisional""#.count))
    #expect(EventClass(of: .analyzer(.provisionalRep(rep))) == .repProvisional)
  }

  @Test func withdrawalNamesSetIndexAndReason() {
    let event = DaemonEvent.analyzer(
      .repWithdrawn(
        RepWithdrawal(setID: "20261121T041000Z-set2", setNumber: 2, index: 1, reason: .oneWay)))
    #expect(
      Self.text(event)
        == #"{"class":"rep_withdrawn","index":1,"reason":"one_way","set":2,"set_id":"20261121T041000Z-set2"}"#
        + "\n")
    #expect(EventClass(of: event) == .repWithdrawn)
    #expect(RepWithdrawal.Reason.outsideSet.rawValue == "outside_set")
  }
}
