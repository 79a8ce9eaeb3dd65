/// How a controller's row scan reaches the COM pads: which RAM line a pad shows, from the
/// multiplex ratio, display offset, display start line, scan direction and pad configuration.
///
/// The arithmetic is the datasheets' tables, in both families:
/// - Scan line L (0 … mux−1) shows RAM line (L + start line) mod M (SSD1306 Table 10-1 column (c);
///   SSD1327 Figure 9-6; SH1106/SH1107 "Set Display Start Line").
/// - The display offset moves the lines towards COM0: line L drives COM signal (L − offset) mod M
///   (SSD1306 Table 10-1 (b): offset 8 puts Row8 on COM0 and Row0 on COM56; SSD1327 Figure 9-7;
///   SH1106 "to move the COM16 towards the COM0 direction for 16 lines … 010000"). The SH1107
///   datasheet words it the other way ("if COM16 is the display start line, then the value should be
///   10H": line 0 on COM16), so for it the offset is added.
/// - Reversed scan (C8h, or COM re-map A0h A[4] on SSD1327) drives COM (mux − 1 − (L ∓ offset)):
///   SSD1306 Table 10-2 (e): MUX 48, offset 8 puts Row47 on COM8 and Row0 on COM55.
/// - The pad configuration then routes each COM signal to a pad (``OLEDPadMap``).
struct OLEDCOMScan: Sendable, Equatable {
    /// COM outputs (and RAM lines) the controller has: 64 or 128.
    var lines: Int
    /// The multiplex ratio register (lines scanned − 1).
    var multiplex: Int
    var offset: Int
    var startLine: Int
    var reversed: Bool
    /// True for SH1107, whose offset moves the start line away from COM0.
    var offsetAwayFromCOM0 = false

    /// The RAM line COM signal `signal` shows, or `nil` when no scanned line drives it.
    func ramLine(forSignal signal: Int) -> Int? {
        let shifted = reversed ? mod(multiplex - signal) : signal
        let line = mod(offsetAwayFromCOM0 ? shifted - offset : shifted + offset)
        guard line <= multiplex else { return nil }
        return mod(line + startLine)
    }

    private func mod(_ value: Int) -> Int { ((value % lines) + lines) % lines }
}

/// How a COM pin hardware configuration routes COM signals to pads: the pad that carries a signal.
enum OLEDPadMap {
    /// SSD130x family and SH1106 (DAh): A[4] alternative (odd/even) configuration, A[5] left/right
    /// remap, for 64 COM pads. SSD1306 Table 10-3 (configurations 1, 2, 5 and 6): sequential puts
    /// signal k on pad COMk, the left/right remap swaps the two halves of 32; alternative puts
    /// signals 0, 2, … 62 on pads COM0 … COM31 and 1, 3, … 63 on COM32 … COM63 (remapped: the
    /// odd signals on COM0 … COM31). SH1106 "Set Common pads hardware configuration" lists the same
    /// two pad orders (no remap bit).
    static func signal(forPad pad: Int, comPins: UInt8) -> Int {
        let alternative = comPins & 0x10 != 0
        let remap = comPins & 0x20 != 0
        if alternative {
            let half = pad < 32 ? 0 : 1
            let index = pad % 32
            return 2 * index + (remap ? 1 - half : half)
        }
        return remap ? (pad + 32) % 64 : pad
    }

    /// SSD1327 (A0h A[6]): COM split odd/even for 128 pads. Figure 9-5: pad COM0 … COM63 carry rows
    /// 0, 2, … 126 and COM64 … COM127 rows 1, 3, … 127; without the split (Figure 9-4) pad COMk
    /// carries row k.
    static func signal(forPad pad: Int, split: Bool) -> Int {
        guard split else { return pad }
        return pad < 64 ? 2 * pad : 2 * (pad - 64) + 1
    }
}
