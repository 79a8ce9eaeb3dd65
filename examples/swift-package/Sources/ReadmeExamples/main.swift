import Headway
import HeadwaySimulator

// Runs README's snippets that need no board on the simulator's rig; exits 1 if one misbehaves.
let rig = SimulatorRig.standard(clock: MonotonicClock())
try await showBackup(ring: rig.chains[0].driver, oled: rig.displays[0].driver)
let beacon = try beaconLightsTheRing()
print("README examples: showBackup ran on virtual devices; Beacon lit the virtual ring: \(beacon)")
if !beacon { fatalError("Beacon did not light the ring as expected") }
