/// The 16-bit shift registers of a MAX7219 cascade, DOUT of each into DIN of the next.
///
/// Serial-Addressing Modes (p. 6): bits at DIN shift in "with each rising edge of CLK regardless
/// of the state of LOAD", D15 first, and appear at DOUT 16.5 clocks later; every device latches its
/// register on the rising edge of LOAD. No-Op Register (p. 10): all LOAD inputs are tied together,
/// so one LOAD pulse latches every device. The registers keep their bits between pulses, so a
/// device a message does not reach latches, again, the bits it already held.
struct MAX7219ShiftChain: Sendable, Hashable {
    /// Device 0 is the one whose DIN the host drives. Their content at power-up is not given; the
    /// model starts them at 0 (a no-op word).
    private(set) var registers: [UInt16]

    init(devices: Int) {
        registers = [UInt16](repeating: 0, count: max(1, devices))
    }

    /// Clocks `byte` in at device 0's DIN, most significant bit first; every device passes the
    /// byte that leaves its top on to the next.
    mutating func shift(_ byte: UInt8) {
        for index in stride(from: registers.count - 1, to: 0, by: -1) {
            registers[index] = registers[index] << 8 | registers[index - 1] >> 8
        }
        registers[0] = registers[0] << 8 | UInt16(byte)
    }

    /// What is wrong with a message of `count` bytes between two LOAD pulses, if anything: one
    /// pulse latches 16 bits in every device, so the chain needs exactly two bytes per device.
    func problem(withMessageOf count: Int) -> String? {
        let devices = registers.count, needed = 2 * devices
        guard count != needed else { return nil }
        var what: [String] = []
        if count % 2 != 0 {
            what.append("an odd number of bytes leaves every device's 16 bits straddling two of the words as sent")
        }
        if count < needed {
            let fresh = count / 2
            if count % 2 != 0, fresh < devices {
                what.append("device \(fresh) latched 8 new bits over 8 old ones")
            }
            let stale = fresh + (count % 2 == 0 ? 0 : 1)
            if stale < devices {
                let range = stale == devices - 1 ? "device \(stale)" : "devices \(stale)–\(devices - 1)"
                what.append("\(range) latched bits sent in earlier messages, not new words")
            }
        } else {
            what.append("the first \(count - needed) byte(s) shifted out of device \(devices - 1)'s DOUT and were lost")
        }
        return "a message of \(count) byte(s) for a chain of \(devices) MAX7219(s) (each LOAD pulse latches 16 bits in every device: \(needed) bytes): " + what.joined(separator: "; ")
    }
}
