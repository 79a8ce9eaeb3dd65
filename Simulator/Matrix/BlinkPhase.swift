import HeadwayCore

/// A hardware blink of 50 % duty: on for the first half of each period, off for the second.
///
/// HT16K33 "Example of Waveform for Blinker" (Display Setup Register, p. 11): at 2 Hz, 0.25 s on,
/// then 0.25 s off. IS31FL3731 Blink Function Setting (p. 17): "the duty cycle is 50%". Neither
/// datasheet ties the phase to a command, so the model starts the cycle, on, at the command that
/// set the blink.
struct BlinkPhase: Sendable, Hashable {
    /// When the cycle started, on the simulation clock.
    let since: Seconds
    /// One on half and one off half.
    let period: Seconds

    /// Whether the blinking LEDs are dark at `time`.
    func isOff(at time: Seconds) -> Bool {
        guard period > 0, time > since else { return false }
        let phase = (time - since).truncatingRemainder(dividingBy: period)
        return phase >= period / 2
    }
}
