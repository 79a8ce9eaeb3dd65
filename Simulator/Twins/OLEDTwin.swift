import HeadwayDevices

/// The OLED controllers' twin: a datasheet model of the controller on its module, attached at its
/// I2C address, or on an SPI chip select with D/C and RES# on GPIO lines.
extension RigDevice {
    /// A `width`x`height` module of `controller` at `address` on `bus`.
    public static func oled(_ name: String, controller: OLEDController, width: Int, height: Int, address: UInt8, on bus: VirtualI2CBus) -> RigDevice {
        let chip = VirtualOLED(controller: controller, width: width, height: height, address: address)
        bus.attach(chip)
        return .panel(name, chip)
    }

    /// A `width`x`height` module of `controller` on `bus`, D/C# and (if wired) RES# on `lines`.
    public static func oled(
        _ name: String, controller: OLEDController, width: Int, height: Int, on bus: VirtualSPIBus, lines: VirtualGPIOChip, dataCommand: UInt32,
        reset: UInt32?
    ) -> RigDevice {
        let chip = VirtualOLED(controller: controller, width: width, height: height)
        chip.wireSPI(dc: dataCommand, reset: reset, on: lines, clock: bus.clock)
        bus.attach(chip)
        return .panel(name, chip)
    }
}

extension VirtualOLED: VirtualPanel {
    public var panelWidth: Int { panel.width }
    public var panelHeight: Int { panel.height }
    public var panelPicture: PanelPicture { isGreyscale ? .grey(glass) : .mono(picture) }
    public var isDim: Bool { contrast < 96 }
}
