import HeadwayDevices

/// The peers' update methods for LED matrix chips, as cost models in the units the simulator's
/// buses count (on I2C each message is its bytes and an address byte; on SPI the bytes clocked):
/// what each library sends to take a module from one frame to the next. Written from the peers'
/// published sources (docs/performance.md lists them); nothing of theirs runs here.
public enum MatrixPeerModel: String, Sendable, CaseIterable {
    /// Adafruit's HT16K33 libraries' `show()`: the display address pointer and all 16 RAM bytes in
    /// one write of 17 bytes (adafruit/Adafruit_CircuitPython_HT16K33 `ht16k33.py` `show`); the
    /// blink rate and brightness setters each a one-byte command.
    case adafruitShow = "Adafruit show()"
    /// The same libraries' default `auto_write`: a `show()` after every pixel set (`_pixel`), by a
    /// program that sets only the pixels that changed; a bar of the bicolour bargraph is two pixels,
    /// its red and its green (`bargraph.py` `Bicolor24.__setitem__`); a segment display's `print`
    /// one `show()`, its colon another.
    case adafruitAutoWrite = "Adafruit auto_write"
    /// Pimoroni's IS31FL3731 libraries: the bank register, all 144 PWM bytes of a frame as 32-byte
    /// SMBus blocks, then the function page and the picture frame register, each its own
    /// transaction (pimoroni/scroll-phat-hd `is31fl3731.py` `update_frame`, `show_frame`); with no
    /// blink of the chip's, a blinking picture is drawn again each half period.
    case pimoroniFrame = "Pimoroni frame"
    /// luma.led_matrix's `max7219.display`: the whole chain every update, eight transfers of a word
    /// per device (one per digit); `contrast` and `show`/`hide` a transfer each (rm-hull/luma.led_matrix
    /// `luma/led_matrix/device.py`).
    case lumaFullFrame = "luma.led_matrix"

    /// The chip a method drives.
    public enum Chip: Sendable, Equatable {
        /// An HT16K33 backpack; `bicolour`: a red and a green LED a position.
        case ht16k33(bicolour: Bool)
        /// An IS31FL3731 board.
        case is31fl3731
        /// A chain of `devices`.
        case max7219(devices: Int)
    }

    /// The methods for `chip`.
    public static func methods(for chip: Chip) -> [MatrixPeerModel] {
        switch chip {
        case .ht16k33: [.adafruitShow, .adafruitAutoWrite]
        case .is31fl3731: [.pimoroniFrame]
        case .max7219: [.lumaFullFrame]
        }
    }

    /// Bytes on the wire and transactions to go from `previous` to `next` (both as a driver is
    /// handed them) on `chip`; `lightToggled`: a chip that cannot blink went dark or light.
    public func traffic(from previous: MatrixFrame, to next: MatrixFrame, on chip: Chip, lightToggled: Bool = false) -> (bytes: Int, transactions: Int) {
        let content = previous.content != next.content
        let blink = previous.blink != next.blink
        let dimming = previous.dimming != next.dimming
        var bytes = 0, transactions = 0
        func i2c(_ lengths: [Int]) {
            bytes += lengths.reduce(0) { $0 + $1 + 1 }
            transactions += lengths.count
        }
        switch (self, chip) {
        case (.adafruitShow, _):
            if content { i2c([17]) }
            if blink { i2c([1]) }
            if dimming { i2c([1]) }
        case (.adafruitAutoWrite, .ht16k33(let bicolour)):
            for _ in 0..<Self.pixelSets(from: previous.content, to: next.content, bicolour: bicolour) { i2c([17]) }
            if blink { i2c([1]) }
            if dimming { i2c([1]) }
        case (.adafruitAutoWrite, _):
            break
        case (.pimoroniFrame, _):
            if content || blink || lightToggled { i2c([2, 33, 33, 33, 33, 17, 2, 2]) }
        case (.lumaFullFrame, .max7219(let devices)):
            if content {
                bytes += 8 * 2 * devices
                transactions += 8
            }
            for changed in [dimming, lightToggled] where changed {
                bytes += 2 * devices
                transactions += 1
            }
        case (.lumaFullFrame, _):
            break
        }
        return (bytes, transactions)
    }

    /// The `show()` calls auto_write makes: one per changed pixel (two per changed red and green
    /// position), one per segment display update (and one more for its colon).
    static func pixelSets(from previous: MatrixFrame.Content, to next: MatrixFrame.Content, bicolour: Bool) -> Int {
        switch (previous, next) {
        case (.pixels(let old), .pixels(let new)):
            return zip(old.levels, new.levels).filter { ($0.brightest > 0) != ($1.brightest > 0) || ($0.red > 0) != ($1.red > 0) || ($0.green > 0) != ($1.green > 0) }.count * (bicolour ? 2 : 1)
        case (.segments(let old), .segments(let new)):
            return (old.digits == new.digits ? 0 : 1) + (old.colon == new.colon ? 0 : 1)
        default:
            return 1
        }
    }
}
