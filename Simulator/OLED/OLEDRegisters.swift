import HeadwayDevices

/// The state of a monochrome, page-addressed controller (SSD1306, SSD1309, SSD1305, SSD1315,
/// SH1106, SH1107): display RAM and every register the command set writes, starting at the
/// datasheets' reset values. Bytes come in through `take(_:isData:)`; what the glass shows is
/// worked out in `MonochromeGlass.swift`.
public struct OLEDRegisters: Sendable, OLEDCommandInput {
    /// How the RAM pointer moves after each data byte (command 0x20).
    public enum AddressingMode: Sendable, Equatable {
        /// Along the column window, then to the next page.
        case horizontal
        /// Down the page window, then to the next column.
        case vertical
        /// Along the page, wrapping within it.
        case page
    }

    /// The controller modelled.
    public let controller: OLEDController
    let geometry: MonochromeGeometry
    /// The RAM's width in columns.
    public var ramWidth: Int { geometry.ramColumns }
    /// The RAM's height in pages.
    public var ramPages: Int { geometry.ramPages }
    /// Display RAM in page format: `page * ramWidth + column`, bit 0 the top bit of the page. On the
    /// Solomon parts the column is where the byte landed under the segment re-map in force when it
    /// was written (the re-map applies on write there).
    public internal(set) var ram: [UInt8]
    /// Whether the display is on (0xAF) or asleep (0xAE).
    public internal(set) var displayOn = false
    /// SSD1305 only: ACh turned the display on in dim mode.
    public internal(set) var dimmed = false
    /// The contrast (0x81).
    public internal(set) var contrast: UInt8
    /// Whether the picture is inverted (0xA7).
    public internal(set) var inverted = false
    /// Whether every pixel is lit whatever the RAM holds (0xA5).
    public internal(set) var entireDisplayOn = false
    /// Whether columns are mirrored (0xA1).
    public internal(set) var segmentRemap = false
    /// Whether the rows are scanned from the last COM up (0xC8).
    public internal(set) var comScanReversed = false
    /// The multiplex ratio register: lines scanned − 1.
    public internal(set) var multiplex: Int
    /// The display offset (0xD3).
    public internal(set) var displayOffset = 0
    /// The RAM line shown on the first row (0x40…0x7F).
    public internal(set) var startLine = 0
    /// The COM pins configuration (DAh argument); SH1107 has none.
    public internal(set) var comPins: UInt8 = 0x12
    /// The charge pump (SSD1306, SSD1315: 8Dh), DC-DC converter (SH1106, SH1107: ADh; SSD1305: ADh
    /// master configuration) is enabled.
    public internal(set) var powerOn: Bool
    /// How the RAM pointer moves.
    public internal(set) var addressing = AddressingMode.page
    /// The column window (0x21).
    public internal(set) var columnRange: ClosedRange<Int>
    /// The page window (0x22).
    public internal(set) var pageRange: ClosedRange<Int>
    /// The RAM pointer's column.
    public internal(set) var column = 0
    /// The RAM pointer's page.
    public internal(set) var page = 0
    /// Whether scrolling is on (0x2F).
    public internal(set) var scrolling = false
    /// SSD1309 only: FDh 16h locked the interface against every command but FDh.
    public internal(set) var commandLocked = false
    /// Every byte out of place the model found, in words.
    public internal(set) var protocolErrors: [String]

    /// The column read-modify-write (E0h) started at; EEh returns to it (SH1106, SH1107, SSD1305).
    var readModifyWriteColumn: Int?
    var assembler = OLEDCommandAssembler()

    init(controller: OLEDController, protocolErrors: [String] = []) {
        self.controller = controller
        geometry = MonochromeGeometry.of(controller)
        ram = Array(repeating: 0, count: geometry.ramColumns * geometry.ramPages)
        contrast = geometry.resetContrast
        powerOn = geometry.resetConverterOn
        multiplex = geometry.multiplexRange.upperBound
        columnRange = 0...(geometry.ramColumns - 1)
        pageRange = 0...(geometry.ramPages - 1)
        self.protocolErrors = protocolErrors
    }

    /// RES# low: every register back to its reset value. None of the datasheets' reset lists
    /// (SSD1306 §8.5, SSD1309 §8.4, SSD1305 §8.5, SSD1315 §6.5, SH1106/SH1107 "Reset Circuit")
    /// touches the display RAM, so it keeps its contents.
    mutating func reset() {
        let kept = ram
        self = OLEDRegisters(controller: controller, protocolErrors: protocolErrors)
        ram = kept
    }

    var table: any MonochromeCommandTable.Type { MonochromeCommandTables.table(for: controller) }
    var controllerName: String { controller.rawValue }
    func argumentCount(_ opcode: UInt8) -> Int? { table.argumentCount(opcode) }
    mutating func execute(_ opcode: UInt8, _ arguments: [UInt8]) { table.execute(opcode, arguments, on: &self) }

    mutating func writeData(_ byte: UInt8) {
        guard column < ramWidth else {
            return error("display data past the last RAM column (\(ramWidth - 1)) of page \(page) is lost")
        }
        let stored = geometry.remapOnWrite && segmentRemap ? ramWidth - 1 - column : column
        ram[page * ramWidth + stored] = byte
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
                if geometry.verticalWrapAdvancesColumn {
                    column = column >= columnRange.upperBound ? columnRange.lowerBound : column + 1
                }
            }
        case .page:
            column += 1
            switch geometry.pageModeEnd {
            case .wrapToWindow: if column > columnRange.upperBound { column = columnRange.lowerBound }
            case .wrapToZero: if column >= ramWidth { column = 0 }
            case .stop: break  // the next byte is reported as lost
            }
        }
    }
}
