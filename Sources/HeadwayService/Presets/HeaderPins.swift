/// The Raspberry Pi's 40-pin header: which GPIO line each physical pin carries (the same on every
/// 40-pin Pi, pinout.xyz and the Raspberry Pi documentation's "GPIO and the 40-pin header"), so
/// that a configuration may name a line as `pin 22` as well as by its GPIO number, 25.
enum HeaderPins {
    /// Physical pin → GPIO (BCM) number, for the pins that carry one.
    static let gpio: [Int: UInt32] = [
        3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8,
        26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
    ]

    /// What a pin without a GPIO is, for the error message.
    static func power(_ pin: Int) -> String? {
        switch pin {
        case 1, 17: "3.3 V"
        case 2, 4: "5 V"
        case 6, 9, 14, 20, 25, 30, 34, 39: "ground"
        default: nil
        }
    }
}
