/// A device of the rig as the terminal layout sees it: its name and what sets its size on screen.
public struct DeviceShape: Sendable, Equatable {
    /// What sets the device's size on screen.
    public enum Kind: Sendable, Equatable {
        /// A display of `width`x`height` pixels.
        case display(width: Int, height: Int)
        /// A colour display of `width`x`height` pixels.
        case colourDisplay(width: Int, height: Int)
        /// LEDs on a ring, drawn as a circle when there is room, else as a row.
        case ring(count: Int)
        /// LEDs in a row: a strip, or GPIO lamps.
        case row(count: Int)
        /// An LED matrix or bar graph of `width` × `height` positions.
        case matrix(width: Int, height: Int)
        /// A segment display of `count` digits, 14 segments each when `fourteen`, with a colon.
        case digits(count: Int, fourteen: Bool, colon: Bool)
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

extension RigDevice {
    /// What sets the device's size on screen.
    var shape: DeviceShape {
        switch view {
        case .panel(let panel):
            if case .colour = panel.panelPicture {
                DeviceShape(name: name, kind: .colourDisplay(width: panel.panelWidth, height: panel.panelHeight))
            } else {
                DeviceShape(name: name, kind: .display(width: panel.panelWidth, height: panel.panelHeight))
            }
        case .leds(let levels, let layout): DeviceShape(name: name, kind: layout.isRing ? .ring(count: levels().count) : .row(count: levels().count))
        case .lamps(let lit): DeviceShape(name: name, kind: .row(count: lit().count))
        case .matrix(let glass): DeviceShape(name: name, kind: glass().shape)
        }
    }

    /// Where it goes in the layout's order: displays, rings, strips, lamps.
    var layoutRank: Int {
        switch view {
        case .panel, .matrix: 0
        case .leds(_, let layout): layout.isRing ? 1 : 2
        case .lamps: 3
        }
    }
}

extension SimulatorRig {
    /// The rig's devices in the order they are laid out: displays, rings, strips, GPIO lamps
    /// (each kind in the configuration's order).
    var laidOut: [RigDevice] {
        devices.enumerated().sorted { ($0.element.layoutRank, $0.offset) < ($1.element.layoutRank, $1.offset) }.map(\.element)
    }

    /// The shapes of the rig's devices, in the order they are laid out.
    public var shapes: [DeviceShape] { laidOut.map(\.shape) }
}

extension LEDGlass {
    /// What sets a matrix's or segment display's size on screen.
    var shape: DeviceShape.Kind {
        digits.isEmpty ? .matrix(width: width, height: height)
            : .digits(count: digits.count, fourteen: isFourteenSegment, colon: leds.contains { $0.segment == .colon })
    }
}
