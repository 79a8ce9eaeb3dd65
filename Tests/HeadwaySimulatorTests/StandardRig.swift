import HeadwayCore
@testable import HeadwaySimProgram
import HeadwayService
import HeadwaySimulator

/// The simulator's own rig (Boards/simulator.yaml: a 128x64 OLED, a 24-LED ring, a 60-LED strip,
/// 8 GPIO lamps, an 8-LED stick and a button), built as `headway-sim demo` builds it.
enum StandardRig {
    static func make(clock: any ProgressClock = ManualClock()) throws -> (rig: SimulatorRig, devices: ServiceDevices) {
        try SimulatedRigBuilder.devices(try Presets.simulatorRig(), buses: SimulatedBuses(clock: clock))
    }
}
