import Headway
import HeadwayDemo
import HeadwaySimulator
import Synchronization

/// `headway-bench matrices`: bytes on the wire for each LED matrix module, per update, sent by
/// Headway's drivers on the simulator's buses and by each peer's update method as
/// ``MatrixPeerModel`` costs it, over the demo job, a bar's 1 % steps, a spinner and a job's end.
enum MatrixComparison {
    /// A module on a virtual bus: its driver (resynchronising as the service's do: after a blank
    /// picture and every 30 s) and what its bus has carried.
    struct Module {
        let name: String
        let chip: MatrixPeerModel.Chip
        let make: (ManualClock) -> (driver: any LEDMatrixDevice, bytes: () -> (bytes: Int, transactions: Int))

        static var all: [Module] {
            [
            ht16k33("HT16K33 bargraph24", .bargraph24), ht16k33("HT16K33 matrix8x8", .matrix8x8), ht16k33("HT16K33 segments4", .segments4),
            is31fl3731("IS31FL3731 Scroll pHAT HD", .scrollPHATHD), is31fl3731("IS31FL3731 LED SHIM", .ledSHIM),
            max7219("MAX7219 fc16 ×4", .fc16, devices: 4), max7219("MAX7219 segments8 ×1", .segments8, devices: 1),
            ]
        }

        static func ht16k33(_ name: String, _ backpack: HT16K33Backpack) -> Module {
            Module(name: name, chip: .ht16k33(bicolour: backpack == .bargraph24 || backpack == .matrix8x8Bicolour)) { clock in
                let bus = VirtualI2CBus(clockHz: 100_000, clock: clock)
                bus.attach(VirtualHT16K33(address: 0x70, module: .bargraph24, clock: clock))
                let driver = HT16K33Display(bus: bus, configuration: .init(backpack: backpack), clock: clock, resynchronisation: .standard)
                return (driver, { (bus.statistics.total.bytes, bus.statistics.total.transactions) })
            }
        }

        static func is31fl3731(_ name: String, _ board: IS31FL3731Board) -> Module {
            Module(name: name, chip: .is31fl3731) { clock in
                let bus = VirtualI2CBus(clockHz: 100_000, clock: clock)
                bus.attach(VirtualIS31FL3731(address: 0x74, module: .scrollPHATHD(), clock: clock))
                let driver = IS31FL3731Matrix(bus: bus, configuration: .init(board: board), clock: clock, resynchronisation: .standard)
                return (driver, { (bus.statistics.total.bytes, bus.statistics.total.transactions) })
            }
        }

        static func max7219(_ name: String, _ layout: MAX7219Layout, devices: Int) -> Module {
            Module(name: name, chip: .max7219(devices: devices)) { clock in
                let bus = VirtualSPIBus(clockModel: .exact, clock: clock)
                let driver = MAX7219Chain(bus: bus, configuration: .init(layout: layout, devices: devices), clock: clock, resynchronisation: .standard)
                return (driver, { (bus.statistics.total.bytes, bus.statistics.total.transactions) })
            }
        }
    }

    /// A module that keeps the frames a ``MatrixOutput`` hands it, and when.
    final class RecordingMatrix: LEDMatrixDevice {
        let face: MatrixFace
        let clock: ManualClock
        private let kept = Mutex<[(time: Double, frame: MatrixFrame)]>([])

        init(face: MatrixFace, clock: ManualClock) {
            self.face = face
            self.clock = clock
        }

        func show(_ frame: MatrixFrame) throws(DeviceError) {
            let now = clock.now
            kept.withLock { $0.append((now, frame)) }
        }

        var frames: [(time: Double, frame: MatrixFrame)] { kept.withLock { $0 } }
    }

    /// A sequence of frames with their times, drawn by the matrix style for `face`.
    struct Sequence {
        let name: String
        let frames: [(time: Double, frame: MatrixFrame)]

        static func all(for face: MatrixFace) throws -> [Sequence] {
            [try demo(face), barSteps(face), spinner(face), finish(face)]
        }

        /// The demo job at 30 frames/s.
        static func demo(_ face: MatrixFace) throws -> Sequence {
            let clock = ManualClock()
            let device = RecordingMatrix(face: face, clock: clock)
            let indicator = ProgressIndicator(label: DemoScript.firstLabel, outputs: [MatrixOutput(device)], policy: DemoScript.policy, clock: clock)
            var pending = DemoScript.events[...]
            var time = 0.0
            while time <= DemoScript.duration {
                while let event = pending.first, event.time <= time {
                    clock.set(to: max(clock.now, event.time))
                    try event.apply(indicator)
                    pending = pending.dropFirst()
                }
                clock.set(to: max(clock.now, time))
                try indicator.refresh()
                time += 1.0 / 30
            }
            return Sequence(name: "demo at 30 frames/s", frames: device.frames)
        }

