import ArgumentParser
import Headway
import HeadwayDemo
import HeadwayService
import HeadwaySimulator
import HeadwaySystem

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a scripted 15-second job on the default virtual rig (24-LED ring, 60-LED strip, 128x64 OLED), or on a configuration's outputs.",
        discussion: """
            --board NAME --hat NAME… or --config FILE plays it on those outputs instead, through the \
            same device factory as serve (any OLED controller, on I2C or SPI). \
            The job starts indeterminate, becomes determinate with a label and an ETA, stalls briefly, \
            resumes and succeeds. The terminal shows the devices live when it is a TTY (without colour \
            when NO_COLOR is set), laid out for its size and redrawn when it is resized; one line \
            of text a second otherwise, and in a terminal too small for the rig.
            """
    )

    @Option(help: "A board preset, with --hat, for the rig instead of the default one.")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("A configuration file for the rig instead of the default one.", valueName: "FILE"))
    var config: String?

    @Option(help: "How many times faster than real time to play the job (e.g. 10).")
    var speed: Double = 1

    @Flag(help: "Draw nothing while the job plays; print one summary line at the end.")
    var headless = false

    @Option(help: ArgumentHelp("Write each device's last frame to this folder (PPM/PBM and SVG).", valueName: "DIR"))
    var snapshot: String?

    @Option(help: "Frames per second to draw (in real time).")
    var fps: Double = 30

    @Flag(help: "Print what each bus carried: bytes, transactions and modelled wire time per frame.")
    var stats = false

    @Option(help: ArgumentHelp("Write every bus transaction to FILE as JSON lines.", valueName: "FILE"))
    var capture: String?

    @Option(name: .customLong("i2c-khz"), help: "The I2C bus clock in kHz (the Pi's default 100, or 400).")
    var i2cKilohertz: Double = 100

    @Option(help: ArgumentHelp("Unplug the OLED at simulated second AT for SECONDS, then plug it back in (e.g. 6:2).", valueName: "AT:SECONDS"))
    var unplug: String?

    @Option(help: ArgumentHelp("The OLED does not acknowledge one transaction at simulated second AT.", valueName: "AT"))
    var nack: Double?

    @Option(help: ArgumentHelp("Press the rig's button at simulated second AT for SECONDS (default 0.3: pause/resume; 2 or more: cancel). Repeatable.", valueName: "AT[:SECONDS]"))
    var press: [String] = []

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
        guard speed.isFinite, speed > 0, speed <= 1000 else {
            throw ValidationError("--speed \(speed) is out of range; give a factor above 0 and at most 1000, e.g. --speed 10")
        }
        guard fps.isFinite, fps >= 1, fps <= 240 else {
            throw ValidationError("--fps \(fps) is out of range; give 1 to 240 frames per second")
        }
        guard i2cKilohertz.isFinite, i2cKilohertz >= 10, i2cKilohertz <= 3400 else {
            throw ValidationError("--i2c-khz \(i2cKilohertz) is out of range; I2C runs at 10 to 3400 kHz (the Pi: 100 or 400)")
        }
        _ = try unplugWindow()
        _ = try presses()
    }

    /// The simulator's rig (Boards/simulator.yaml) and its outputs, or a configuration's
    /// (`--board`/`--hat`, `--config`), built as serve builds them.
    private func devices(clock: ManualClock) throws -> (SimulatorRig, [any IndicatorOutput]) {
        let buses = SimulatedBuses(clock: clock, i2cClockHz: i2cKilohertz * 1000)
        do {
            let (rig, outputs) = try SimulatedRigBuilder.outputs(try choice.load(fallback: Presets.simulatorRig), buses: buses)
            return (rig, outputs.map(\.indicatorOutput))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// `--unplug AT:SECONDS` as (start, end) in simulated seconds.
    private func unplugWindow() throws -> (start: Double, end: Double)? {
        guard let unplug else { return nil }
        let parts = unplug.split(separator: ":")
        guard parts.count == 2, let at = Double(parts[0]), let length = Double(parts[1]), at >= 0, length > 0 else {
            throw ValidationError("--unplug \(unplug) is not AT:SECONDS with AT ≥ 0 and SECONDS > 0, e.g. --unplug 6:2")
        }
        return (at, at + length)
    }

    /// `--press AT[:SECONDS]` values.
    private func presses() throws -> [(at: Double, length: Double)] {
        try press.map { text in
            let parts = text.split(separator: ":")
            guard (1...2).contains(parts.count), let at = Double(parts[0]), at >= 0,
                let length = parts.count == 2 ? Double(parts[1]) : 0.3, length > 0.05
            else {
                throw ValidationError("--press \(text) is not AT[:SECONDS] with AT ≥ 0 and SECONDS > 0.05, e.g. --press 9 or --press 12:2")
            }
            return (at, length)
        }
    }

    func run() throws {
        // Reports land at exactly their scripted times on this clock, so the run is the same every
        // time; only the moments frames are drawn depend on the machine.
        let clock = ManualClock()
        let (rig, outputs) = try devices(clock: clock)
        let captureFile = try capture.map { try BusCapture(path: $0) }
        rig.capture(to: captureFile)
        let button = try rig.button.map { try ButtonMonitor(chip: $0.chip, offset: $0.offset, clock: clock) }
        if let (chip, line) = rig.button {
            for press in try presses() { chip.press(line, at: press.at, for: press.length) }
        }
        let indicator = ProgressIndicator(label: DemoScript.firstLabel, outputs: outputs, policy: DemoScript.policy, clock: clock)
        let realTime = ScaledClock(MonotonicClock(), factor: speed)
        let screen = headless ? nil : LiveTerminal.liveColour().map { RigScreen(colour: $0) }
        let live = screen != nil
        var textLines = TextLineThrottle()
        var faults: [(time: Double, fault: BusFault)] = []
        if let window = try unplugWindow() { faults.append((window.start, .disappear(address: 0x3C, until: window.end))) }
        if let nack { faults.append((nack, .nack(count: 1))) }
        var pending = DemoScript.events[...]
        var failures = 0
        var lastFailure = ""
        // Ctrl-C gives the terminal's cursor back.
        if live { Processes.exit(on: SignalNumber.interrupt, writing: "\u{1B}[?25h\n", to: SystemIO.standardOutput, status: 130) }

        func handleButton() {
            for event in (try? button?.poll(timeout: 0)) ?? [] {
                try? indicator.handle(event)
            }
        }

        while true {
            let now = min(realTime.now, DemoScript.duration)
            while let event = pending.first, event.time <= now {
                clock.set(to: max(clock.now, event.time))
                // Presses made before this step act first: at a high --speed or on a slow machine
                // frames are far apart, and a long press must not arrive after the job's end.
                handleButton()
                // A press may have cancelled the job: the script's later reports are moot then.
                do { try event.apply(indicator) } catch ProgressError.alreadyFinished {}
                pending = pending.dropFirst()
            }
            clock.set(to: max(clock.now, now))
            while let index = faults.firstIndex(where: { $0.time <= now }) {
                for bus in rig.i2cBuses { bus.inject(faults[index].fault) }
                faults.remove(at: index)
            }
            handleButton()
            let snapshot: ProgressSnapshot
            do throws(DeviceError) {
                snapshot = try indicator.refresh()
            } catch {
                failures += 1
                lastFailure = error.message
                snapshot = indicator.snapshot
            }
            rig.endFrame()
            if let screen {
                let status = StatusLine.describe(snapshot, columns: screen.size.columns)
                let textLine = textLines.due(status, key: snapshot.phase.name, tick: Int(snapshot.time))
                let title = "Headway simulator · demo · speed \(NumberText.compact(speed))x · Ctrl-C to stop"
                screen.show(rig, title: title, status: [status], textLine: textLine)
            } else if !headless, let textLine = textLines.due(StatusLine.describe(snapshot), key: snapshot.phase.name, tick: Int(snapshot.time)) {
                print(textLine)
            }
            if now >= DemoScript.duration { break }
            Threads.sleep(1 / fps)
        }
        screen?.finish()
        captureFile?.close()

        if let snapshot {
            let paths = try SnapshotWriter(directory: snapshot).write(rig)
            if !live { print("snapshot: " + paths.joined(separator: " ")) }
        }
        if headless {
            let sent = rig.i2cBuses.map { "\($0.name) \($0.statistics.frames.count)" } + rig.spiBuses.map { "\($0.name) \($0.statistics.frames.count)" }
                + rig.gpioChips.map { "\($0.label) \($0.statistics.frames.count)" }
            let problems = rig.problems
            print("demo finished at \(NumberText.compact(DemoScript.duration)) s simulated; frames sent: " + sent.joined(separator: ", ") + "; protocol or timing errors: \(problems.count)")
        }
        if stats { print(BusReport.describe(rig), terminator: "") }
        if failures > 0 { print("warning: \(failures) frames could not be drawn: \(lastFailure)") }
    }
}
