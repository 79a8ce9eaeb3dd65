import HeadwayDevices
import HeadwayRender
import Synchronization

/// An SSD1306 or SH1106 on a simulated I2C bus, modelled from the datasheets.
///
/// Every byte is interpreted as the chip would: the control byte (Co and D/C# bits) decides whether
/// the following bytes are commands or display data; commands are decoded with their arguments
/// (see the per-chip command tables); data lands in display RAM under the addressing mode and
/// pointers the commands set up. What the glass shows is computed from RAM and the registers
/// (multiplex, offsets, remaps, scan direction, COM configuration, on/off, invert, charge pump).
/// Anything the datasheet does not define is recorded in ``protocolErrors`` — tests assert it empty.
public final class VirtualOLED: I2CTarget, PowerCycled {
    public let controller: OLEDController
    public let address: UInt8
    public let panel: OLEDPanel

    let state: Mutex<OLEDRegisters>

    public init(controller: OLEDController, address: UInt8 = 0x3C, panel: OLEDPanel) {
        self.controller = controller
        self.address = address
        self.panel = panel
        state = Mutex(OLEDRegisters(controller: controller))
    }

    /// A module as sold: the glass for `width`x`height` on `controller`.
    public convenience init(controller: OLEDController, width: Int, height: Int, address: UInt8 = 0x3C) {
        let offset = controller == .sh1106 ? 2 : (128 - width) / 2
        let wiring: UInt8 = height > 32 ? 0x12 : 0x02
        self.init(controller: controller, address: address, panel: OLEDPanel(width: width, height: height, firstSegment: offset, comWiring: wiring))
    }

    public func receive(_ message: [UInt8]) {
        state.withLock { registers in
            var index = 0
            while index < message.count {
                let control = message[index]
                index += 1
                if control & 0x3F != 0 {
                    registers.error("control byte \(hexByte(control)) has bits 5…0 set (only Co and D/C# may be)")
                }
                let isData = control & 0x40 != 0
                if control & 0x80 != 0 {
                    // Co = 1: exactly one byte follows, then another control byte.
                    guard index < message.count else {
                        registers.error("control byte \(hexByte(control)) with Co=1 ends the message")
                        return
                    }
                    registers.take(message[index], isData: isData)
                    index += 1
                } else {
                    for byte in message[index...] { registers.take(byte, isData: isData) }
                    return
                }
            }
        }
    }

    public func stop() {
        state.withLock { registers in
            if let pending = registers.pendingCommand {
                registers.error("command \(hexByte(pending.opcode)) cut off by STOP: \(pending.arguments.count) of its \(pending.needed) argument bytes arrived")
                registers.pendingCommand = nil
            }
        }
    }

    /// Power returns after an unplug: RAM and registers are back to their reset values.
    public func powerOn() {
        state.withLock { $0 = OLEDRegisters(controller: controller, protocolErrors: $0.protocolErrors) }
    }

    /// Everything the chip found malformed or undefined, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.protocolErrors } }

    /// The register state, for tests and status lines.
    public var registers: OLEDRegisters { state.withLock { $0 } }

    /// What the glass shows now.
    public var picture: Bitmap {
        let registers = self.registers
        var picture = Bitmap(width: panel.width, height: panel.height)
        guard registers.isLit else { return picture }
        for y in 0..<panel.height {
            guard let row = registers.ramRow(forPanelRow: y, panel: panel) else { continue }
            for x in 0..<panel.width {
                let segment = panel.segment(forColumn: x)
                let column = registers.segmentRemap ? registers.ramWidth - 1 - segment : segment
                var lit = registers.ram[row / 8 * registers.ramWidth + column] & (1 << UInt8(row % 8)) != 0
                if registers.inverted { lit.toggle() }
                if registers.entireDisplayOn { lit = true }
                picture[x, y] = lit
            }
        }
        return picture
    }
}

