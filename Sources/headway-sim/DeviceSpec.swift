import HeadwaySimulator

/// A virtual device named on the command line: `ring24`, `strip60`, `oled128x64`, `oled128x32`…
enum DeviceSpec: Equatable {
    case ring(Int)
    case strip(Int)
    case oled(width: Int, height: Int)

    static let help = "ringN (e.g. ring24), stripN (e.g. strip60) or oledWxH (oled128x64, oled128x32)"

    init(parsing text: String) throws(SpecError) {
        let lower = text.lowercased()
        func count(after prefix: String) -> Int? {
            guard lower.hasPrefix(prefix), let n = Int(lower.dropFirst(prefix.count)), n > 0, n <= 4096 else { return nil }
            return n
        }
        if let n = count(after: "ring") {
            self = .ring(n)
        } else if let n = count(after: "strip") {
            self = .strip(n)
        } else if lower.hasPrefix("oled") {
            let size = lower.dropFirst(4).split(separator: "x")
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), (8...256).contains(w), (8...128).contains(h) else {
                throw SpecError("device \"\(text)\": an OLED is oledWxH with W 8…256 and H 8…128, e.g. oled128x64")
            }
            self = .oled(width: w, height: h)
        } else {
            throw SpecError("unknown device \"\(text)\"; use \(Self.help)")
        }
    }

    var name: String {
        switch self {
        case .ring: "ring"
        case .strip: "strip"
        case .oled: "oled"
        }
    }

    var isDisplay: Bool {
        if case .oled = self { return true }
        return false
    }

    /// A rig holding just this device.
    func rig() -> SimulatorRig {
        switch self {
        case .ring(let n): SimulatorRig(chains: [VirtualLEDChain(name: name, count: n, layout: .ring())], displays: [])
        case .strip(let n): SimulatorRig(chains: [VirtualLEDChain(name: name, count: n, layout: .strip)], displays: [])
        case .oled(let w, let h): SimulatorRig(chains: [], displays: [VirtualDisplay(name: name, width: w, height: h)])
        }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
