/// One place an indicator is shown, drawn in a style: an LED chain (``LEDOutput``), a display
/// (``DisplayOutput``) or plain GPIO LEDs (``LightsOutput``).
///
/// Each draw renders the moment, passes it through the medium's own stages and sends it, in one
/// critical section: two threads drawing the same output cannot interleave their frames.
public protocol IndicatorOutput: AnyObject, Sendable {
    /// Draws one job (or, for an idle configuration, nothing) at the configuration's time.
    func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError)
}

