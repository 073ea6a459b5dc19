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
/// Runs on its own thread (`SerialIOQueue`); libmosquitto's thread does the
/// network. A broker that is away is a log line and a retry, never an exit.
public final class CoachFeed: Sendable {
  public let configuration: CoachConfiguration
  private let queue = SerialIOQueue()
  private let session: NIOLoopBoundBox<CoachSession?>
  private let link = Mutex(false)

  /// Starts connecting at once, on the feed's own thread. `update` gets
  /// every changed page object with its key: `""` for the coach's own link
  /// (`CoachLinkObject`), `rack/<name>` for a rack; it is called on the
  /// feed's thread, in order.
  public init(
    configuration: CoachConfiguration, logger: Logger,
    update: @escaping @Sendable (_ key: String, _ frame: ByteBuffer) -> Void
  ) {
    self.configuration = configuration
    session = NIOLoopBoundBox.makeEmptyBox(valueType: CoachSession.self, eventLoop: queue.loop)
    queue.execute { [self] in
      let callbacks = MosquittoSubscriber.Callbacks(
        connected: { [weak self] rc in self?.onQueue { $0.connected(rc) } },
        disconnected: { [weak self] rc in
          let systemError = errno
          self?.onQueue { $0.disconnected(rc, systemError: systemError) }
        },
        message: { [weak self] topic, payload in
          self?.onQueue { $0.message(topic: topic, payload: payload) }
        })
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

  /// The room as it stands, after every message received so far has been applied.
  public func room() async -> RoomModel {
    (try? await queue.loop.submit { [self] in session.value?.model ?? RoomModel() }.get())
      ?? RoomModel()
  }

  /// Disconnects and stops the feed's thread.
  public func close() async {
    try? await queue.loop.submit { [self] in
      session.value?.stop()
      session.value = nil
    }.get()
    await queue.shutdown()
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
