import HeadwayDevices

/// The state of an SSD1306 or SH1106: display RAM and every register the command set writes.
/// Values start at the datasheets' reset values.
public struct OLEDRegisters: Sendable {
    public enum AddressingMode: Sendable, Equatable { case horizontal, vertical, page }

    public let controller: OLEDController
    public let ramWidth: Int
    /// Display RAM in page format: `page * ramWidth + column`, bit 0 the top row of the page.
    public internal(set) var ram: [UInt8]
    public internal(set) var displayOn = false
    public internal(set) var contrast: UInt8 = 0x7F
    public internal(set) var inverted = false
    public internal(set) var entireDisplayOn = false
    public internal(set) var segmentRemap = false
    public internal(set) var comScanReversed = false
    public internal(set) var multiplex = 63
    public internal(set) var displayOffset = 0
    public internal(set) var startLine = 0
    public internal(set) var comPins: UInt8 = 0x12
    /// SSD1306: internal charge pump (off at reset); SH1106: DC-DC converter (on at reset).
    public internal(set) var powerOn: Bool
    public internal(set) var addressing = AddressingMode.page
    public internal(set) var columnRange = 0...127
    public internal(set) var pageRange = 0...7
    public internal(set) var column = 0
    public internal(set) var page = 0
    public internal(set) var scrolling = false
    public internal(set) var protocolErrors: [String]

    struct PendingCommand {
        var opcode: UInt8
        var needed: Int
        var arguments: [UInt8] = []
    }

    var pendingCommand: PendingCommand?

    init(controller: OLEDController, protocolErrors: [String] = []) {
        self.controller = controller
        ramWidth = controller == .sh1106 ? 132 : 128
        ram = Array(repeating: 0, count: ramWidth * 8)
        powerOn = controller == .sh1106
        self.protocolErrors = protocolErrors
    }

    mutating func error(_ text: String) { protocolErrors.append(text) }

    /// Takes one byte that a control byte marked as command (`isData` false) or display data.
    mutating func take(_ byte: UInt8, isData: Bool) {
        if isData {
            if let pending = pendingCommand {
                error("display data while command \(hexByte(pending.opcode)) still waits for \(pending.needed - pending.arguments.count) argument bytes")
                pendingCommand = nil
            }
            writeData(byte)
            return
        }
        if var pending = pendingCommand {
            pending.arguments.append(byte)
            if pending.arguments.count == pending.needed {
                pendingCommand = nil
                execute(pending.opcode, pending.arguments)
            } else {
                pendingCommand = pending
            }
            return
        }
        let needed = controller == .ssd1306 ? SSD1306CommandTable.argumentCount(byte) : SH1106CommandTable.argumentCount(byte)
        switch needed {
        case nil: error("unknown command \(hexByte(byte)) for \(controller.rawValue)")
        case 0: execute(byte, [])
        case let count?: pendingCommand = PendingCommand(opcode: byte, needed: count)
        }
    }

    private mutating func execute(_ opcode: UInt8, _ arguments: [UInt8]) {
        switch controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327: SSD1306CommandTable.execute(opcode, arguments, on: &self)
        case .sh1106: SH1106CommandTable.execute(opcode, arguments, on: &self)
        }
    }

    private mutating func writeData(_ byte: UInt8) {
        guard column < ramWidth else {
            error("display data past the last RAM column (\(ramWidth - 1)) of page \(page) is lost")
            return
        }
        ram[page * ramWidth + column] = byte
        switch addressing {
        case .horizontal:
            column += 1
            if column > columnRange.upperBound {
                column = columnRange.lowerBound
                page = page >= pageRange.upperBound ? pageRange.lowerBound : page + 1
            }
        case .vertical:
            page += 1
            if page > pageRange.upperBound {
                page = pageRange.lowerBound
                column = column >= columnRange.upperBound ? columnRange.lowerBound : column + 1
            }
        case .page:
            column += 1
            // SSD1306 wraps to the start column within the page; SH1106 just runs on (and data past
            // column 131 is lost, reported above).
            if controller == .ssd1306, column > columnRange.upperBound { column = columnRange.lowerBound }
        }
    }

    /// Whether the panel can light at all: display on and its supply running.
    var isLit: Bool { displayOn && powerOn }

    /// The RAM row shown on physical row `y`, or `nil` when no scanned line reaches it.
    func ramRow(forPanelRow y: Int, panel: OLEDPanel) -> Int? {
        guard let pin = panel.rowForPin.firstIndex(where: { $0 == y }) else { return nil }
        let com = OLEDPinMap.com(forPin: pin, configuration: comPins)
        let lines = multiplex + 1
        // Line L drives COM (L or lines-1-L, by scan direction) shifted by the display offset.
        for line in 0..<lines {
            let scanned = comScanReversed ? lines - 1 - line : line
            if (scanned + displayOffset) % 64 == com { return (line + startLine) % 64 }
        }
        return nil
    }
}
