import HeadwayDevices

/// The LED matrix chips' twins: each chip's datasheet model attached where its driver writes, read
/// back as its glass, turned as the module is mounted.
extension RigDevice {
    /// An HT16K33 on `module` at `address` on `bus`, mounted turned by `rotation`.
    public static func ht16k33(_ name: String, module: HT16K33Module, address: UInt8, rotation: MatrixRotation = .upright, on bus: VirtualI2CBus) -> RigDevice {
        let chip = VirtualHT16K33(address: address, module: module, clock: bus.clock)
        bus.attach(chip)
        return RigDevice(name: name, view: .matrix(glass: { chip.glass.turned(rotation) }), problems: { chip.protocolErrors })
    }

    /// An IS31FL3731 on `module` at `address` on `bus`, mounted turned by `rotation`.
    public static func is31fl3731(_ name: String, module: IS31FL3731Module, address: UInt8, rotation: MatrixRotation = .upright, on bus: VirtualI2CBus) -> RigDevice {
        let chip = VirtualIS31FL3731(address: address, module: module, clock: bus.clock)
        bus.attach(chip)
        return RigDevice(name: name, view: .matrix(glass: { chip.glass.turned(rotation) }), problems: { chip.protocolErrors })
    }

    /// A chain of `devices` MAX7219s on `module`s on `bus`, the row mounted turned by `rotation`.
    public static func max7219(_ name: String, module: MAX7219Module, devices: Int, rotation: MatrixRotation = .upright, on bus: VirtualSPIBus) -> RigDevice {
        let chain = VirtualMAX7219Chain(devices: devices, module: module)
        bus.attach(chain)
        return RigDevice(name: name, view: .matrix(glass: { chain.glass.turned(rotation) }), problems: { chain.protocolErrors })
    }
}

extension LEDGlass {
    /// The glass of a module mounted turned clockwise by `rotation`, as a person in front of it
    /// sees it: a module's top-left LED is at the top right after a quarter turn.
    public func turned(_ rotation: MatrixRotation) -> LEDGlass {
        guard rotation != .upright, digits.isEmpty else { return self }
        var turned = self
        let (width, height) = (self.width, self.height)
        turned.leds = leds.map { die in
            var moved = die
            switch rotation {
            case .upright: break
            case .quarter: (moved.x, moved.y) = (height - 1 - die.y, die.x)
            case .half: (moved.x, moved.y) = (width - 1 - die.x, height - 1 - die.y)
            case .threeQuarters: (moved.x, moved.y) = (die.y, width - 1 - die.x)
            }
            return moved
        }
        if rotation == .quarter || rotation == .threeQuarters { (turned.width, turned.height) = (height, width) }
        return turned
    }
}
