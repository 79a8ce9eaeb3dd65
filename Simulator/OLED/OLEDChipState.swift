import HeadwayDevices

/// One controller's state, of whichever family: the bus front ends hand bytes here and the glass
/// reads levels from here, without knowing which family they talk to.
enum OLEDChipState: Sendable {
    /// SSD1306, SSD1309, SSD1305, SSD1315, SH1106, SH1107: 1 bit a pixel in pages.
    case monochrome(OLEDRegisters)
    /// SSD1327: 4 bits a pixel in row and column windows.
    case greyscale(SSD1327Registers)

    init(controller: OLEDController, protocolErrors: [String] = []) {
        switch controller {
        case .ssd1327: self = .greyscale(SSD1327Registers(protocolErrors: protocolErrors))
        default: self = .monochrome(OLEDRegisters(controller: controller, protocolErrors: protocolErrors))
        }
    }

    var protocolErrors: [String] {
        switch self {
        case .monochrome(let r): r.protocolErrors
        case .greyscale(let r): r.protocolErrors
        }
    }

    mutating func take(_ byte: UInt8, isData: Bool) {
        switch self {
        case .monochrome(var r): r.take(byte, isData: isData); self = .monochrome(r)
        case .greyscale(var r): r.take(byte, isData: isData); self = .greyscale(r)
        }
    }

    mutating func endOfTransaction() {
        switch self {
        case .monochrome(var r): r.endOfTransaction(); self = .monochrome(r)
        case .greyscale(var r): r.endOfTransaction(); self = .greyscale(r)
        }
    }

    /// RES# low: registers to their reset values, RAM kept.
    mutating func reset() {
        switch self {
        case .monochrome(var r): r.reset(); self = .monochrome(r)
        case .greyscale(var r): r.reset(); self = .greyscale(r)
        }
    }

    mutating func error(_ text: String) {
        switch self {
        case .monochrome(var r): r.error(text); self = .monochrome(r)
        case .greyscale(var r): r.error(text); self = .greyscale(r)
        }
    }

    /// What the glass of `panel` shows: levels 0 … 15.
    func glass(on panel: OLEDPanel) -> Greymap {
        switch self {
        case .monochrome(let r): r.glass(on: panel)
        case .greyscale(let r): r.glass(on: panel)
        }
    }
}
