import HeadwayCore
import HeadwayDevices
import HeadwaySimulator

/// A virtual TFT on a virtual SPI bus, fed as a test writes it by hand: each command in a message
/// with D/C low, its parameters and pixels in messages with D/C high, RES# and the backlight on GPIO
/// lines, time on a manual clock.
struct TFTChipTestBench {
    static let dcLine: UInt32 = 25
    static let resetLine: UInt32 = 27

    let clock = ManualClock()
    let chip: VirtualTFT
    let module: TFTModuleModel
    let spi: VirtualSPIBus
    let gpio: VirtualGPIOChip
    let dc: any GPIOOutputLines
    let reset: any GPIOOutputLines
    /// The backlight's line, when the module has one on the Pi.
    let backlight: (any GPIOOutputLines)?
    /// The SPI clock asked for: 1 MHz is within every controller's limit.
    var speedHz: UInt32 = 1_000_000
    var mode: UInt8 = 0

    init(_ module: TFTModuleModel, controller: TFTControllerModel? = nil) throws {
        self.module = module
        chip = VirtualTFT(controller: controller ?? module.controller, module: module)
        spi = VirtualSPIBus(clockModel: .exact, clock: clock)
        let gpio = VirtualGPIOChip(label: "pinctrl-bcm2835", clock: clock)
        self.gpio = gpio
        dc = try gpio.requestOutputs([Self.dcLine], activeLow: false, initial: [false])
        reset = try gpio.requestOutputs([Self.resetLine], activeLow: false, initial: [true])
        backlight = try module.backlight.map { try gpio.requestOutputs([$0.line], activeLow: false, initial: [false]) }
        spi.attach(chip)
        chip.wireSPI(dc: Self.dcLine, reset: Self.resetLine, backlight: module.backlight?.line, on: gpio, clock: clock)
    }

    /// Command bytes (D/C low), in one message.
    func commands(_ bytes: [UInt8]) throws {
        try dc.set([false])
        try spi.write(bytes, settings: SPISettings(mode: mode, speedHz: speedHz))
    }

    /// Data bytes (D/C high), cut into messages the bus takes.
    func data(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let chunk = Array(rest.prefix(spi.maxTransferLength))
            rest = rest.dropFirst(chunk.count)
            try dc.set([true])
            try spi.write(chunk, settings: SPISettings(mode: mode, speedHz: speedHz))
        }
    }

    /// A command and its parameters, as datasheets draw them: the opcode with D/C low, then the
    /// parameters with D/C high.
    func command(_ opcode: UInt8, _ parameters: [UInt8] = []) throws {
        try commands([opcode])
        if !parameters.isEmpty { try data(parameters) }
    }

    func wait(_ seconds: Double) { clock.advance(by: seconds) }

    /// A RES# pulse of `seconds`.
    func pulseReset(for seconds: Double) throws {
        try reset.set([false])
        wait(seconds)
        try reset.set([true])
    }

    /// The power-on sequence every datasheet draws, with its waits: RES# low 10 µs, 120 ms, SWRESET,
    /// 120 ms, SLPOUT, 120 ms, COLMOD, MADCTL, INVON when `inversion`, NORON, DISPON; then the
    /// backlight on.
    func initialise(madctl: UInt8, colmod: UInt8 = 0x55, inversion: Bool) throws {
        try pulseReset(for: 10e-6)
        wait(0.120)
        try command(0x01)
        wait(0.120)
        try command(0x11)
        wait(0.120)
        try command(0x3A, [colmod])
        try command(0x36, [madctl])
        try command(inversion ? 0x21 : 0x20)
        try command(0x13)
        try command(0x29)
        try backlight?.set([true])
    }

    /// The module's vendor initialisation, as its reference rotation writes.
    func initialiseAsVendor(colmod: UInt8 = 0x55) throws {
        try initialise(madctl: module.reference.madctl, colmod: colmod, inversion: module.needsInversion)
    }

    /// CASET, RASET and RAMWR for a window at (`column`, `row`) of `width` x `height`.
    func window(column: Int, row: Int, width: Int, height: Int) throws {
        try command(0x2A, Self.pair(column, column + width - 1))
        try command(0x2B, Self.pair(row, row + height - 1))
        try commands([0x2C])
    }

    static func pair(_ start: Int, _ end: Int) -> [UInt8] {
        [UInt8(start >> 8), UInt8(start & 0xFF), UInt8(end >> 8), UInt8(end & 0xFF)]
    }

    /// `picture` (row-major levels 0…63) in 18-bit pixels, one byte a colour, six bits in D7…D2.
    static func bytes666(_ picture: [(UInt8, UInt8, UInt8)]) -> [UInt8] {
        picture.flatMap { [$0.0 << 2, $0.1 << 2, $0.2 << 2] }
    }

    /// `pixels` (RGB 5-6-5 words) most significant byte first.
    static func bytes565(_ pixels: [UInt16]) -> [UInt8] {
        pixels.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
