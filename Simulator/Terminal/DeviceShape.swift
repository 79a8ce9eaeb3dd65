/// A device of the rig as the terminal layout sees it: its name and what sets its size on screen.
public struct DeviceShape: Sendable, Equatable {
    /// What sets the device's size on screen.
    public enum Kind: Sendable, Equatable {
        /// A display of `width`x`height` pixels.
        case display(width: Int, height: Int)
        /// LEDs on a ring, drawn as a circle when there is room, else as a row.
        case ring(count: Int)
        /// LEDs in a row: a strip, or GPIO lamps.
        case row(count: Int)
    }

    /// The device's name.
    public var name: String
    /// What sets its size on screen.
    public var kind: Kind

    /// The shape of device `name`.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// A device of the rig, for the painter.
enum RigDevice {
    case display(SimulatedOLED)
    case chain(SimulatedLEDChain)
    case lamps(SimulatedGPIOLEDs)

    var shape: DeviceShape {
        switch self {
        case .display(let display): DeviceShape(name: display.name, kind: .display(width: display.chip.panel.width, height: display.chip.panel.height))
        case .chain(let chain): DeviceShape(name: chain.name, kind: chain.layout.isRing ? .ring(count: chain.count) : .row(count: chain.count))
        case .lamps(let lamps): DeviceShape(name: lamps.name, kind: .row(count: lamps.offsets.count))
        }
    }
}

extension SimulatorRig {
    /// The rig's devices in the order they are laid out: displays, rings, strips, GPIO lamps.
    var devices: [RigDevice] {
        displays.map(RigDevice.display) + chains.filter(\.layout.isRing).map(RigDevice.chain)
            + chains.filter { !$0.layout.isRing }.map(RigDevice.chain) + lights.map(RigDevice.lamps)
    }

    /// The shapes of the rig's devices, in the order they are laid out.
    public var shapes: [DeviceShape] { devices.map(\.shape) }
}
