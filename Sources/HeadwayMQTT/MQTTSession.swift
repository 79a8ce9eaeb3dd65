import CMosquitto
import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// One connection to a broker through libmosquitto, driven by the caller: every wait has a
/// deadline (monotonic seconds), so a hook gives up within its budget and a bridge's loop never
/// blocks for long. Not thread-safe: one owner.
public final class MQTTSession {
    /// What went wrong with the broker, naming it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// The broker refused the login (wrong or missing credentials, not authorised).
        public var refused = false
    }

    /// A message received.
    public struct Message: Sendable, Equatable {
        /// Its topic.
        public var topic: String
        /// Its payload.
        public var payload: [UInt8]
        /// Whether the broker had kept it (it arrived on subscribing).
        public var retained: Bool
    }

    /// What the broker publishes when it loses the session (the process or its machine died).
    public struct Will: Sendable {
        /// Its topic.
        public var topic: String
        /// Its payload.
        public var payload: [UInt8]
        /// Whether the broker keeps it.
        public var retained: Bool

        /// A will of each member given.
        public init(topic: String, payload: [UInt8], retained: Bool) {
            self.topic = topic
            self.payload = payload
            self.retained = retained
        }
    }

    private let handle: OpaquePointer
    /// Where the broker is and how to log in.
    public let settings: BrokerSettings

    /// A session for `settings`; `cleanSession` false keeps its subscriptions and queued QoS 1
    /// messages at the broker across reconnections.
    public init(_ settings: BrokerSettings, clientID: String, cleanSession: Bool = true, will: Will? = nil) throws(Failure) {
        guard hw_mqtt_load() == 0 else {
            throw Failure(description: "MQTT needs libmosquitto (sudo apt install libmosquitto1): \(String(cString: hw_mqtt_load_error()))")
        }
        guard let handle = hw_mqtt_new(clientID, cleanSession ? 1 : 0) else { throw Failure(description: "cannot make an MQTT client") }
        self.handle = handle
        self.settings = settings
        if let user = settings.user { try check(hw_mqtt_credentials(handle, user, settings.password), "setting the credentials for") }
        if settings.tls { try check(hw_mqtt_tls(handle, settings.caFile), "setting up TLS for") }
        if let will {
            try check(will.payload.withUnsafeBytes { hw_mqtt_will(handle, will.topic, $0.baseAddress, Int32($0.count), 1, will.retained ? 1 : 0) }, "setting the will for")
        }
    }

    deinit { hw_mqtt_destroy(handle) }

    private func check(_ code: Int32, _ doing: String) throws(Failure) {
        guard code == 0 else { throw Failure(description: "\(doing) \(settings.address) failed: \(String(cString: hw_mqtt_strerror(code)))") }
    }

    /// Connects and waits for the broker's answer until `deadline`. The TCP connection itself
    /// does not block: an address that never answers costs the time to the deadline, no more.
    public func connect(keepAlive: Int = 60, until deadline: Double) throws(Failure) {
        try check(hw_mqtt_connect_async(handle, settings.host, Int32(settings.port), Int32(keepAlive)), "connecting to")
        try awaitConnack(until: deadline)
    }

    /// Connects again after a loss (same settings, will and, without a clean session, subscriptions).
    public func reconnect(until deadline: Double) throws(Failure) {
        try check(hw_mqtt_reconnect(handle), "reconnecting to")
        try awaitConnack(until: deadline)
    }

    private func awaitConnack(until deadline: Double) throws(Failure) {
        while hw_mqtt_connack(handle) < 0 {
            guard MonotonicClock().now < deadline else { throw Failure(description: "\(settings.address) did not answer in time") }
            try pump(timeout: deadline - MonotonicClock().now)
        }
        let code = hw_mqtt_connack(handle)
        guard code == 0 else {
            throw Failure(description: "\(settings.address) refused the connection: \(String(cString: hw_mqtt_connack_string(code)))", refused: true)
        }
    }

    /// Queues a message (QoS 1: the broker acknowledges it; see ``flush(until:)``).
    public func publish(_ topic: String, _ payload: [UInt8], retained: Bool, qos: Int32 = 1) throws(Failure) {
        try check(payload.withUnsafeBytes { hw_mqtt_publish(handle, topic, $0.baseAddress, Int32($0.count), qos, retained ? 1 : 0) }, "publishing to")
    }

    /// Waits until the broker acknowledged every QoS 1 message, or `deadline`.
    public func flush(until deadline: Double) throws(Failure) {
        while hw_mqtt_unacknowledged(handle) > 0 {
            guard MonotonicClock().now < deadline else { throw Failure(description: "\(settings.address) did not acknowledge in time") }
            try pump(timeout: deadline - MonotonicClock().now)
        }
    }

    /// Subscribes to `pattern` (MQTT's `+` and `#` wildcards) with QoS 1.
    public func subscribe(_ pattern: String) throws(Failure) {
        try check(hw_mqtt_subscribe(handle, pattern, 1), "subscribing at")
    }

    /// One round of network work, waiting up to `timeout` seconds for the socket.
    public func pump(timeout: Double) throws(Failure) {
        let code = hw_mqtt_loop(handle, Int32(max(0, min(timeout, 60)) * 1000))
        guard code == 0 else {
            // A refused login ends the loop with an error after the CONNACK said why: say that.
            let connack = hw_mqtt_connack(handle)
            if connack > 0 { throw Failure(description: "\(settings.address) refused the connection: \(String(cString: hw_mqtt_connack_string(connack)))", refused: true) }
            throw Failure(description: "the connection to \(settings.address) failed: \(String(cString: hw_mqtt_strerror(code)))")
        }
    }

    /// The messages received so far, oldest first.
    public func received() -> [Message] {
        var messages: [Message] = []
        var topic: UnsafeMutablePointer<CChar>?
        var payload: UnsafeMutablePointer<UInt8>?
        var length: Int32 = 0
        var retained: Int32 = 0
        while hw_mqtt_next_message(handle, &topic, &payload, &length, &retained) == 1 {
            messages.append(Message(topic: String(cString: topic!), payload: Array(UnsafeBufferPointer(start: payload, count: Int(length))), retained: retained != 0))
            CMemory.free(topic)
            CMemory.free(payload)
        }
        return messages
    }

    /// What to wait for with poll(2) before ``service()``, beside other descriptors: the socket,
    /// readable, and writable too while messages wait to go out. nil while not connected.
    public var readiness: (fd: Int32, wanted: Readiness)? {
        let fd = hw_mqtt_socket(handle)
        guard fd >= 0 else { return nil }
        return (fd, hw_mqtt_want_write(handle) == 1 ? [.readable, .writable] : .readable)
    }

    /// Network work due now (sending queued messages, reading acknowledgements, the keep-alive
    /// ping), without waiting.
    public func service() throws(Failure) { try pump(timeout: 0) }

    /// Disconnects cleanly (the will is not sent).
    public func disconnect() {
        _ = hw_mqtt_disconnect(handle)
    }
}
