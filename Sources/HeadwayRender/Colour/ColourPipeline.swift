import RealModule

/// What a chain of LEDs may draw from its supply, and what its LEDs draw.
///
/// The estimate follows WLED's limiter: each channel draws `milliampsPerChannel` at full level and
/// proportionally less below it, each LED `idleMilliampsPerLED` even when dark. When a frame would
/// draw more than `budgetMilliamps`, every LED is dimmed by the same factor so the total fits — a
/// 60-LED strip on a Pi's 5 V rail (about 1 A to spare) can then never brown out the board.
public struct CurrentBudget: Sendable, Equatable {
    /// The most current the chain may draw, in mA.
    public var budgetMilliamps: Double
    /// What one channel draws at full level, in mA (WLED's model: 20).
    public var milliampsPerChannel: Double
    /// What an LED draws when dark, in mA.
    public var idleMilliampsPerLED: Double

    /// A budget of `budgetMilliamps` for LEDs that draw as given.
    public init(budgetMilliamps: Double, milliampsPerChannel: Double = 20, idleMilliampsPerLED: Double = 1) {
        self.budgetMilliamps = budgetMilliamps
        self.milliampsPerChannel = milliampsPerChannel
        self.idleMilliampsPerLED = idleMilliampsPerLED
    }

    /// Milliamps drawn by LEDs driven at `levels`.
    public func current(of levels: [RGB8]) -> Double {
        let channels = levels.reduce(0) { $0 + Int($1.red) + Int($1.green) + Int($1.blue) }
        return Double(channels) / 255 * milliampsPerChannel + idleMilliampsPerLED * Double(levels.count)
    }
}

/// The sub-level remainders temporal dithering carries from one frame to the next, per LED channel.
public struct DitherState: Sendable, Equatable {
    var residuals: [Float] = []
    /// No remainders yet.
    public init() {}
}

/// Turns the light a style asked for into the levels an LED chain is driven with.
///
/// Styles work in linear light; WS2812 and APA102 LEDs are PWM-driven, so their light is linear in
/// the level and the default ``gamma`` is 1. Set it above 1 for LEDs (or diffusers) whose response is
/// not linear: level = 255 · light^(1/gamma). A ``CurrentBudget`` dims frames that would draw too
/// much. With ``dithering`` the fraction of a level that 8 bits cannot show is carried to the next
/// frame, so over a few frames an LED averages the exact light asked for — a 1 % step on a dim
/// 16-LED ring is then visible instead of rounding away.
public struct ColourPipeline: Sendable, Equatable {
    /// The LEDs' response: level = 255 · light^(1/gamma).
    public var gamma: Float
    /// The current budget frames are dimmed to (nil: none).
    public var budget: CurrentBudget?
    /// Whether sub-level remainders are carried to the next frame.
    public var dithering: Bool

    /// A pipeline with each stage given.
    public init(gamma: Float = 1, budget: CurrentBudget? = nil, dithering: Bool = false) {
        precondition(gamma > 0, "gamma must be positive")
        self.gamma = gamma
        self.budget = budget
        self.dithering = dithering
    }

    /// The drive levels for every LED of `frame` (rounded, no dithering).
    public func levels(for frame: LEDFrame) -> [RGB8] {
        var state = DitherState()
        return levels(for: frame, carrying: &state, dither: false)
    }

    /// The drive levels for `frame`, dithering with `state` when ``dithering`` is on.
    public func levels(for frame: LEDFrame, dither state: inout DitherState) -> [RGB8] {
        levels(for: frame, carrying: &state, dither: dithering)
    }

    private func levels(for frame: LEDFrame, carrying state: inout DitherState, dither: Bool) -> [RGB8] {
        // Per frame and per LED: one flat buffer, no array per pixel.
        var values: [Float] = []
        values.reserveCapacity(frame.count * 3)
        for light in frame.pixels {
            values.append(shape(light.red))
            values.append(shape(light.green))
            values.append(shape(light.blue))
        }
        if let budget {
            let estimate = Double(values.reduce(0, +)) / 255 * budget.milliampsPerChannel
            let idle = budget.idleMilliampsPerLED * Double(frame.count)
            // Rounding may add up to half a level per channel; keep room for it.
            let rounding = 0.5 / 255 * budget.milliampsPerChannel * Double(values.count)
            if estimate + idle > budget.budgetMilliamps {
                let factor = Float(max(0, budget.budgetMilliamps - idle - rounding) / estimate)
                values = values.map { $0 * factor }
            }
        }
        if dither, state.residuals.count != values.count { state.residuals = Array(repeating: 0, count: values.count) }
        var levels: [RGB8] = []
        levels.reserveCapacity(frame.count)
        func quantise(_ index: Int) -> UInt8 {
            guard dither else { return UInt8(min(255, max(0, values[index].rounded()))) }
            let wanted = values[index] + state.residuals[index]
            let level = min(255, max(0, wanted.rounded()))
            state.residuals[index] = wanted - level
            return UInt8(level)
        }
        for led in 0..<frame.count {
            levels.append(RGB8(red: quantise(3 * led), green: quantise(3 * led + 1), blue: quantise(3 * led + 2)))
        }
        return levels
    }

    /// Light 0…1 as a level 0…255 before rounding.
    private func shape(_ light: Float) -> Float {
        let clipped = min(1, max(0, light))
        return (gamma == 1 ? clipped : Float.pow(clipped, 1 / gamma)) * 255
    }

    /// The light an LED emits when driven at `level` (the inverse of ``levels(for:)``, for simulators).
    public func light(for level: RGB8) -> LinearColour {
        func channel(_ value: UInt8) -> Float {
            let normalised = Float(value) / 255
            return gamma == 1 ? normalised : Float.pow(normalised, gamma)
        }
        return LinearColour(red: channel(level.red), green: channel(level.green), blue: channel(level.blue))
    }
}
