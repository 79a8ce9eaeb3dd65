import HeadwayDevices
import HeadwayRender
import Synchronization

/// An OLED controller on a module, modelled from its datasheet: SSD1306, SSD1309, SSD1305,
/// SSD1315, SH1106, SH1107 (monochrome, page-addressed) or SSD1327 (4-bit greyscale), on a
/// simulated I2C bus or, once ``wireSPI(dc:reset:on:clock:)`` wired it, 4-wire SPI.
///
/// Every byte is interpreted as the chip would: the I2C control byte (Co and D/C# bits) or the SPI
/// D/C# line decides whether bytes are commands or display data; commands are decoded with their
/// arguments by the controller's own command table; data lands in display RAM under the addressing
/// mode and pointers the commands set up. What the glass shows is computed from RAM and registers
/// through the module's bonding (``OLEDModuleModel``). Anything the datasheet does not define is
/// recorded in ``protocolErrors`` — tests assert it empty.
public final class VirtualOLED: I2CTarget, SPITarget, PowerCycled {
    /// The controller modelled.
    public let controller: OLEDController
    public let address: UInt8
    /// The glass it drives and how it is bonded.
    public let panel: OLEDPanel
    /// The datasheet's interface timing for this controller (checked on SPI).
    public let facts: OLEDControllerFacts

    struct State {
        var chip: OLEDChipState
        var spi: SPIWiring?
    }

    let state: Mutex<State>

    /// A controller behind glass bonded as `panel`.
    public init(controller: OLEDController, address: UInt8 = 0x3C, panel: OLEDPanel) {
        self.controller = controller
        self.address = address
        self.panel = panel
        facts = OLEDControllerFacts.of(controller)
        state = Mutex(State(chip: OLEDChipState(controller: controller)))
    }

    /// A module as sold: the glass for `width`x`height` on `controller`, bonded as the vendor's
    /// initialisation expects (see ``OLEDModuleModel/catalogue`` and ``sizes(of:)``).
    ///
    /// A size the controller is not sold in does not stop the program (a crash would take every
    /// other test in the process with it): the chip starts with a protocol error naming the sizes
    /// there are, behind a stand-in glass bonded like the controller's first module.
    public convenience init(controller: OLEDController, width: Int, height: Int, address: UInt8 = 0x3C) {
        let module = OLEDModuleModel.module(controller: controller, width: width, height: height)
        self.init(controller: controller, address: address,
                  panel: (module ?? OLEDModuleModel.standIn(controller: controller, width: width, height: height)).panel)
        if module == nil {
            let sizes = Self.sizes(of: controller).map { "\($0.width)x\($0.height)" }.joined(separator: ", ")
            state.withLock { $0.chip.error("no \(controller.rawValue) module of \(width)x\(height) is modelled (there are: \(sizes))") }
        }
    }

    /// Whether the glass shows 16 grey levels (SSD1327) rather than on and off.
    public var isGreyscale: Bool { controller == .ssd1327 }

    // MARK: I2C

    /// One I2C message: control bytes (Co, D/C#, then six 0 bits: SSD1306 §8.1.5.2, SSD1327 §7.1.5.1
    /// Figure 7-7; SH1106 and SH1107 I2C interface, Figure 9 note 1) followed by their data or
    /// command bytes.
    public func receive(_ message: [UInt8]) {
        state.withLock { state in
            var index = 0
            while index < message.count {
                let control = message[index]
                index += 1
                if control & 0x3F != 0 {
                    state.chip.error("control byte \(hexByte(control)) has bits 5…0 set (only Co and D/C# may be)")
                }
                let isData = control & 0x40 != 0
                if control & 0x80 != 0 {
                    // Co = 1: exactly one byte follows, then another control byte.
                    guard index < message.count else {
                        return state.chip.error("control byte \(hexByte(control)) with Co=1 ends the message")
                    }
                    state.chip.take(message[index], isData: isData)
                    index += 1
                } else {
                    for byte in message[index...] { state.chip.take(byte, isData: isData) }
                    return
                }
            }
        }
    }

    public func stop() {
        state.withLock { $0.chip.endOfTransaction() }
    }

    // MARK: Power and state

    /// Power returns after an unplug: RAM and registers are back to their reset values (the RAM
    /// content after power-up is not defined by any datasheet; the model starts it blank).
    public func powerOn() {
        state.withLock { $0.chip = OLEDChipState(controller: controller, protocolErrors: $0.chip.protocolErrors) }
    }

    /// Everything the chip found malformed or undefined, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.chip.protocolErrors } }

    /// Whether the display is on (AFh; SSD1305 also ACh), in either family.
    public var isDisplayOn: Bool {
        switch state.withLock({ $0.chip }) {
        case .monochrome(let r): r.displayOn
        case .greyscale(let r): r.displayOn
        }
    }

    /// The contrast register (81h), in either family.
    public var contrast: UInt8 {
        switch state.withLock({ $0.chip }) {
        case .monochrome(let r): r.contrast
        case .greyscale(let r): r.contrast
        }
    }

    /// Whether the glass can light: display on with its supply there (the board's, or the
    /// controller's charge pump / DC-DC converter; SSD1327: the VDD regulator), in either family.
    public var isLit: Bool {
        switch state.withLock({ $0.chip }) {
        case .monochrome(let r): r.isLit(externalSupply: panel.externalSupply)
        case .greyscale(let r): r.isLit
        }
    }

    /// The register state of a monochrome controller, for tests and status lines. Asking an SSD1327
    /// for it is a programming error: see ``greyscaleRegisters``.
    public var registers: OLEDRegisters {
        guard case .monochrome(let registers) = state.withLock({ $0.chip }) else {
            preconditionFailure("\(controller.rawValue) is a greyscale controller: use greyscaleRegisters")
        }
        return registers
    }

    /// The register state of an SSD1327; `nil` for the monochrome controllers.
    public var greyscaleRegisters: SSD1327Registers? {
        guard case .greyscale(let registers) = state.withLock({ $0.chip }) else { return nil }
        return registers
    }

    /// The pulse widths of grey levels 0 … 15 the driver set (SSD1327; `nil` for monochrome): the
    /// glass reports levels, this says how bright each one is.
    public var greyTable: [UInt8]? { greyscaleRegisters?.greyTable }

    // MARK: Glass

    /// What the glass shows now: the level 0 … 15 of each pixel (monochrome controllers: 0 or 15;
    /// SSD1327: the pixel's 4-bit grey index, see ``greyTable``).
    public var glass: Greymap { state.withLock { $0.chip }.glass(on: panel) }

    /// What the glass shows now, on or off (SSD1327: lit where the level is 8 or more).
    public var picture: Bitmap { glass.bitmap(threshold: 8) }
}

extension VirtualOLED {
    /// The glass sizes of the modules modelled for `controller`.
    public static func sizes(of controller: OLEDController) -> [(width: Int, height: Int)] {
        OLEDModuleModel.catalogue.filter { $0.controller == controller }.map { ($0.width, $0.height) }
    }
}
