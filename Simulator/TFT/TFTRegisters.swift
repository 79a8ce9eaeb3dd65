/// The registers a TFT controller's commands set and the glass depends on, with their reset values.
///
/// The reset values are the datasheets' "H/W Reset" column: sleep in, display off, inversion off,
/// normal mode, idle off, MADCTL 00h, 18 bits a pixel, the window over the whole memory (ST7789V
/// V1.3 §9.1.11, §9.1.18, §9.1.15, §9.1.14, §9.1.30, §9.1.28, §9.1.32, §9.1.20/21; ILI9341 V1.11
/// §8.2.29 and §8.2.33 alike; ST7735S V1.4 §10.1 alike).
struct TFTRegisters: Sendable, Equatable {
    var sleeping = true
    var displayOn = false
    var inversionOn = false
    var idle = false
    /// Partial mode (PTLON) rather than normal mode (NORON).
    var partial = false
    /// PTLAR's start and end rows (the start may be below the end: the area wraps, ILI9341 V1.11
    /// §8.2.25).
    var partialStart = 0
    var partialEnd: Int
    var tearingEffectOn = false
    /// MADCTL as written.
    var madctl: UInt8 = 0
    var pixelFormat: TFTPixelFormat = .rgb666
    /// LCMCTRL (ST7789, C0h) as written; ILI9341 IFCTL's (F6h) first parameter.
    var exclusiveOr: UInt8
    var counter: TFTAddressCounter

    /// The registers after RES# (or power-up) of a `family` controller with a `size` memory.
    init(family: TFTControllerFamily, memory size: TFTRAMSize) {
        partialEnd = size.height - 1
        counter = TFTAddressCounter(whole: size)
        exclusiveOr = Self.exclusiveOrReset(family)
    }

    /// SWRESET: everything to its reset value except MADCTL and COLMOD, which "S/W Reset: No
    /// change" keeps (ST7789V V1.3 §9.1.28 and §9.1.32; ILI9341 V1.11 §8.2.29 and §8.2.33); the
    /// window covers the whole memory as MV then lays it out (ST7789V V1.3 §9.1.20: "S/W Reset …
    /// When MV=1: XE=013Fh").
    mutating func softwareReset(family: TFTControllerFamily, memory size: TFTRAMSize) {
        let kept = (madctl, pixelFormat)
        self = TFTRegisters(family: family, memory: size)
        (madctl, pixelFormat) = kept
        let limits = memoryAccess(family).addressLimits(in: size)
        counter.columnEnd = limits.column
        counter.pageEnd = limits.page
    }

    /// MADCTL as the chip applies it: ST7789 LCMCTRL's XMY, XBGR, XMX, XMH and XMV bits "XOR … setting
    /// in command 36h" (ST7789V V1.3 §9.2.10), counted from LCMCTRL's reset value 2Ch, for which the
    /// datasheet's MADCTL pictures are drawn; ILI9341 IFCTL's MY_EOR, MX_EOR, MV_EOR and BGR_EOR
    /// ("exclusive OR between 1st Parameter of IFCTL and MADCTL", V1.11 §8.3.28), reset value 0.
    func memoryAccess(_ family: TFTControllerFamily) -> TFTMemoryAccess {
        switch family {
        case .st7789:
            let changed = exclusiveOr ^ Self.exclusiveOrReset(family)
            var flip: UInt8 = 0
            if changed & 0x40 != 0 { flip |= 0x80 }  // XMY
            if changed & 0x20 != 0 { flip |= 0x08 }  // XBGR
            if changed & 0x08 != 0 { flip |= 0x40 }  // XMX
            if changed & 0x04 != 0 { flip |= 0x04 }  // XMH
            if changed & 0x02 != 0 { flip |= 0x20 }  // XMV
            return TFTMemoryAccess(value: madctl ^ flip)
        case .ili9341: return TFTMemoryAccess(value: madctl ^ (exclusiveOr & 0xE8))
        case .st7735: return TFTMemoryAccess(value: madctl)
        }
    }

    /// Whether the outputs invert: INVON, exclusive-ORed on the ST7789 with LCMCTRL's XINV ("XOR
    /// inverse setting in command 21h", ST7789V V1.3 §9.2.10) counted from its reset value.
    func invertsOutputs(_ family: TFTControllerFamily) -> Bool {
        guard family == .st7789 else { return inversionOn }
        return inversionOn != ((exclusiveOr ^ Self.exclusiveOrReset(family)) & 0x10 != 0)
    }

    /// Whether RAM row `y` is in the partial area.
    func inPartialArea(_ y: Int) -> Bool {
        partialStart <= partialEnd ? (partialStart...partialEnd).contains(y) : y >= partialStart || y <= partialEnd
    }

    /// Whether pixels past the window's end wrap to its start: always, except on an ILI9341 whose
    /// IFCTL WEMODE is 0 ("the exceeding data will be ignored", V1.11 §8.3.28; reset value 1).
    func wrapsPastWindow(_ family: TFTControllerFamily) -> Bool {
        family != .ili9341 || exclusiveOr & 0x01 != 0
    }

    /// LCMCTRL resets to 2Ch (ST7789V V1.3 §9.2.10 "Default … 2Ch"); IFCTL's first parameter to 01h
    /// (ILI9341 V1.11 §8.3.28).
    private static func exclusiveOrReset(_ family: TFTControllerFamily) -> UInt8 {
        switch family {
        case .st7789: 0x2C
        case .ili9341: 0x01
        case .st7735: 0
        }
    }
}
