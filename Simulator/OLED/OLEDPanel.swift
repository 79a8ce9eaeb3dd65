/// The glass of an OLED module: how many pixels it has and which controller outputs drive them.
///
/// Module makers wire the glass so that the usual initialisation (segment remap on, COM scan
/// reversed, display offset 0, start line 0, the COM pin configuration the glass needs) shows RAM
/// column `offset + x`, row `y` at pixel (x, y). The panel records that wiring; the controller model
/// then decides, from the registers it really received, what each pixel shows — so a driver that
/// sends a wrong COM configuration or scan direction gets the garbled or flipped picture a real
/// module would show.
public struct OLEDPanel: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The lowest segment output the glass is connected to.
    public let firstSegment: Int
    /// The COM pin configuration (0xDA argument) the glass is wired for.
    public let comWiring: UInt8
    /// Physical row for each controller pin (the row a COM pin is bonded to), `nil` if unbonded.
    let rowForPin: [Int?]

    public init(width: Int, height: Int, firstSegment: Int, comWiring: UInt8) {
        self.width = width
        self.height = height
        self.firstSegment = firstSegment
        self.comWiring = comWiring
        var rows = [Int?](repeating: nil, count: 64)
        for line in 0..<height {
            // The canonical set-up scans COM lines in reverse: line L is driven by COM (height-1-L).
            let pin = OLEDPinMap.pin(forCOM: height - 1 - line, configuration: comWiring)
            rows[pin] = line
        }
        rowForPin = rows
    }

    /// The segment output that lights column `x` of the glass.
    func segment(forColumn x: Int) -> Int { firstSegment + width - 1 - x }
}

/// How the COM pin hardware configuration (command 0xDA) routes COM signals to pins.
enum OLEDPinMap {
    /// Bit 4: alternative (interleaved) COM pin configuration; bit 5: left/right remap.
    static func pin(forCOM com: Int, configuration: UInt8) -> Int {
        let alternative = configuration & 0x10 != 0
        let remap = configuration & 0x20 != 0
        if alternative {
            let firstHalf = com < 32
            let index = firstHalf ? com : com - 32
            return 2 * index + ((firstHalf != remap) ? 0 : 1)
        }
        return remap ? (com + 32) % 64 : com
    }

    static func com(forPin pin: Int, configuration: UInt8) -> Int {
        for com in 0..<64 where self.pin(forCOM: com, configuration: configuration) == pin { return com }
        return pin
    }
}
