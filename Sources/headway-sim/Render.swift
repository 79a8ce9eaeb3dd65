import ArgumentParser
import Headway
import HeadwayService
import HeadwaySimulator

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one moment of a job on virtual devices to picture files.",
        discussion: """
            The job begins at 0 s and reports steady progress up to --value (so it has a rate and an \
            ETA), then is drawn at --at seconds. Leave out --value for an indeterminate job. Draws \
            one --device, or every output of --board with its --hat presets (or of --config FILE), \
            through the same drivers and chips as serve. Writes into --out NAME.ppm and NAME.svg for \
            LEDs and LED matrices (one pixel per LED; a segment display's digits drawn in pixels), \
            NAME.pbm (NAME.pgm when greyscale) and NAME.svg for an OLED, NAME.ppm and NAME.png for a \
            colour TFT.
            """
    )

    enum StyleName: String, ExpressibleByArgument, CaseIterable {
        case auto, led, bar, ring
    }

    @Option(help: "auto (led for LED devices, bar for displays), led, bar or ring (display styles).")
    var style: StyleName = .auto

    @Option(help: ArgumentHelp("The device: \(DeviceCatalogue.shorthandHelp).", valueName: "DEVICE"))
    var device: String?

    @Option(help: "A board preset (\(Presets.names(.board).joined(separator: ", "))), with --hat, instead of --device.")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable): \(Presets.names(.hat).joined(separator: ", ")).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("Every output of a configuration file, instead of --device.", valueName: "FILE"))
    var config: String?

    @Option(help: "Work done. Leave out for an indeterminate job.")
    var value: Double?

    @Option(help: "Work in all.")
    var total: Double = 1

    @Option(help: "The job's label.")
    var label: String?

    @Option(help: "Seconds since the job began at which to draw it (after the 2 s grace delay).")
    var at: Double = 10

    @Option(help: ArgumentHelp("The job went silent this many seconds before --at (30 or more shows it stalled).", valueName: "SECONDS"))
    var stalledFor: Double?

    @Option(help: "The job ended 1 s before --at (after its last report): succeeded, failed or cancelled.")
    var outcome: String?

    @Option(help: ArgumentHelp("A timer of this many seconds, started at 0, counting down.", valueName: "SECONDS"))
    var countdown: Double?

    @Option(help: ArgumentHelp("Folder to write the pictures to.", valueName: "DIR"))
    var out: String

    @Option(help: ArgumentHelp("Write every bus transaction to FILE as JSON lines.", valueName: "FILE"))
    var capture: String?

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
        if (device == nil) == (board == nil && config == nil) { throw ValidationError("give --device DEVICE, or --board NAME --hat NAME, or --config FILE") }
        if device == nil, style != .auto { throw ValidationError("--style goes with --device; a configuration's outputs draw in their own style") }
    }

    func run() throws {
        let parsedOutcome = try outcome.map { text -> Outcome in
            guard let parsed = Outcome(rawValue: text) else {
                throw ValidationError("--outcome \"\(text)\" is not one of succeeded, failed, cancelled")
            }
            return parsed
        }
        let policy = LifecyclePolicy.standard
        guard at.isFinite, at >= policy.grace else {
            throw ValidationError("--at \(at) is within the \(NumberText.compact(policy.grace)) s grace delay, when nothing is shown; use --at \(NumberText.compact(policy.grace)) or later")
        }
        let silence = stalledFor ?? 0
        guard silence >= 0, silence < at - 1 else {
            throw ValidationError("--stalled-for \(silence) must be at least 0 and less than --at minus 1 (\(NumberText.compact(at - 1)))")
        }
        if let value {
            // The job's model decides what a value may be; the fix is said in this command's words.
            do throws(ProgressError) {
                var probe = try ProgressJob(kind: .determinate(value: 0, total: total), at: 0)
                try probe.update(value: value, at: 0)
            } catch {
                var fix = ""
                if case .valueAboveTotal = error { fix = " — give --total of at least \(NumberText.compact(value)), or a --value of at most \(NumberText.compact(total))" }
                throw ValidationError("--value \(NumberText.compact(value)) is refused: \(error)\(fix)")
            }
        }
        let clock = ManualClock()
        let (rig, outputs) = try devices(clock: clock)
        let captureFile = try capture.map { try BusCapture(path: $0) }
        defer { captureFile?.close() }
        rig.capture(to: captureFile)
        let indicator = ProgressIndicator(label: label, outputs: outputs, policy: policy, clock: clock)
        do {
            try script(indicator, clock: clock, silence: silence, outcome: parsedOutcome)
        } catch let error as ProgressError {
            throw ValidationError("\(error)")
        }
        clock.set(to: at)
        try indicator.refresh()
        let paths = try SnapshotWriter(directory: out).write(rig)
        print(paths.joined(separator: "\n"))
        // The virtual chips judged every byte the drivers sent: a picture drawn from a malformed
        // stream is not a picture of the product.
        let problems = rig.problems
        if !problems.isEmpty { throw ValidationError("the virtual chips found protocol errors:\n" + problems.joined(separator: "\n")) }
    }

    /// The rig and what draws on it: one --device, or a configuration's outputs, each a twin on
    /// simulated buses behind the driver the device catalogue builds (as serve builds them).
    private func devices(clock: ManualClock) throws -> (SimulatorRig, [any IndicatorOutput]) {
        let configuration: ServiceConfiguration
        do {
            configuration = try device.map { device throws(ConfigurationError) in try DeviceCatalogue.configuration(shorthand: device) }
                ?? choice.load(fallback: Presets.simulatorRig)
        } catch {
            throw ValidationError("\(error)")
        }
        // One --device may be a long chain: a frame larger than spidev's default bufsiz is drawn.
        let longChain = device != nil && configuration.outputs[0].device.ledCount != nil
        let buses = SimulatedBuses(clock: clock, spiBufsiz: longChain ? 1 << 20 : 4096)
        let (rig, outputs): (SimulatorRig, [ServiceOutput])
        do { (rig, outputs) = try SimulatedRigBuilder.outputs(configuration, buses: buses) } catch { throw ValidationError("\(error)") }
        guard device != nil else { return (rig, outputs.map(\.indicatorOutput)) }
        return (rig, [try styled(outputs[0])])
    }

    /// One --device drawn in --style: a display as a bar or a ring, without burn-in care (one
    /// moment is drawn), an LED chain in its layout.
    private func styled(_ output: ServiceOutput) throws -> any IndicatorOutput {
        switch (output.medium, style) {
        case (.lights, .auto): return output.indicatorOutput
        case (.lights, _): throw ValidationError("--style \(style.rawValue) does not apply to GPIO LEDs; leave --style out")
        case (.leds, .auto), (.leds, .led): return output.indicatorOutput
        case (.leds, _):
            throw ValidationError("--style \(style.rawValue) draws on displays, but \(device ?? "") is an LED chain; use --style led (a ring device already draws as a ring)")
        case (.display(let display), .auto), (.display(let display), .bar): return DisplayOutput(display.device, style: BarScreenStyle())
        case (.display(let display), .ring): return DisplayOutput(display.device, style: RingScreenStyle())
        case (.display, .led): throw ValidationError("--style led draws on LED chains, but \(device ?? "") is a display; use --style bar or ring")
        case (.matrix, .auto): return output.indicatorOutput
        case (.matrix, _): throw ValidationError("--style \(style.rawValue) does not apply to an LED matrix or segment display (it draws in its own style); leave --style out")
        }
    }

    private func script(_ indicator: ProgressIndicator, clock: ManualClock, silence: Double, outcome: Outcome?) throws {
        // The last report lands at least 1 s before --at, so the shown value has finished easing.
        let lastReport = at - max(silence, 1)
        if let countdown {
            try indicator.countdown(.seconds(countdown))
        } else if let value {
            try indicator.update(value: 0, total: total)
            let steps = max(1, Int(lastReport.rounded(.down)))
            for step in 1...steps {
                clock.set(to: min(lastReport, Double(step)))
                try indicator.update(value: value * Double(step) / Double(steps))
            }
        }
        clock.set(to: max(clock.now, lastReport))
        if let outcome { try indicator.finish(outcome) } else if countdown == nil && value == nil { try indicator.indeterminate() }
    }
}
