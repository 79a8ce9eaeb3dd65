import HeadwayDevices

/// A run of pixel data after RAMWR or Write Memory Continue.
struct TFTPixelRun: Sendable, Equatable {
    let opcode: UInt8
    /// The bytes of a pixel group not yet whole.
    var partial: [UInt8] = []
    /// Pixels taken so far.
    var written = 0
    /// The counters wrapped past the window's last pixel: the next pixel is one too many.
    var full = false
    /// A pixel past the window's end came (and was reported).
    var overflowed = false
}

extension TFTChipState {
    /// RAMWR (or Write Memory Continue): the window is checked against the frame memory as MADCTL
    /// lays it out now ("The value of XS [7:0] and XE [7:0] are referred when RAMWR command comes",
    /// ST7789V V1.3 §9.1.20), and RAMWR returns the counters to its start (§9.1.22).
    mutating func startPixels(_ opcode: UInt8, continues: Bool) {
        let counter = registers.counter
        let limits = registers.memoryAccess(family).addressLimits(in: memorySize)
        if counter.columnEnd > limits.column || counter.pageEnd > limits.page {
            error("\(table.label(opcode)) window columns \(counter.columnStart)…\(counter.columnEnd), rows \(counter.pageStart)…\(counter.pageEnd) "
                  + "reaches outside the \(memorySize) frame memory (columns 0…\(limits.column), rows 0…\(limits.page) with MADCTL "
                  + "\(hexByte(registers.madctl))); pixels outside it are ignored")
        }
        if !continues { registers.counter.restart() }
        expecting = .pixels(TFTPixelRun(opcode: opcode))
    }

    /// One byte of pixel data: once a group of bytes is whole, its pixels go to the frame memory.
    mutating func takePixelByte(_ byte: UInt8) {
        guard case .pixels(var run) = expecting else { return }
        run.partial.append(byte)
        let format = registers.pixelFormat
        if run.partial.count == format.group.bytes {
            for pixel in format.pixels(from: run.partial) {
                if run.full, !run.overflowed {
                    run.overflowed = true
                    reportOverflow(run)
                }
                if !(run.overflowed && !registers.wrapsPastWindow(family)) { store(pixel) }
                run.written += 1
                run.full = registers.counter.advance()
            }
            run.partial = []
        }
        expecting = .pixels(run)
    }

    /// Writes `pixel` where the counters point; nothing where that is outside the frame memory.
    private mutating func store(_ pixel: UInt32) {
        let access = registers.memoryAccess(family)
        let counter = registers.counter
        guard let (x, y) = access.ramPosition(column: counter.column, page: counter.page, in: memorySize) else { return }
        memory[x, y] = pixel
    }

    /// More pixels came than the window holds: the counters wrap to the window's start (ST7789V V1.3
    /// §8.12 "After the every last address … wrap around"), or, on an ILI9341 with WEMODE 0, the rest
    /// is dropped.
    private mutating func reportOverflow(_ run: TFTPixelRun) {
        let counter = registers.counter
        let width = counter.columnEnd - counter.columnStart + 1
        let height = counter.pageEnd - counter.pageStart + 1
        let fate = registers.wrapsPastWindow(family) ? "the counters wrap to the window's start and overwrite it" : "they are ignored (WEMODE 0)"
        error("\(table.label(run.opcode)) got more pixels than its \(width) x \(height) window holds (pixel \(run.written + 1) is past its end): \(fate)")
    }
}
