import HeadwayDevices

/// The bus a frame crosses, for costing an update method in the units the simulator's buses count.
public enum OLEDLink: Sendable, Equatable, CustomStringConvertible {
    /// I2C through i2c-dev; `messageLimit` is the adapter's longest message after the address byte
    /// (``VirtualI2CBus/maxMessageLength``: 8192, or 33 on an SMBus-only adapter).
    case i2c(messageLimit: Int)
    /// 4-wire SPI: the bytes clocked, D/C# on a GPIO line, no framing bytes.
    case spi

    /// An I2C adapter that takes I2C_RDWR messages of any length the driver sends (the Pi's).
    public static let i2c = OLEDLink.i2c(messageLimit: 8192)
    /// An SMBus-only adapter: blocks of 32 bytes after the command (control) byte.
    public static let smbus = OLEDLink.i2c(messageLimit: 33)

    /// Whether the adapter takes SMBus block writes only (32 bytes after the control byte).
    public var isSMBusOnly: Bool {
        if case .i2c(let limit) = self { return limit <= 33 }
        return false
    }

    public var description: String {
        switch self {
        case .spi: "SPI"
        case .i2c: isSMBusOnly ? "SMBus" : "I2C"
        }
    }

    /// A message of `count` commands: on I2C behind its control byte (0x00).
    func command(_ count: Int) -> Int {
        self == .spi ? count : 1 + count
    }

    /// `count` display bytes as messages of at most `chunk` bytes, each behind its control byte
    /// (0x40) on I2C; on SPI the bytes, however they are cut into transfers.
    func data(_ count: Int, chunk: Int) -> [Int] {
        guard count > 0 else { return [] }
        if self == .spi { return [count] }
        return stride(from: 0, to: count, by: chunk).map { 1 + min(chunk, count - $0) }
    }
}

/// What one frame puts on a bus, counted as the simulator's buses count it: on I2C each message is
/// its address byte and its bytes (the control byte included) and each transaction runs from a
/// START to a STOP; on SPI, the bytes clocked.
public struct OLEDTraffic: Sendable, Equatable {
    /// The bus the traffic is counted on.
    public let link: OLEDLink
    /// Bytes on the wire.
    public private(set) var bytes = 0
    /// I2C transactions (START … STOP), or SPI messages.
    public private(set) var transactions = 0
    /// Bus clock cycles: on I2C a START, 9 a byte (8 bits and the acknowledge) for the address and
    /// each byte of every message, and a STOP for every transaction, as ``VirtualI2CBus/wireTime(messageLengths:)``
    /// counts them; on SPI 8 a byte.
    public private(set) var clocks = 0

    /// Nothing counted yet, on `link`.
    public init(link: OLEDLink) { self.link = link }

    /// Seconds on a bus clocked at `hertz` (on SPI, the clock the controller really produces).
    public func seconds(atHz hertz: Double) -> Double { Double(clocks) / hertz }

    /// One transaction of messages of these lengths (on I2C after the address byte, the control
    /// byte included: ``OLEDLink/command(_:)``, ``OLEDLink/data(_:chunk:)``).
    mutating func transaction(_ lengths: [Int]) {
        guard !lengths.isEmpty else { return }
        transactions += 1
        switch link {
        case .i2c:
            bytes += lengths.reduce(0) { $0 + $1 + 1 }
            clocks += lengths.reduce(1) { $0 + 1 + 9 * (1 + $1) }
        case .spi:
            let count = lengths.reduce(0, +)
            bytes += count
            clocks += 8 * count
        }
    }
}

