import RealModule

/// Shapes on a display picture, each clipped to it and drawn in a ``Shade``. On a greyscale
/// surface ring edges are anti-aliased; on a 1-bit surface a pixel is lit when its centre lies in
/// the shape, so both depths come from the same drawing.
extension DisplaySurface {
    /// Sets every pixel of `rect` to `shade`.
    public mutating func fill(_ rect: PixelRect, shade: Shade) {
        fill(rect, level: shade.level(on: Self.self), role: shade.role)
    }

    /// A one-pixel outline along the inside of `rect`.
    public mutating func stroke(_ rect: PixelRect, shade: Shade = .full) {
        guard !rect.isEmpty else { return }
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: 1), shade: shade)
        fill(PixelRect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), shade: shade)
        fill(PixelRect(x: rect.x, y: rect.y, width: 1, height: rect.height), shade: shade)
        fill(PixelRect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height), shade: shade)
    }

    /// A one-pixel outline, lit or cleared.
    public mutating func stroke(_ rect: PixelRect, on: Bool) { stroke(rect, shade: on ? .full : .off) }

    /// Diagonal stripes over `rect`, every other pixel lit: the "stalled" fill, unmistakable for a
    /// solid one.
    public mutating func hatch(_ rect: PixelRect, period: Int = 4, phase: Int = 0, shade: Shade = .full) {
        let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        let level = shade.level(on: Self.self)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { setLevel((x + y + phase) % period < period / 2 ? level : 0, x: x, y: y, role: shade.role) }
        }
    }

    /// A checkerboard over `rect`: the "estimate" fill, half the light of a solid one and plainly
    /// not a report.
    public mutating func dots(_ rect: PixelRect, shade: Shade = .full) {
        let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        let level = shade.level(on: Self.self)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { setLevel((x + y) % 2 == 0 ? level : 0, x: x, y: y, role: shade.role) }
        }
    }

    /// A straight line from `start` to `end`, `thickness` pixels wide.
    public mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), thickness: Int = 1, shade: Shade = .full) {
        let steps = Swift.max(abs(end.x - start.x), abs(end.y - start.y), 1)
        let half = (thickness - 1) / 2
        let level = shade.level(on: Self.self)
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let x = Int((Double(start.x) + Double(end.x - start.x) * t).rounded())
            let y = Int((Double(start.y) + Double(end.y - start.y) * t).rounded())
            fill(PixelRect(x: x - half, y: y - half, width: thickness, height: thickness), level: level, role: shade.role)
        }
    }

    /// Part of a ring around (`centerX`, `centerY`) between radii `inner` and `outer`, from angle
    /// `start` sweeping `sweep` (both in turns: 0 = 12 o'clock, 0.25 = 3 o'clock; negative sweeps run
    /// anticlockwise). A sweep of 1 or more draws the whole ring. Only pixels it covers change, each
    /// to at least its share of `shade`.
    public mutating func arc(
        centerX: Double, centerY: Double, inner: Double, outer: Double, start: Double, sweep: Double, shade: Shade = .full
    ) {
        guard sweep != 0, outer > inner else { return }
        let box = PixelRect(
            x: Int((centerX - outer).rounded(.down)) - 1, y: Int((centerY - outer).rounded(.down)) - 1,
            width: Int(2 * outer) + 4, height: Int(2 * outer) + 4)
        let area = box.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        let full = abs(sweep) >= 1
        let graded = Self.maxLevel > 1
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let dx = Double(x) + 0.5 - centerX, dy = Double(y) + 0.5 - centerY
                let radius = (dx * dx + dy * dy).squareRoot()
                if graded {
                    // Coverage across the band (how much of the pixel lies between the radii) times
                    // coverage along it (how far the pixel's centre is inside the arc's ends).
                    let across = Swift.min(1, Swift.max(0, Swift.min(outer - radius, radius - inner) + 0.5))
                    guard across > 0 else { continue }
                    let along = full ? 1 : Self.coverage(dx: dx, dy: dy, radius: radius, start: start, sweep: sweep)
                    let level = shade.level(on: Self.self, coverage: across * along)
                    if level > self.level(x: x, y: y) { setLevel(level, x: x, y: y, role: shade.role) }
                } else {
                    guard radius >= inner, radius <= outer else { continue }
                    if full || Self.angle(dx: dx, dy: dy, isWithin: start, sweep: sweep) { setLevel(shade.level(on: Self.self), x: x, y: y, role: shade.role) }
                }
            }
        }
    }

    /// A part of a ring, lit or cleared (1-bit drawing).
    public mutating func arc(centerX: Double, centerY: Double, inner: Double, outer: Double, start: Double, sweep: Double, on: Bool) {
        arc(centerX: centerX, centerY: centerY, inner: inner, outer: outer, start: start, sweep: sweep, shade: on ? .full : .off)
    }

    /// Whether the direction (`dx`, `dy`) lies in the arc from `start` over `sweep` turns.
    static func angle(dx: Double, dy: Double, isWithin start: Double, sweep: Double) -> Bool {
        offset(dx: dx, dy: dy, start: start, sweep: sweep) <= abs(sweep)
    }

    /// How far into the arc, in turns, the direction (`dx`, `dy`) lies from its start.
    static func offset(dx: Double, dy: Double, start: Double, sweep: Double) -> Double {
        var turns = Double.atan2(y: dx, x: -dy) / (2 * .pi)  // 0 at 12 o'clock, clockwise positive
        if turns < 0 { turns += 1 }
        var offset = (sweep >= 0 ? turns - start : start - turns).truncatingRemainder(dividingBy: 1)
        if offset < 0 { offset += 1 }
        return offset
    }

    /// The share of a pixel at (`dx`, `dy`) inside the arc's two ends: its centre's distance (in
    /// pixels, along the ring) from the nearer end, plus half a pixel, clamped to 0…1.
    static func coverage(dx: Double, dy: Double, radius: Double, start: Double, sweep: Double) -> Double {
        let into = offset(dx: dx, dy: dy, start: start, sweep: sweep)
        let length = abs(sweep)
        let outside = into > length ? Swift.min(into - length, 1 - into) : -Swift.min(into, length - into)
        return Swift.min(1, Swift.max(0, 0.5 - outside * 2 * .pi * radius))
    }
}
