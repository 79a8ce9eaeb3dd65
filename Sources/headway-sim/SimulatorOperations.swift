import HeadwayProtocol
import HeadwayService
import HeadwaySimulator
import HeadwaySystem

/// The simulator's own operations, answered around the service core rather than inside it:
/// `{"v":1,"op":"press","long":false}` presses the rig's virtual button,
/// `{"v":1,"op":"snapshot","folder":"/tmp/x"}` writes what its devices show, and
/// `{"v":1,"op":"glass"}` says when each output's last frame reached its (virtual) glass — the
/// monotonic clock's seconds, as CLOCK_MONOTONIC in any process of this machine — and the
/// progress value of each job in it (for measuring update-to-glass latency), and what the virtual
/// chips found wrong in what their drivers sent (`errors`). Every other line goes to the core
/// unchanged.
final class SimulatorOperations: LineHandler {
    let core: ServiceCore
    let rig: () -> SimulatorRig

    init(core: ServiceCore, rig: @escaping () -> SimulatorRig) {
        self.core = core
        self.rig = rig
    }

    func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent]) {
        guard let json = try? RequestFields.object(line), let op = json["op"]?.string, ["press", "snapshot", "glass"].contains(op) else {
            return core.handle(line: line, from: peer)
        }
        if op == "glass" { return (glass, []) }
        let fields = RequestFields(json: json)
        do throws(ProtocolError) {
            if op == "press" {
                let long = try fields.bool("long") ?? false
                guard let (chip, line) = rig().button else { throw ProtocolError(.unsupported, field: "op", "this rig has no button") }
                chip.press(line, at: core.clock.now + 0.01, for: long ? 2.0 : 0.3)
            } else {
                guard let folder = try fields.string("folder"), !folder.isEmpty else { throw ProtocolError(.invalidMember, field: "folder", "missing") }
                try checkFolder(folder, for: peer)
                do { try SnapshotWriter(directory: folder).write(rig()) } catch { throw ProtocolError(.ioError, field: "folder", "\(error)") }
            }
            return (Reply.ok.line, [])
        } catch {
            return (Reply.error(error).line, [])
        }
    }

    private var glass: String {
        let outputs: [JSONValue] = core.devices.outputs.compactMap { output in
            guard let frame = core.frameRecorder?.frames[output.name] else { return nil }
            let values = frame.values.sorted { $0.key < $1.key }.map { JSONValue.object([("job", .string($0.key)), ("value", .number($0.value))]) }
            return .object([("output", .string(output.name)), ("at", .number(frame.at)), ("jobs", .array(values))])
        }
        let errors = rig().problems
        return JSONValue.object([
            ("v", .number(Double(WireProtocol.version))), ("ok", .bool(true)), ("outputs", .array(outputs)), ("errors", .array(errors.map { .string($0) })),
        ]).text
    }

    /// A snapshot goes only into an existing folder (never a symlink) owned by the user asking,
    /// unless that user is root: the socket must not let one user make the simulator write into
    /// another's files.
    private func checkFolder(_ folder: String, for peer: Peer) throws(ProtocolError) {
        guard let node = Files.status(of: folder, followingLinks: false) else {
            throw ProtocolError(.invalidMember, field: "folder", "\(folder) does not exist; create it first (snapshot never creates folders)")
        }
        guard node.kind == .folder else {
            throw ProtocolError(.invalidMember, field: "folder", "\(folder) is not a folder (symlinks are not followed)")
        }
        if let uid = peer.credentials?.uid, uid != 0, node.owner != uid {
            throw ProtocolError(.notPermitted, field: "folder", "\(folder) is not yours (user \(uid)); snapshots go only into your own folders")
        }
    }
}