/// What other drivers send to turn one OLED picture into the next, from their published update
/// methods: the yardsticks of docs/performance.md and of the planner's property test, costed in
/// Headway's units (``OLEDTraffic``: bytes on the wire with every I2C address and control byte, or
/// the bytes SPI clocks).
///
/// Pictures are in RAM format (`OLEDAddressing`): `rowBytes`-byte rows — pages of a `Bitmap`
/// (`Bitmap/bytes`) on the monochrome controllers, pixel rows of a `Greymap` (two pixels a byte,
/// `Greymap/bytes`) on SSD1327.
public enum OLEDPeerModel: String, CaseIterable, Sendable {
    /// luma.oled (rm-hull/luma.oled 4f73ee3) over luma.core's interfaces (rm-hull/luma.core
    /// 89bd48f, `luma/core/interface/serial.py`). Debian's python3-luma.oled 3.10 with luma.core
    /// 2.4 has the same `ssd1306`, `sh1106` and `ssd1327` methods and framebuffer; `sh1107` (3.11),
    /// `ssd1305` and `ssd1315` (3.15) came later.
    ///
    /// - `ssd1306` and its subclasses `ssd1305`, `ssd1309`, `ssd1315` (`luma/oled/device/__init__.py`,
    ///   `ssd1306.display`): the whole frame every time — one `command(0x21, colstart, colend − 1,
    ///   0x22, 0, pages − 1)`, then one `data()` call with every byte.
    /// - `sh1106.display`: the whole frame, each page as `command(0xB0 + page, 0x02, 0x10)` and a
    ///   `data()` call of its `width` bytes.
    /// - `sh1107.display`: the whole frame, each page as `command(0x10, 0x00, 0xB0 | page)` and a
    ///   `data()` call of its `width` bytes.
    /// - `ssd1327` (`greyscale_device.display` in `luma/oled/device/greyscale.py`): its default
    ///   framebuffer, `diff_to_previous()` (`luma/core/framebuffer.py`, `num_segments=4`): the
    ///   picture cut into a 2×2 grid of cells; for each cell that changed, in rows of cells from the
    ///   top, the bounding box of its changed pixels (`ImageChops.difference(…).getbbox()`) widened
    ///   by `_inflate_bbox` to columns that are multiples of 4 pixels, sent as
    ///   `_set_position`'s one `command(0x15, left >> 1, (right − 1) >> 1, 0x75, top, bottom − 1)` and
    ///   one `data()` call of the box's bytes; the first frame whole.
    ///
    /// luma.core's `i2c.command` is one SMBus block write (`write_i2c_block_data`: the control byte
    /// 0x00 and the commands), a transaction of its own; `i2c.data` sends up to 4096 bytes per
    /// `I2C_RDWR` message (`_write_large_block`: 0x40 and the bytes), each its own transaction, when
    /// luma opened the bus — and 32-byte SMBus blocks (`_write_block`) when it was handed one, as an
    /// SMBus-only adapter needs. On SPI (`spi` → `bitbang.command`/`data`) only the bytes are
    /// clocked, in transfers of up to 4096.
    case luma
    /// The Rust ssd1306 crate (rust-embedded-community/ssd1306, `src/mode/buffered_graphics.rs`
    /// `flush`, `src/lib.rs` `set_draw_area` and `flush_buffer_chunks`, `src/command.rs`
    /// `Command::send`) over display-interface-i2c or -spi: the bounding box of the pixels changed
    /// since the last flush (every pixel after `init`; the crate itself boxes the pixels drawn, which
    /// is never less), as `ColumnAddress` and `PageAddress` — two command writes of the control
    /// byte and 3 bytes — then each page of the box as its own `send_data`, which
    /// `I2CInterface::send_data` cuts into 16-byte writes, each behind its control byte; nothing
    /// when nothing changed. On the
    /// page-only SH1106 and SH1107, which have no window, each page of the box is addressed
    /// (page, column low, column high: one command write) and sent the same way. Not defined for
    /// SSD1327 (the crate drives SSD1306-family controllers only).
    case boundingBox = "bounding box"

    /// Whether the method is defined for `controller`.
    public func applies(to controller: OLEDController) -> Bool {
        self == .luma || controller.variant.addressing != .greyWindow
    }

    /// Luma's data chunk on `link`: 4096 bytes per I2C_RDWR message, or 32-byte SMBus blocks.
    static func lumaChunk(_ link: OLEDLink) -> Int { link.isSMBusOnly ? 32 : 4096 }

    /// What the method sends to turn `old` into `new` (`old` nil: the first frame, sent whole),
    /// or nil where the method does not drive `controller`.
    public func traffic(from old: [UInt8]?, to new: [UInt8], rowBytes: Int, controller: OLEDController, link: OLEDLink) -> OLEDTraffic? {
        guard applies(to: controller) else { return nil }
        let addressing = controller.variant.addressing
        let rows = new.count / rowBytes
        let whole = PageRun(firstPage: 0, lastPage: rows - 1, firstColumn: 0, lastColumn: rowBytes - 1)
        var traffic = OLEDTraffic(link: link)
        switch self {
        case .luma:
            let chunk = Self.lumaChunk(link)
            func window(_ run: PageRun) {
                traffic.transaction([link.command(6)])
                for message in link.data(run.bytes, chunk: chunk) { traffic.transaction([message]) }
            }
            switch addressing {
            case .pageWindow:
                window(whole)
            case .pagesOnly:
                for _ in 0..<rows {
                    traffic.transaction([link.command(3)])
                    for message in link.data(rowBytes, chunk: chunk) { traffic.transaction([message]) }
                }
            case .greyWindow:
                guard let old else { window(whole); break }
                for box in Self.lumaCells(from: old, to: new, rowBytes: rowBytes) { window(box) }
            }
        case .boundingBox:
            let box: PageRun?
            if let old { box = PageRunPlanner.boundingWindow(of: Self.changedRuns(from: old, to: new, rowBytes: rowBytes)) } else { box = whole }
            guard let box else { break }
            for row in box.firstPage...box.lastPage {
                if addressing == .pagesOnly {
                    traffic.transaction([link.command(3)])
                } else if row == box.firstPage {
                    traffic.transaction([link.command(3)])
                    traffic.transaction([link.command(3)])
                }
                for message in link.data(box.columns, chunk: 16) { traffic.transaction([message]) }
            }
        }
        return traffic
    }

