import RealModule

/// Shapes on a ``Bitmap``: outlines, rings, arcs and lines, each clipped to the bitmap.
extension Bitmap {
    /// A one-pixel outline along the inside of `rect`.
    public mutating func stroke(_ rect: PixelRect, on: Bool = true) {
        guard !rect.isEmpty else { return }
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: 1), on: on)
        fill(PixelRect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), on: on)
        fill(PixelRect(x: rect.x, y: rect.y, width: 1, height: rect.height), on: on)
        fill(PixelRect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height), on: on)
    }

    /// Every other pixel of `rect` in a diagonal hatch: the "stalled" fill, unmistakable for a solid one.
    public mutating func hatch(_ rect: PixelRect, period: Int = 4, phase: Int = 0) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = (x + y + phase) % period < period / 2 }
        }
    }

    /// Every other pixel of `rect` in a checkerboard: the "estimate" fill, half the light of a
    /// solid one and plainly not a report.
    public mutating func dots(_ rect: PixelRect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = (x + y) % 2 == 0 }
        }
    }

    /// A straight line from (`x0`, `y0`) to (`x1`, `y1`), `thickness` pixels wide.
    public mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), thickness: Int = 1, on: Bool = true) {
        let steps = Swift.max(abs(end.x - start.x), abs(end.y - start.y), 1)
        let half = (thickness - 1) / 2
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let x = Int((Double(start.x) + Double(end.x - start.x) * t).rounded())
            let y = Int((Double(start.y) + Double(end.y - start.y) * t).rounded())
            fill(PixelRect(x: x - half, y: y - half, width: thickness, height: thickness), on: on)
        }
    }

    /// Part of a ring around (`centerX`, `centerY`) between radii `inner` and `outer`, from angle
    /// `start` sweeping `sweep` (both in turns: 0 = 12 o'clock, 0.25 = 3 o'clock; negative sweeps run
    /// anticlockwise). A sweep of 1 or more draws the whole ring.
    public mutating func arc(
        centerX: Double, centerY: Double, inner: Double, outer: Double, start: Double, sweep: Double, on: Bool = true
    ) {
        guard sweep != 0, outer > inner else { return }
        let box = PixelRect(
            x: Int((centerX - outer).rounded(.down)), y: Int((centerY - outer).rounded(.down)),
            width: Int(2 * outer) + 2, height: Int(2 * outer) + 2)
        let area = box.intersection(bounds)
        guard !area.isEmpty else { return }
        let full = abs(sweep) >= 1
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let dx = Double(x) + 0.5 - centerX, dy = Double(y) + 0.5 - centerY
                let radius = (dx * dx + dy * dy).squareRoot()
                guard radius >= inner, radius <= outer else { continue }
                if full || Self.angle(dx: dx, dy: dy, isWithin: start, sweep: sweep) { self[x, y] = on }
            }
        }
    }

    /// Whether the direction (`dx`, `dy`) lies in the arc from `start` over `sweep` turns.
    static func angle(dx: Double, dy: Double, isWithin start: Double, sweep: Double) -> Bool {
        var turns = Double.atan2(y: dx, x: -dy) / (2 * .pi)  // 0 at 12 o'clock, clockwise positive
        if turns < 0 { turns += 1 }
        var offset = (sweep >= 0 ? turns - start : start - turns).truncatingRemainder(dividingBy: 1)
        if offset < 0 { offset += 1 }
        return offset <= abs(sweep)
    }
}
