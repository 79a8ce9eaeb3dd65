import HeadwaySurfaces

/// What a TFT's frame costs on its link, and the controller's window as the last frame left it.
///
/// A rectangle costs its window (CASET and RASET, each an opcode and four parameter bytes, left out
/// when the controller's window already has those columns or rows: the registers keep their values,
/// ST7789V V1.3 §9.1.20–21), RAMWR, and its pixels; every change of D/C starts another SPI
/// message, and pixels go in messages of at most spidev's `bufsiz`. A message costs more than its
/// bytes: a system call for the transfer and, for each D/C change, one for the GPIO line —
/// ``messageBytes`` counts that as the bytes the bus could have clocked meanwhile.
package struct TFTLinkCost: Sendable, Equatable {
    /// The largest SPI message (spidev's bufsiz).
    package let bufsiz: Int
    /// Bytes a pixel.
    package let bytesPerPixel: Int
    /// What one more message costs, in bytes on the wire at the link's clock.
    package let messageBytes: Int

    /// What the planner counts one SPI message as, beyond its bytes: the bytes the bus clocks in
    /// 4 µs. A message is a spidev ioctl, and a D/C change a libgpiod call, each some µs on a Pi;
    /// this is a weight, not a measurement: enough that a frame does not scatter into hundreds of
    /// messages, small enough that no frame of headway-bench's sequences sends more bytes than a
    /// peer's method (docs/performance.md).
    package static let messageOverhead = 4e-6

    /// The cost on a link of `bufsiz` at `clockHz`, `bytesPerPixel` a pixel.
    package init(bufsiz: Int, clockHz: UInt32, bytesPerPixel: Int, messageOverhead: Double = TFTLinkCost.messageOverhead) {
        self.bufsiz = max(1, bufsiz)
        self.bytesPerPixel = bytesPerPixel
        messageBytes = Int((messageOverhead * Double(clockHz) / 8).rounded())
    }

    /// Bytes and messages of one plan.
    package struct Tally: Sendable, Equatable {
        /// Bytes on the wire.
        package var bytes = 0
        /// SPI messages.
        package var messages = 0
        /// A tally of `bytes` in `messages`.
        package init(bytes: Int = 0, messages: Int = 0) {
            self.bytes = bytes
            self.messages = messages
        }
    }

    /// The window the controller holds: its columns and rows (nil: not known, after a reset).
    package struct Window: Sendable, Equatable {
        /// The window's columns (CASET), nil when not known.
        package var columns: ClosedRange<Int>?
        /// The window's rows (RASET), nil when not known.
        package var rows: ClosedRange<Int>?
        /// A window of `columns` and `rows`.
        package init(columns: ClosedRange<Int>? = nil, rows: ClosedRange<Int>? = nil) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// What sending `rects` in order costs from `window`, and the window they leave; `offset`
    /// turns picture coordinates into the controller's addresses.
    package func tally(_ rects: [PixelRect], from window: Window, offset: (column: Int, row: Int) = (0, 0)) -> (Tally, Window) {
        var tally = Tally(), window = window
        for rect in rects {
            let columns = (rect.x + offset.column)...(rect.maxX - 1 + offset.column)
            let rows = (rect.y + offset.row)...(rect.maxY - 1 + offset.row)
            if window.columns != columns {
                tally.bytes += 5
                tally.messages += 2
                window.columns = columns
            }
            if window.rows != rows {
                tally.bytes += 5
                tally.messages += 2
                window.rows = rows
            }
            let data = rect.width * rect.height * bytesPerPixel
            tally.bytes += 1 + data
            tally.messages += 1 + (data + bufsiz - 1) / bufsiz
        }
        return (tally, window)
    }

    /// The cost as one number: bytes, and each message at ``messageBytes``.
    package func cost(_ tally: Tally) -> Int { tally.bytes + tally.messages * messageBytes }

    /// A lone rectangle of `width` x `height` with a window of its own.
    func cost(width: Int, height: Int) -> Int {
        let data = width * height * bytesPerPixel
        return 11 + data + (5 + (data + bufsiz - 1) / bufsiz) * messageBytes
    }
}

/// Works out which rectangles of a TFT to rewrite to turn one picture into the next, sending the
/// cheapest of these plans on its link (`TFTLinkCost`):
/// - **rectangles**: the changed pixels of each row, two stretches sent as one where the gap
///   between them costs less than another rectangle; each row's stretches grown down into the
///   rectangle that ended on the row above where that costs less than two; then any two
///   rectangles merged while their bounding rectangle costs less than both;
/// - **one window**: the rectangle around every change (what the kernel's panel-mipi-dbi sends);
/// - **the whole picture** (what Pimoroni's and luma.lcd's ST7789 drivers send).
/// Each is costed as ``TFTDisplay`` sends it, the window's registers included, so no frame costs
/// more than the cheapest of them. Pictures are rows of `bytesPerPixel`-byte pixels.
package struct TFTRectanglePlanner: Sendable {
    /// The pictures' width.
    package let width: Int
    /// The pictures' height.
    package let height: Int
    /// What plans cost on the display's link.
    package let link: TFTLinkCost

    /// A planner for `width` x `height` pictures on `link`.
    package init(width: Int, height: Int, link: TFTLinkCost) {
        self.width = width
        self.height = height
        self.link = link
    }

    /// The whole picture.
    package var whole: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Rectangles beyond this many are not merged pair by pair (the cost of trying grows with
    /// their square); the one window or the whole picture is then cheaper anyway.
    static let mostPairwise = 48

    /// The cheapest plan from `old` to `new`, from `window`, in sending order; everything when
    /// there is no old picture, nothing when they are the same. When `damage` is given, the
    /// pictures differ at most in its stretches, and only those are compared.
    package func plan(from old: [UInt8]?, to new: [UInt8], within damage: [RowStretch]? = nil, window: TFTLinkCost.Window = .init(),
                      offset: (column: Int, row: Int) = (0, 0)) -> [PixelRect] {
        precondition(new.count == width * height * link.bytesPerPixel, "picture size does not match the display")
        guard let old else { return [whole] }
        var rects = rowRuns(from: old, to: new, within: damage).mergedDown(cost: cost)
        guard !rects.isEmpty else { return [] }
        if rects.count <= Self.mostPairwise { rects = mergedPairwise(rects) }
        let bounding = rects.dropFirst().reduce(rects[0]) { $0.union($1) }
        let plans = [rects, [bounding], [whole]]
        let costs = plans.map { link.cost(link.tally($0, from: window, offset: offset).0) }
        return plans[costs.firstIndex(of: costs.min()!)!]
    }

    /// Each row's changed stretches of pixels, as one-row rectangles; a gap is bridged where its
    /// pixels cost less than a new rectangle beside it (its window, RAMWR and their messages).
    /// Only `damage`'s stretches are compared when it is given.
    func rowRuns(from old: [UInt8], to new: [UInt8], within damage: [RowStretch]? = nil) -> [PixelRect] {
        var runs: [PixelRect] = []
        old.withUnsafeBytes { old in
            new.withUnsafeBytes { new in
                if let damage {
                    for stretch in damage {
                        rowRuns(old, new, row: stretch.row, pixels: stretch.first...stretch.last, into: &runs)
                    }
                } else {
                    for y in 0..<height { rowRuns(old, new, row: y, pixels: 0...(width - 1), into: &runs) }
                }
            }
        }
        return runs
    }

    /// The changed stretches of `pixels` of row `y`, appended to `runs`.
    private func rowRuns(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer, row y: Int, pixels: ClosedRange<Int>, into runs: inout [PixelRect]) {
        let size = link.bytesPerPixel
        let bridge = (10 + 5 * link.messageBytes) / size
        let start = (y * width + pixels.lowerBound) * size, count = pixels.count * size
        // Most rows did not change: 32 bytes at a time say so.
        var same = true, offset = 0
        while same, offset + 32 <= count {
            var difference: UInt64 = 0
            for word in 0..<4 {
                difference |= old.loadUnaligned(fromByteOffset: start + offset + word * 8, as: UInt64.self)
                    ^ new.loadUnaligned(fromByteOffset: start + offset + word * 8, as: UInt64.self)
            }
            same = difference == 0
            offset += 32
        }
        if same, offset >= count || old[(start + offset)..<(start + count)].elementsEqual(new[(start + offset)..<(start + count)]) {
            return
        }
        var first = -1, last = -1
        var byte = 0
        while byte < count {
            if byte + 8 <= count, old.loadUnaligned(fromByteOffset: start + byte, as: UInt64.self)
                == new.loadUnaligned(fromByteOffset: start + byte, as: UInt64.self) {
                byte += 8
                continue
            }
            if old[start + byte] == new[start + byte] {
                byte += 1
                continue
            }
            let pixel = pixels.lowerBound + byte / size
            if first >= 0, pixel - last - 1 > bridge {
                runs.append(PixelRect(x: first, y: y, width: last - first + 1, height: 1))
                first = pixel
            } else if first < 0 {
                first = pixel
            }
            last = pixel
            byte = (pixel - pixels.lowerBound + 1) * size
        }
        if first >= 0 { runs.append(PixelRect(x: first, y: y, width: last - first + 1, height: 1)) }
    }

    private func cost(_ rect: PixelRect) -> Int { link.cost(width: rect.width, height: rect.height) }

    /// Merges the two rectangles whose bounding rectangle saves the most, again and again, while
    /// one saves anything.
    func mergedPairwise(_ rects: [PixelRect]) -> [PixelRect] {
        var rects = rects
        var costs = rects.map(cost)
        while rects.count > 1 {
            var best: (Int, Int, PixelRect, Int)?
            for i in 0..<rects.count {
                for j in (i + 1)..<rects.count {
                    let union = rects[i].union(rects[j])
                    let together = cost(union)
                    let saving = costs[i] + costs[j] - together
                    if saving > 0, saving > (best?.3 ?? 0) { best = (i, j, union, saving) }
                }
            }
            guard let (i, j, union, _) = best else { break }
            rects[i] = union
            costs[i] = cost(union)
            rects.remove(at: j)
            costs.remove(at: j)
        }
        return rects.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }
}