    /// Bytes on the wire of ``traffic(from:to:rowBytes:controller:link:)``.
    public func bytes(from old: [UInt8]?, to new: [UInt8], rowBytes: Int, controller: OLEDController, link: OLEDLink) -> Int? {
        traffic(from: old, to: new, rowBytes: rowBytes, controller: controller, link: link)?.bytes
    }

    /// The fewest bytes any plan could send in the controller's addressing model: the changed bytes
    /// themselves, plus the least addressing — one window (6 command bytes) and as few data
    /// messages as hold them where the controller addresses rectangles, or each changed row
    /// addressed once (3 bytes: page, column low, column high) on the page-only controllers — in
    /// one transaction. On SPI, the changed bytes and that addressing.
    public static func floor(from old: [UInt8]?, to new: [UInt8], rowBytes: Int, controller: OLEDController, link: OLEDLink) -> OLEDTraffic {
        var changedPerRow = [Int](repeating: 0, count: new.count / rowBytes)
        for index in new.indices where old?[index] != new[index] {
            changedPerRow[index / rowBytes] += 1
        }
        var chunk = Int.max
        if case .i2c(let limit) = link { chunk = limit - 1 }
        var messages: [Int] = []
        if controller.variant.addressing.addressesRectangles {
            let changed = changedPerRow.reduce(0, +)
            if changed > 0 { messages = [link.command(6)] + link.data(changed, chunk: chunk) }
        } else {
            for changed in changedPerRow where changed > 0 {
                messages += [link.command(3)] + link.data(changed, chunk: chunk)
            }
        }
        var traffic = OLEDTraffic(link: link)
        traffic.transaction(messages)
        return traffic
    }

    /// One run per row: the changed byte columns, first to last.
    static func changedRuns(from old: [UInt8], to new: [UInt8], rowBytes: Int) -> [PageRun] {
        (0..<(new.count / rowBytes)).compactMap { row in
            let start = row * rowBytes
            guard let first = (0..<rowBytes).first(where: { old[start + $0] != new[start + $0] }),
                let last = (0..<rowBytes).last(where: { old[start + $0] != new[start + $0] })
            else { return nil }
            return PageRun(firstPage: row, lastPage: row, firstColumn: first, lastColumn: last)
        }
    }

    /// luma's `diff_to_previous` boxes on an SSD1327 picture: for each cell of the 2×2 grid that
    /// changed (rows of cells from the top), the bounding box of its changed bytes widened to whole
    /// 4-pixel groups — `_inflate_bbox` moves the left edge down and the right edge up to multiples
    /// of 4 pixels, i.e. the first byte column to an even one and the last to an odd one.
    package static func lumaCells(from old: [UInt8], to new: [UInt8], rowBytes: Int) -> [PageRun] {
        let rows = new.count / rowBytes
        let cellColumns = rowBytes / 2, cellRows = rows / 2
        var boxes: [PageRun] = []
        for cellY in 0..<2 {
            for cellX in 0..<2 {
                var top = Int.max, bottom = -1, left = Int.max, right = -1
                for row in (cellY * cellRows)..<((cellY + 1) * cellRows) {
                    for column in (cellX * cellColumns)..<((cellX + 1) * cellColumns) where old[row * rowBytes + column] != new[row * rowBytes + column] {
                        top = min(top, row)
                        bottom = row
                        left = min(left, column)
                        right = max(right, column)
                    }
                }
                guard bottom >= 0 else { continue }
                boxes.append(PageRun(firstPage: top, lastPage: bottom, firstColumn: left & ~1, lastColumn: right | 1))
            }
        }
        return boxes
    }
}
