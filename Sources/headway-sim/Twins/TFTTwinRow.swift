import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of colour TFTs: the module's datasheet model on the SPI bus the configuration
    /// names, clocked as the board divides, with its D/C, reset and backlight lines, or its
    /// backlight following a PWM channel.
    static let tft = Row(TFTSettings.self) { s, name, buses, clock in
        let pwm: VirtualPWMChannel? = if case .pwm(let channel, _) = s.backlight { buses.pwmChannel(channel) } else { nil }
        let line: UInt32? = if case .line(let line, _) = s.backlight { line } else { nil }
        return .tft(name, module: TFTModuleModel.twin(of: s.configuration.module)!, on: buses.spiBus(s.bus, clockModel: clock), lines: buses.gpioChip(s.chip),
                    dataCommand: s.dataCommand, reset: s.reset, backlight: line, pwm: pwm)
    }

}