        static func barSteps(_ face: MatrixFace) -> Sequence {
            var frames: [(time: Double, frame: MatrixFrame)] = []
            for percent in 0...99 {
                let time = Double(percent)
                let snapshot = ProgressSnapshot(
                    time: time, phase: .active, kind: .determinate(value: time, total: 100), fraction: time / 100, label: "Backup",
                    timeRemaining: (100 - time) * 7, elapsed: time + 1)
                frames.append((time, drawn(face, snapshot)))
            }
            return Sequence(name: "bar in 1 % steps", frames: frames)
        }

        static func spinner(_ face: MatrixFace) -> Sequence {
            Sequence(name: "spinner, 3 s", frames: (0..<90).map { frame in
                let time = Double(frame) / 30
                return (time, drawn(face, ProgressSnapshot(time: time, phase: .active, kind: .indeterminate, fraction: nil, label: "Backup", elapsed: time)))
            })
        }

        static func finish(_ face: MatrixFace) -> Sequence {
            let running = drawn(face, ProgressSnapshot(time: 0, phase: .active, kind: .determinate(value: 99, total: 100), fraction: 0.99, label: "Backup", elapsed: 1))
            let done = drawn(face, ProgressSnapshot(time: 1, phase: .finished(.succeeded), kind: .determinate(value: 100, total: 100), fraction: 1, label: "Backup", elapsed: 2))
            return Sequence(name: "finish", frames: [(0, running), (1, done)])
        }

        static func drawn(_ face: MatrixFace, _ snapshot: ProgressSnapshot) -> MatrixFrame {
            var picture = MatrixPicture(face: face)
            MatrixStyle().render(ProgressStyleConfiguration(snapshot: snapshot), into: &picture)
            var dither = DitherState()
            return picture.frame(appearance: .standard, pipeline: ColourPipeline(), dither: &dither)
        }
    }

    /// Headway's and each peer's bytes over `sequence` on `module`, every frame after the first
    /// (which sets the chip up, for every method alike); and the frames where Headway sent more
    /// than a peer.
    static func compare(_ module: Module, _ sequence: Sequence) -> (headway: (total: Int, worst: Int), peers: [(MatrixPeerModel, total: Int, worst: Int)], over: Int) {
        let clock = ManualClock()
        let (driver, counted) = module.make(clock)
        var headway = (total: 0, worst: 0), over = 0
        var peers = MatrixPeerModel.methods(for: module.chip).map { ($0, total: 0, worst: 0) }
        var previous: MatrixFrame?
        var lit = true, blinkStart = 0.0, blink = MatrixBlink.steady
        for (time, frame) in sequence.frames {
            clock.set(to: max(clock.now, time))
            let before = counted().bytes
            try? driver.show(frame)
            let sent = counted().bytes - before
            if frame.blink != blink { (blink, blinkStart) = (frame.blink, time) }
            let nowLit = frame.dimming > 0 && !frame.blink.isOff(after: time - blinkStart)
            defer { previous = frame; lit = nowLit }
            guard let old = previous else { continue }
            headway.total += sent
            headway.worst = max(headway.worst, sent)
            for index in peers.indices {
                let cost = peers[index].0.traffic(from: old, to: frame, on: module.chip, lightToggled: nowLit != lit).bytes
                peers[index].total += cost
                peers[index].worst = max(peers[index].worst, cost)
                if sent > cost { over += 1 }
            }
        }
        return (headway, peers, over)
    }

    static func report() throws {
        print("Bytes on the wire per update, LED matrices (I2C: a message's bytes and its address byte; SPI: the bytes clocked).")
        print("Each cell: in all over the sequence (the worst update); the first frame, which sets the chip up, left out for every method.")
        print("Headway's drivers resynchronise as the service runs them: after a blank picture and every 30 s.")
        print()
        for module in Module.all {
            let face = module.make(ManualClock()).driver.face
            let methods = MatrixPeerModel.methods(for: module.chip)
            print("\(module.name)")
            print("| sequence | updates | Headway | " + methods.map(\.rawValue).joined(separator: " | ") + " |")
            print("|---|---|---|" + methods.map { _ in "---|" }.joined())
            for sequence in try Sequence.all(for: face) {
                let result = compare(module, sequence)
                let cells = result.peers.map { "\($0.total) (\($0.worst))" }
                print("| \(sequence.name) | \(sequence.frames.count - 1) | \(result.headway.total) (\(result.headway.worst)) | " + cells.joined(separator: " | ") + " |")
                if result.over > 0 { print("  ! \(result.over) updates cost Headway more than a peer") }
            }
            print()
        }
    }
}
