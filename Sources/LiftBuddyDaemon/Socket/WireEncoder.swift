import Foundation
import LiftBuddyCore
import NIOCore

/// Encodes the server's objects as JSON Lines records: one object, then LF.
///
/// It uses the core's `ReportJSON` encoder (sorted keys), so a `lift`
/// object's report is byte-for-byte the report the JSON files hold, and the
/// wrappers are deterministic too. Sorting also keeps `class` first in every
/// object: no other key the server sends sorts before it.
public enum WireEncoder {
  public static let protoMajor = 1
  public static let protoMinor = 1

  /// The record for a published event; encoded once per publish and shared by
  /// every subscriber's channel.
  public static func event(_ event: DaemonEvent) -> ByteBuffer {
    switch event {
    case .analyzer(.setStarted(let set)): record(SetObject(set: set))
    case .analyzer(.rep(let rep)): record(RepObject(class: "rep", event: rep))
    case .analyzer(.provisionalRep(let rep)):
      record(RepObject(class: "rep_provisional", event: rep))
    case .analyzer(.repWithdrawn(let w)): record(RepWithdrawnObject(withdrawal: w))
    case .analyzer(.lift(let report)): record(LiftObject(report: report))
    case .status(let status): self.status(status)
    case .sample(let state): record(SampleObject(state: state))
    }
  }

  public static func version(release: String) -> ByteBuffer {
    record(VersionObject(release: release, protoMajor: protoMajor, protoMinor: protoMinor))
  }

  public static func ack(_ command: ClientCommand, subscriptions: SubscriptionSet? = nil)
    -> ByteBuffer
  {
    record(AckObject(cmd: command.name, classes: subscriptions.map { $0.classes.map(\.rawValue) }))
  }

  public static func error(_ message: String) -> ByteBuffer {
    record(ErrorObject(message: message))
  }

  public static func status(_ status: DaemonStatus) -> ByteBuffer {
    record(StatusObject(status: status))
  }

  private static func record(_ value: some Encodable) -> ByteBuffer {
    var data: Data
    do {
      data = try ReportJSON.encoder().encode(value)
    } catch {
      // Only a non-finite number can fail to encode; the pipeline should never
      // produce one, but a subscriber is still owed a well-formed line.
      data = Data(#"{"class":"error","message":"unencodable event"}"#.utf8)
    }
    var buffer = ByteBuffer()
    buffer.reserveCapacity(data.count + 1)
    buffer.writeBytes(data)
    buffer.writeInteger(UInt8(ascii: "\n"))
    return buffer
  }
}
