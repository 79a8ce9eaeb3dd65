import HeadwayCore
import HeadwayDevices

/// The colour TFT controllers' twin: a datasheet model of the controller on its module, on an SPI
/// chip select with D/C, RES# and the backlight's switch on GPIO lines, or the backlight dimmed
/// by a PWM channel.
extension RigDevice {
    /// `module` (its controller modelled from the datasheet) on `bus`, D/C and, if wired, RES# and
    /// the backlight's switch on `lines`; a `pwm` channel's duty cycle sets the backlight's light.
    public static func tft(
        _ name: String, module: TFTModuleModel, on bus: VirtualSPIBus, lines: VirtualGPIOChip, dataCommand: UInt32, reset: UInt32?,
        backlight: UInt32?, pwm: VirtualPWMChannel? = nil
    ) -> RigDevice {
        let chip = VirtualTFT(module: module)
        chip.wireSPI(dc: dataCommand, reset: reset, backlight: backlight, on: lines, clock: bus.clock)
        bus.attach(chip)
        pwm?.watch { [weak chip] duty in chip?.backlightBrightness = duty }
        return .panel(name, chip)
    }
}

extension VirtualTFT: VirtualPanel {
    public var panelWidth: Int { module.width }
    public var panelHeight: Int { module.height }
    public var panelPicture: PanelPicture { .colour(glass) }
    public var isDisplayOn: Bool { isLit }
    public var isDim: Bool { backlightBrightness < 0.5 }
}

extension TFTModuleModel {
    /// The model of the module the driver calls `module` (by its configuration name), nil for one
    /// the simulator has no model of.
    public static func twin(of module: TFTModule) -> TFTModuleModel? {
        switch module.name {
        case "display-hat-mini": .displayHATMini
        case "mini-pitft-114": .miniPiTFT114
        case "mini-pitft-13": .miniPiTFT13
        case "tft-bonnet-13": .tftBonnet13
        case "waveshare-lcd-13": .waveshare13
        case "waveshare-lcd-144": .waveshare144
        case "st7735r-green-tab": .st7735rGreenTab
        case "st7735r-red-tab": .st7735rRedTab
        case "st7735r-black-tab": .st7735rBlackTab
        case "st7735r-mini-160x80": .st7735rMini160x80
        case "st7735r-mini-160x80-plugin": .st7735rMini160x80Plugin
        case "st7735r-green-tab-144": .st7735rGreenTab144
        case "pitft-28": .piTFT28
        default: nil
        }
    }
}
