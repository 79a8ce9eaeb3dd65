import HeadwayDevices
import Synchronization

/// A colour TFT controller on a module, modelled from its datasheet: ST7789V, ST7789V2, ST7789VW,
/// ST7735S, ST7735R or ILI9341, on a simulated SPI bus with D/C, RES# and the backlight on a
/// virtual GPIO chip (``wireSPI(dc:reset:backlight:on:clock:)``).
///
/// Every byte is taken as the chip would: the D/C level of its message decides command or data;
/// commands are decoded with their parameters by the controller's own command list; pixels land in
/// the frame memory where the address counters and MADCTL put them. What the glass shows is
/// computed from the frame memory and registers through the module's placement, colour order and
/// inversion (``TFTModuleModel``) and its backlight. Anything the datasheet does not define or
/// forbids is recorded in ``protocolErrors``; tests assert it empty.
public final class VirtualTFT: SPITarget, PowerCycled {
    /// The controller modelled.
    public let controller: TFTControllerModel
    /// The module it sits on.
    public let module: TFTModuleModel
    /// The datasheet's interface timing for the controller.
    public let facts: TFTControllerFacts

    struct State {
        var chip: TFTChipState
        var wiring: TFTSPIWiring?
        var brightness: Double = 1
    }

    let state: Mutex<State>
    /// The frame memory position of each glass pixel (``TFTModuleModel/glassMap``), worked out once.
    let glassMap: [Int?]

    /// `controller` on `module`. A controller of another family than the module's gets a protocol
    /// error and dark glass (its frame memory is not the one the module's glass is bonded to) rather
    /// than stopping the program.
    public init(controller: TFTControllerModel, module: TFTModuleModel) {
        self.controller = controller
        self.module = module
        facts = TFTControllerFacts.of(controller)
        let sameFamily = controller.family == module.controller.family
        let chip = TFTChipState(controller: controller, memory: sameFamily ? module.memory : controller.family.ramSize)
        glassMap = sameFamily ? module.glassMap : Array(repeating: nil, count: module.width * module.height)
        state = Mutex(State(chip: chip))
        if controller != module.controller {
            state.withLock {
                $0.chip.error("the \(module.name) carries a \(module.controller), not a \(controller)"
                              + (sameFamily ? "" : "; its glass stays dark"))
            }
        }
    }

    /// The module as sold, with its own controller.
    public convenience init(module: TFTModuleModel) {
        self.init(controller: module.controller, module: module)
    }

    /// Power returns after an unplug: registers to their reset values and the frame memory to the
    /// power-up pattern ("Contents of memory is set randomly").
    public func powerOn() {
        state.withLock { state in
            state.chip = TFTChipState(controller: controller, memory: state.chip.memorySize, protocolErrors: state.chip.protocolErrors)
        }
    }

    /// Everything the chip found malformed, undefined or too early, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.chip.protocolErrors } }

    /// What the glass shows now.
    public var glass: TFTGlass {
        let (chip, wiring, brightness) = state.withLock { ($0.chip, $0.wiring, $0.brightness) }
        // "During the Resetting period, the display will be blanked" (ST7789V V1.3 §7.4.5 note 3).
        let shining = (wiring?.backlightOn(module.backlight) ?? true) && wiring?.resetLow != true
        return chip.glass(of: module, map: glassMap, brightness: shining ? brightness : 0)
    }

    /// Whether the glass shows a picture: the panel runs and the backlight shines.
    public var isLit: Bool { glass.isLit }

    /// The backlight's brightness as a PWM duty cycle sets it, 0…1 (1 until the rig sets it);
    /// values outside are clamped (a duty cycle is neither more than full nor less than off), and
    /// NaN counts as off.
    public var backlightBrightness: Double {
        get { state.withLock { $0.brightness } }
        set { state.withLock { $0.brightness = newValue.isNaN ? 0 : min(1, max(0, newValue)) } }
    }

    /// The frame memory's pixel at (`x`, `y`) as 6-bit levels, for tests that look past the glass.
    package func framePixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let value = state.withLock { $0.chip.memory[x, y] }
        return (UInt8(value >> 12 & 0x3F), UInt8(value >> 6 & 0x3F), UInt8(value & 0x3F))
    }
}
