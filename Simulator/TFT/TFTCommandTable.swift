import HeadwayDevices

/// One command of a controller's command list: its name and what the host sends after it with
/// D/C high.
struct TFTCommand: Sendable, Equatable {
    enum Shape: Sendable, Equatable {
        /// Exactly this many parameter bytes.
        case parameters(Int)
        /// Pixels for the frame memory until the next command; `continues`: from where the last
        /// write stopped (Write Memory Continue, 3Ch) rather than from the window's start (RAMWR).
        case pixels(continues: Bool)
        /// A read: the chip answers on SDA/SDO, the host sends nothing more.
        case read
    }

    let name: String
    let shape: Shape
}

/// A controller's command list as its datasheet tabulates it: every opcode it defines, with its
/// parameter count. An opcode missing here is one the datasheet does not define.
struct TFTCommandTable: Sendable {
    private let commands: [UInt8: TFTCommand]

    /// A table of `writes` (opcode, name, parameter count), `pixels` (opcode, name, continues) and
    /// `reads` (opcode, name).
    init(writes: [(UInt8, String, Int)], pixels: [(UInt8, String, Bool)], reads: [(UInt8, String)]) {
        var commands: [UInt8: TFTCommand] = [:]
        for (opcode, name, count) in writes { commands[opcode] = TFTCommand(name: name, shape: .parameters(count)) }
        for (opcode, name, continues) in pixels { commands[opcode] = TFTCommand(name: name, shape: .pixels(continues: continues)) }
        for (opcode, name) in reads { commands[opcode] = TFTCommand(name: name, shape: .read) }
        self.commands = commands
    }

    subscript(opcode: UInt8) -> TFTCommand? { commands[opcode] }

    /// `CASET (0x2A)`, or `0x2A` for an opcode the table does not define.
    func label(_ opcode: UInt8) -> String {
        commands[opcode].map { "\($0.name) (\(hexByte(opcode)))" } ?? hexByte(opcode)
    }

    /// The table of `controller`.
    static func of(_ controller: TFTControllerModel) -> TFTCommandTable {
        switch controller {
        case .st7789v, .st7789v2: st7789v
        case .st7789vw: st7789vw
        case .st7735s: st7735s
        case .st7735r: st7735r
        case .ili9341: ili9341
        }
    }
}
