import Headway
import HeadwaySimulator

/// Picture sequences an OLED shows, each picture different from the one before (frames without
/// a change cost nothing and are left out, for every peer alike).
struct PictureSequence {
    let name: String
    let pictures: [Bitmap]

    /// The demo job at 30 frames/s, as a 128x64 OLED's glass showed it.
    static func demo() throws -> PictureSequence {
        let clock = ManualClock()
        let bus = VirtualI2CBus(clock: clock)
        let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1306), bus: bus, resynchronisation: .onErrorsOnly)
        var pictures: [Bitmap] = []
        try playDemo(on: oled, clock: clock) { if pictures.last != oled.picture { pictures.append(oled.picture) } }
        return PictureSequence(name: "demo at 30 frames/s", pictures: pictures)
    }

    /// A bar screen from 0 to 100 % in 1 % steps.
    static func barSteps() -> PictureSequence {
        PictureSequence(name: "bar in 1 % steps", pictures: (0...100).map { percent in
            screen(BarScreenStyle(), phase: .active, kind: .determinate(value: Double(percent), total: 100), fraction: Double(percent) / 100, time: Double(percent))
        }.distinctNeighbours)
    }

    /// The indeterminate ring screen's spinner, 3 s at 30 frames/s.
    static func spinner() -> PictureSequence {
        PictureSequence(name: "spinner, 3 s", pictures: (0..<90).map { frame in
            screen(RingScreenStyle(), phase: .active, kind: .indeterminate, fraction: nil, time: Double(frame) / 30)
        }.distinctNeighbours)
    }

    /// The end of a job: 99 %, then the success signal's frames for 1 s at 30 frames/s.
    static func finish() -> PictureSequence {
        let running = screen(BarScreenStyle(), phase: .active, kind: .determinate(value: 99, total: 100), fraction: 0.99, time: 100)
        let done = (0..<30).map { frame in
            screen(BarScreenStyle(), phase: .finished(.succeeded), kind: .determinate(value: 100, total: 100), fraction: 1, time: 100 + Double(frame) / 30)
        }
        return PictureSequence(name: "finish screen", pictures: ([running] + done).distinctNeighbours)
    }

    private static func screen(_ style: some DisplayStyle, phase: JobPhase, kind: ProgressKind, fraction: Double?, time: Double) -> Bitmap {
        let snapshot = ProgressSnapshot(time: time, phase: phase, kind: kind, fraction: fraction, label: "Compiling widgets", timeRemaining: fraction.map { (1 - $0) * 120 }, elapsed: time)
        var bitmap = Bitmap(width: 128, height: 64)
        style.render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
        return bitmap
    }
}

extension Array where Element == Bitmap {
    var distinctNeighbours: [Bitmap] { enumerated().filter { $0.offset == 0 || self[$0.offset - 1] != $0.element }.map(\.element) }
}

/// Bytes on the wire for each picture after the first (which also initialises the display), sent
/// by Headway's driver and by each peer's update method, and the physical floor.
struct PeerComparison {
    struct Tally {
        var total = 0
        var worst = 0
        var frames = 0
        mutating func add(_ bytes: Int) {
            total += bytes
            worst = Swift.max(worst, bytes)
            frames += 1
        }
    }

    var headway = Tally()
    var peers: [OLEDPeerModel: Tally] = [:]
    var floor = Tally()
    /// Frames on which Headway sent more than a peer (the property test says: none).
    var framesOverAPeer = 0

    init(_ sequence: PictureSequence, controller: OLEDController, smbusOnly: Bool) throws {
        let bus = VirtualI2CBus(smbusOnly: smbusOnly, clock: ManualClock())
        let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: controller), bus: bus, resynchronisation: .onErrorsOnly)
        var previous: [UInt8]?
        for picture in sequence.pictures {
            let before = bus.statistics.frames.count
            try oled.driver.show(picture)
            bus.endFrame()
            let sent = bus.statistics.frames.count > before ? bus.statistics.frames.last!.bytes : 0
            defer { previous = picture.bytes }
            guard let old = previous else { continue }
            headway.add(sent)
            for peer in OLEDPeerModel.allCases {
                let bytes = peer.bytes(from: old, to: picture.bytes, width: 128, controller: controller, messageLimit: bus.maxMessageLength)
                peers[peer, default: Tally()].add(bytes)
                if sent > bytes { framesOverAPeer += 1 }
            }
            floor.add(OLEDPeerModel.floor(from: old, to: picture.bytes, width: 128, controller: controller, messageLimit: bus.maxMessageLength))
        }
    }

    static func report() throws {
        print("OLED bytes on the wire against the peers' update methods (per sequence: total, worst frame; frames after the first)")
        for sequence in [try PictureSequence.demo(), .barSteps(), .spinner(), .finish()] {
            for (controller, smbusOnly) in [(OLEDController.ssd1306, false), (.ssd1306, true), (.sh1106, false)] {
                let result = try PeerComparison(sequence, controller: controller, smbusOnly: smbusOnly)
                func text(_ tally: Tally) -> String { "\(tally.total) (worst \(tally.worst))" }
                let peers = OLEDPeerModel.allCases.map { "\($0.rawValue) \(text(result.peers[$0] ?? Tally()))" }.joined(separator: ", ")
                print("  \(sequence.name), \(controller.rawValue)\(smbusOnly ? " SMBus" : ""), \(result.headway.frames) frames: Headway \(text(result.headway)); \(peers); floor \(text(result.floor)); frames over a peer: \(result.framesOverAPeer)")
            }
        }
    }
}
