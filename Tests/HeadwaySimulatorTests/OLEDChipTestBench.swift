import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator

/// A virtual OLED on a bus, fed as a test writes it by hand: command bytes and display data over
/// I2C (control bytes 00h and 40h) or 4-wire SPI (D/C# driven on a GPIO line before each message).
struct OLEDChipTestBench {
    enum Bus: String, CaseIterable, Sendable { case i2c = "I2C", spi = "SPI" }

    static let dcLine: UInt32 = 25
    static let resetLine: UInt32 = 24

    let clock = ManualClock()
    let chip: VirtualOLED
    let bus: Bus
    let i2c: VirtualI2CBus
    let spi: VirtualSPIBus
    let gpio: VirtualGPIOChip
    let dc: any GPIOOutputLines
    /// The SPI clock asked for: 1 MHz is within every controller's limit.
    var speedHz: UInt32 = 1_000_000
    var mode: UInt8 = 0

    init(_ controller: OLEDController, _ width: Int, _ height: Int, on bus: Bus) throws {
        self.bus = bus
        chip = VirtualOLED(controller: controller, width: width, height: height)
        i2c = VirtualI2CBus(clock: clock)
        spi = VirtualSPIBus(clockModel: .exact, clock: clock)
        gpio = VirtualGPIOChip(label: "pinctrl-bcm2835", clock: clock)
        dc = try gpio.requestOutputs([Self.dcLine], activeLow: false, initial: [false])
        i2c.attach(chip)
        spi.attach(chip)
        chip.wireSPI(dc: Self.dcLine, reset: Self.resetLine, on: gpio, clock: clock)
    }

    /// Command bytes (D/C# low), in one message.
    func commands(_ bytes: [UInt8]) throws {
        switch bus {
        case .i2c: try i2c.write([[0x00] + bytes], to: chip.address)
        case .spi:
            try dc.set([false])
            try spi.write(bytes, settings: SPISettings(mode: mode, speedHz: speedHz))
        }
    }

    /// Display data (D/C# high), cut into messages the bus takes.
    func data(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(4096))
            rest = rest.dropFirst(chunk.count)
            switch bus {
            case .i2c: try i2c.write([[0x40] + chunk], to: chip.address)
            case .spi:
                try dc.set([true])
                try spi.write(chunk, settings: SPISettings(mode: mode, speedHz: speedHz))
            }
        }
    }
}

/// Pictures to send and expect.
enum OLEDTestPicture {
    /// An "F" in the top left corner, a dot in the top right and a bar along the bottom: no turn or
    /// mirror of it looks the same, and every edge of the glass has something on it.
    static func marks(width: Int, height: Int) -> Bitmap {
        var picture = Bitmap(width: width, height: height)
        picture.fill(PixelRect(x: 0, y: 0, width: 2, height: 12))
        picture.fill(PixelRect(x: 0, y: 0, width: 8, height: 2))
        picture.fill(PixelRect(x: 0, y: 5, width: 5, height: 2))
        picture[width - 1, 0] = true
        picture.fill(PixelRect(x: width / 2, y: height - 1, width: width / 2, height: 1))
        return picture
    }

    /// `picture` turned by 180°.
    static func turned(_ picture: Bitmap) -> Bitmap {
        var turned = Bitmap(width: picture.width, height: picture.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture[x, y] { turned[picture.width - 1 - x, picture.height - 1 - y] = true }
        }
        return turned
    }

    /// The bytes of page `page`, columns `columns` (page format, bit 0 at the top).
    static func page(_ picture: Bitmap, _ page: Int, columns: Range<Int>? = nil) -> [UInt8] {
        let columns = columns ?? 0..<picture.width
        return columns.map { picture.bytes[page * picture.width + $0] }
    }

    /// Row `y` of `picture` packed two pixels a byte, level 15 where lit; `evenHigh` puts x = 0, 2 …
    /// in the high nibble.
    static func greyRow(_ picture: Greymap, _ y: Int, evenHigh: Bool) -> [UInt8] {
        stride(from: 0, to: picture.width, by: 2).map { x in
            let even = picture[x, y], odd = picture[x + 1, y]
            return evenHigh ? even << 4 | odd : odd << 4 | even
        }
    }
}
