import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of colour TFTs: the module's datasheet model on the SPI bus the configuration
    /// names, clocked as the board divides, with its D/C, reset and backlight lines, or its
    /// backlight following a PWM channel.
    static let tft = Row(TFTSettings.self) { s, name, buses, clock in
        let pwm: VirtualPWMChannel? = if case .pwm(let channel, _) = s.backlight { buses.pwmChannel(channel) } else { nil }
        let line: UInt32? = if case .line(let line, _) = s.backlight { line } else { nil }
        return .tft(name, module: tftModels[s.configuration.module.name]!, on: buses.spiBus(s.bus, clockModel: clock), lines: buses.gpioChip(s.chip),
                    dataCommand: s.dataCommand, reset: s.reset, backlight: line, pwm: pwm)
    }

    /// The simulator's model of each module the driver knows, by the driver's name for it.
    static let tftModels: [String: TFTModuleModel] = [
        "display-hat-mini": .displayHATMini, "mini-pitft-114": .miniPiTFT114, "mini-pitft-13": .miniPiTFT13, "tft-bonnet-13": .tftBonnet13,
        "waveshare-lcd-13": .waveshare13, "waveshare-lcd-144": .waveshare144, "st7735r-green-tab": .st7735rGreenTab, "st7735r-red-tab": .st7735rRedTab,
        "st7735r-black-tab": .st7735rBlackTab, "st7735r-mini-160x80": .st7735rMini160x80, "st7735r-mini-160x80-plugin": .st7735rMini160x80Plugin,
        "st7735r-green-tab-144": .st7735rGreenTab144, "pitft-28": .piTFT28,
    ]
}
