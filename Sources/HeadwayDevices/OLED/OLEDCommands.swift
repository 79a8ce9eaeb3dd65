/// The command bytes each controller needs, per its datasheet. Each element of a command list is
/// one command with its arguments, so commands can be packed into messages without being split.
enum OLEDCommands {
    /// Control bytes (Co = 0: the rest of the message is all commands, or all display data).
    static let commandStream: UInt8 = 0x00
    static let dataStream: UInt8 = 0x40

    static let displayOff: [UInt8] = [0xAE]
    static let displayOn: [UInt8] = [0xAF]

    /// Everything from display-off to a configured, still dark display, at `contrast` (the
    /// configured one, or what brightness has been set to since).
    static func initialisation(_ c: OLEDConfiguration, contrast: UInt8) -> [[UInt8]] {
        let remap: [UInt8] = c.rotated ? [0xA0] : [0xA1]       // column 0 at SEG0 / SEG127
        let scan: [UInt8] = c.rotated ? [0xC0] : [0xC8]        // COM scan up / down
        let invert: [UInt8] = c.inverted ? [0xA7] : [0xA6]
        switch c.controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327:
            return [
                displayOff,
                [0xD5, 0x80],                           // clock divide 1, oscillator default
                [0xA8, UInt8(c.height - 1)],            // multiplex ratio
                [0xD3, 0x00],                           // display offset
                [0x40],                                 // start line 0
                [0x8D, c.externalVCC ? 0x10 : 0x14],    // charge pump
                [0x20, 0x00],                           // horizontal addressing
                remap, scan,
                [0xDA, c.comPins],
                [0x81, contrast],
                [0xD9, c.externalVCC ? 0x22 : 0xF1],    // pre-charge periods
                [0xDB, 0x20],                           // VCOMH 0.77 VCC
                [0x2E],                                 // no scrolling
                [0xA4],                                 // show RAM
                invert,
            ]
        case .sh1106:
            return [
                displayOff,
                [0xD5, 0x80],
                [0xA8, UInt8(c.height - 1)],
                [0xD3, 0x00],
                [0x40],
                [0xAD, 0x8B],                           // DC-DC converter on
                [0x32],                                 // pump voltage 8.0 V
                remap, scan,
                [0xDA, c.comPins],
                [0x81, contrast],
                [0xD9, 0x22],
                [0xDB, 0x35],                           // VCOM deselect level (reset value)
                [0xA4],
                invert,
            ]
        }
    }

    /// The addressing commands that make the next data bytes land in `run` (one page of it for
    /// SH1106, which can only address a page at a time: `page` picks it).
    static func address(_ run: PageRun, page: Int, _ c: OLEDConfiguration) -> [[UInt8]] {
        let first = run.firstColumn + c.columnOffset
        switch c.controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327:
            return [
                [0x21, UInt8(first), UInt8(run.lastColumn + c.columnOffset)],
                [0x22, UInt8(run.firstPage), UInt8(run.lastPage)],
            ]
        case .sh1106:
            return [[0xB0 | UInt8(page)], [0x00 | UInt8(first & 0x0F)], [0x10 | UInt8(first >> 4)]]
        }
    }

    /// Packs whole commands into command-stream messages of at most `limit` bytes.
    static func messages(_ commands: [[UInt8]], limit: Int) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = [commandStream]
        for command in commands {
            if current.count + command.count > limit, current.count > 1 {
                messages.append(current)
                current = [commandStream]
            }
            current += command
        }
        if current.count > 1 { messages.append(current) }
        return messages
    }

    /// Display data as data-stream messages of at most `limit` bytes.
    static func data(_ bytes: ArraySlice<UInt8>, limit: Int) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(bytes.endIndex, start + limit - 1)
            messages.append([dataStream] + bytes[start..<end])
            start = end
        }
        return messages
    }
}
