import HeadwaySurfaces

/// How a module's LED dies hang on its chip's outputs: for each die, the chip output that drives it
/// (numbered the chip's own way: an HT16K33 RAM bit, an IS31FL3731 LED, a MAX7219 digit bit) and
/// where the die sits.
struct LEDWiring: Sendable {
    /// One die and the chip output behind it.
    struct Wire: Sendable, Hashable {
        /// The chip output, in the chip's own numbering.
        let output: Int
        let x: Int
        let y: Int
        let colour: RGB8
        let segment: Segment?

        init(output: Int, x: Int, y: Int, colour: RGB8, segment: Segment? = nil) {
            self.output = output
            self.x = x
            self.y = y
            self.colour = colour
            self.segment = segment
        }
    }

    let width: Int
    let height: Int
    let wires: [Wire]
    /// Segment modules: how many digits there are (the wires' x run over 0 ..< digits).
    let digits: Int

    init(width: Int, height: Int, wires: [Wire], digits: Int = 0) {
        self.width = width
        self.height = height
        self.wires = wires
        self.digits = digits
    }

    /// Every (x, y) of a width × height grid, row by row.
    static func grid(_ width: Int, _ height: Int) -> [(Int, Int)] {
        (0..<height).flatMap { y in (0..<width).map { x in (x, y) } }
    }

    /// The chip outputs the module uses.
    var outputs: Set<Int> { Set(wires.map(\.output)) }

    /// The glass when each output drives its die at `brightness(output)` (0 … 1).
    func glass(protocolErrors: [String], brightness: (Int) -> Double) -> LEDGlass {
        let leds = wires.map {
            GlassLED(x: $0.x, y: $0.y, colour: $0.colour, brightness: brightness($0.output), segment: $0.segment)
        }
        var shown: [SegmentDigit] = []
        if digits > 0 {
            shown = (0..<digits).map { index in
                let dies = leds.filter { $0.x == index && $0.brightness > 0 }
                let lit = Segment.allCases.filter { segment in dies.contains { $0.segment == segment } }
                return SegmentDigit(index: index, lit: lit, brightness: dies.map(\.brightness).max() ?? 0)
            }
        }
        return LEDGlass(width: width, height: height, leds: leds, digits: shown, protocolErrors: protocolErrors)
    }
}

/// The die colours the modules are sold with.
enum DieColour {
    static let red = RGB8(red: 255, green: 0, blue: 0)
    static let green = RGB8(red: 0, green: 255, blue: 0)
    static let blue = RGB8(red: 0, green: 0, blue: 255)
    static let white = RGB8(red: 255, green: 255, blue: 255)
}
