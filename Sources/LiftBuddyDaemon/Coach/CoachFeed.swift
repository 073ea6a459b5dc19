import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The coach's view of the room: subscribes, through libmosquitto, to every
/// rack's messages under `<prefix>/+/…` (docs/mqtt.md), keeps a
/// `RoomModel`, and hands each rack's changed state to `update` as the room
/// view's `rack` object (`RackObject`), for the web view's room page.
///
/// A message is applied to the room on libmosquitto's thread as it arrives
/// (one thread, so in the broker's order) and the rack's object handed on
/// from there: no hop to another thread between the broker and the page.
/// The link (connecting, retrying, subscribing, logging) runs on the feed's
/// own thread (`SerialIOQueue`). A broker that is away is a log line and a
/// retry, never an exit.
public final class CoachFeed: Sendable {
  public let configuration: CoachConfiguration
  private let queue = SerialIOQueue()
  private let session: NIOLoopBoundBox<CoachSession?>
  private let link = Mutex(false)
  private let model = Mutex(RoomModel())
  private let logger: Logger
  private let update: @Sendable (String, ByteBuffer) -> Void

  /// Starts connecting at once, on the feed's own thread. `update` gets
  /// every changed page object with its key: `""` for the coach's own link
  /// (`CoachLinkObject`), `rack/<name>` for a rack; racks' objects come in
  /// the order their messages did.
  public init(
    configuration: CoachConfiguration, logger: Logger,
    update: @escaping @Sendable (_ key: String, _ frame: ByteBuffer) -> Void
  ) {
    self.configuration = configuration
    self.logger = logger
    self.update = update
    session = NIOLoopBoundBox.makeEmptyBox(valueType: CoachSession.self, eventLoop: queue.loop)
    queue.execute { [self] in
      let callbacks = MosquittoClient.Callbacks(
        connected: { [weak self] rc in self?.onQueue { $0.connected(rc) } },
        disconnected: { [weak self] rc, systemError in
          self?.onQueue { $0.disconnected(rc, systemError: systemError) }
        },
        published: { _ in },
        message: { [weak self] topic, payload in self?.take(topic: topic, payload: payload) })
      let created = CoachSession(
        configuration: configuration, logger: logger, callbacks: callbacks,
        retryLater: { [weak self] seconds in
          self?.queue.schedule(in: .milliseconds(Int64(seconds * 1000))) { [weak self] in
            self?.onQueue { $0.start() }
          }
        },
        update: { [weak self] key, frame in
          if key.isEmpty { self?.mirrorLink() }
          update(key, frame)
        })
      session.value = created
      created.start()
    }
  }

  /// Subscribed to the racks' topics now.
  public var isConnected: Bool { link.withLock { $0 } }

  /// The room as it stands, every message received so far applied.
  public var room: RoomModel { model.withLock { $0 } }

  /// Disconnects and stops the feed's thread.
  public func close() async {
    try? await queue.loop.submit { [self] in
      session.value?.stop()
      session.value = nil
    }.get()
    await queue.shutdown()
    let (racks, c) = model.withLock { ($0.racks.count, $0.counts) }
    logger.info(
      "coach: stopped",
      metadata: [
        "racks": "\(racks)", "taken": "\(c.taken)", "duplicates": "\(c.duplicates)",
        "unreadable": "\(c.unreadable)", "racks_refused": "\(c.racksRefused)",
        "recalled": "\(c.recalled)", "cleared": "\(c.cleared)",
      ])
  }

  /// On libmosquitto's thread: applies a message, hands on the rack's object.
  private func take(topic: String, payload: [UInt8]) {
    guard let topic = CoachTopic(topic, prefix: configuration.prefix) else { return }
    let frame = model.withLock { room -> ByteBuffer? in
      guard room.apply(topic, payload: payload),
        let rack = room.racks[topic.rack]
      else { return nil }
      return RackObject.frame(rack)
    }
    if let frame { update("rack/" + topic.rack, frame) }
  }

  private func mirrorLink() {
    let connected = session.value?.connected ?? false
    link.withLock { $0 = connected }
  }

  private func onQueue(_ work: @escaping @Sendable (CoachSession) -> Void) {
    queue.execute { [self] in
      if let session = session.value { work(session) }
    }
  }
}
