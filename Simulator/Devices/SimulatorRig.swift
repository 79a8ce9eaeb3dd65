import HeadwayRender

/// A set of virtual devices the simulator shows together.
public struct SimulatorRig: Sendable {
    public var chains: [VirtualLEDChain]
    public var displays: [VirtualDisplay]

    public init(chains: [VirtualLEDChain], displays: [VirtualDisplay]) {
        self.chains = chains
        self.displays = displays
    }

    /// The default rig: a 24-LED ring, a 60-LED strip and a 128x64 OLED.
    public static func standard() -> SimulatorRig {
        SimulatorRig(
            chains: [
                VirtualLEDChain(name: "ring", count: 24, layout: .ring()),
                VirtualLEDChain(name: "strip", count: 60, layout: .strip),
            ],
            displays: [VirtualDisplay(name: "oled", width: 128, height: 64)]
        )
    }
}
