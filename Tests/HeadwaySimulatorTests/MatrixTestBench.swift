import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Synchronization

/// Matrix frames, glass and buses for the matrix drivers' tests.
enum MatrixTestBench {
    /// A pseudo-random generator with a seed, so every failure can be run again.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33) % max(1, bound)
        }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    /// A random frame for `face`: about a third of the positions lit, levels anywhere.
    static func randomFrame(_ face: MatrixFace, _ random: inout Random, blink: MatrixBlink = .steady, dimming: Double = 1) -> MatrixFrame {
        switch face {
        case .pixels(let width, let height, let dies):
            var levels = MatrixLevels(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width where random.chance(35) {
                    switch dies {
                    case .onOff: levels[x, y] = RGB8(red: 255, green: 255, blue: 255)
                    case .redGreen: levels[x, y] = [RGB8(red: 255, green: 0, blue: 0), RGB8(red: 0, green: 255, blue: 0), RGB8(red: 255, green: 255, blue: 0)][random.next(3)]
                    case .levels: let level = UInt8(1 + random.next(255)); levels[x, y] = RGB8(red: level, green: level, blue: level)
                    case .rgb: levels[x, y] = RGB8(red: UInt8(random.next(256)), green: UInt8(random.next(256)), blue: UInt8(random.next(256)))
                    }
                }
            }
            return MatrixFrame(.pixels(levels), blink: blink, dimming: dimming)
        case .segments(let count, let kind, let colon):
            let segments: [SegmentSet] = kind == .seven ? [.a, .b, .c, .d, .e, .f, .g, .dp] : [.a, .b, .c, .d, .e, .f, .g1, .g2, .h, .j, .k, .l, .m, .n, .dp]
            let digits = (0..<count).map { _ in segments.reduce(SegmentSet()) { random.chance(40) ? $0.union($1) : $0 } }
            return MatrixFrame(.segments(SegmentPicture(digits: digits, colon: colon && random.chance(50))), blink: blink, dimming: dimming)
        }
    }

    /// What a frame asks each position to show, as a glass of `dies` can show it: on/off dies lit
    /// or not, red and green each lit or not, levels as they are.
    static func wanted(_ frame: MatrixFrame, dies: MatrixDies) -> [RGB8] {
        guard case .pixels(let levels) = frame.content else { return [] }
        return levels.levels.map { level in
            switch dies {
            case .onOff: level == .off ? .off : RGB8(red: 255, green: 255, blue: 255)
            case .redGreen: RGB8(red: level.red > 0 ? 255 : 0, green: level.green > 0 ? 255 : 0, blue: 0)
            case .levels: RGB8(red: level.brightest, green: level.brightest, blue: level.brightest)
            case .rgb: level
            }
        }
    }

    /// What the glass shows at each position, read the same way from its dies (a PWM die's level is
    /// its brightness × 256).
    static func shown(_ glass: LEDGlass, dies: MatrixDies) -> [RGB8] {
        var shown = [RGB8](repeating: .off, count: glass.width * glass.height)
        for die in glass.leds where die.brightness > 0 {
            let index = die.y * glass.width + die.x
            let level = UInt8(min(255, (die.brightness * 256).rounded()))
            switch dies {
            case .onOff: shown[index] = RGB8(red: 255, green: 255, blue: 255)
            case .redGreen:
                if die.colour.red > 0 { shown[index].red = 255 }
                if die.colour.green > 0 { shown[index].green = 255 }
            case .levels: shown[index] = RGB8(red: level, green: level, blue: level)
            case .rgb:
                if die.colour.red > 0 { shown[index].red = level }
                if die.colour.green > 0 { shown[index].green = level }
                if die.colour.blue > 0 { shown[index].blue = level }
            }
        }
        return shown
    }

    /// The digits a segment glass shows, as segment sets (a 7-segment G as both halves).
    static func shownDigits(_ glass: LEDGlass) -> SegmentPicture {
        let names: [Segment: SegmentSet] = [
            .a: .a, .b: .b, .c: .c, .d: .d, .e: .e, .f: .f, .g: .g, .g1: .g1, .g2: .g2, .h: .h, .j: .j, .k: .k, .l: .l, .m: .m, .n: .n, .dp: .dp,
        ]
        let digits = glass.digits.map { digit in digit.lit.reduce(SegmentSet()) { $0.union(names[$1] ?? []) } }
        return SegmentPicture(digits: digits, colon: glass.digits.contains { $0.lit.contains(.colon) })
    }

    /// The digits a frame asks for, as a glass of `kind` can show them.
    static func wantedDigits(_ frame: MatrixFrame, kind: SegmentKind, colon: Bool) -> SegmentPicture {
        guard case .segments(let picture) = frame.content else { return SegmentPicture(count: 0) }
        let digits = picture.digits.map { digit -> SegmentSet in
            guard kind == .seven else { return digit }
            var seven = digit.subtracting(.g)
            if digit.hasMiddle { seven.formUnion(.g) }
            return seven
        }
        return SegmentPicture(digits: digits, colon: colon && picture.colon)
    }

    /// How many positions (or digits, and the colon) of `glass` do not show `frame` as the face's
    /// dies can: a number, so that a failure stays readable.
    static func differences(_ glass: LEDGlass, _ frame: MatrixFrame, face: MatrixFace) -> Int {
        switch face {
        case .pixels(_, _, let dies):
            let shown = shown(glass, dies: dies), wanted = wanted(frame, dies: dies)
            return zip(shown, wanted).filter { $0 != $1 }.count + abs(shown.count - wanted.count)
        case .segments(_, let kind, let colon):
            let shown = shownDigits(glass), wanted = wantedDigits(frame, kind: kind, colon: colon)
            return zip(shown.digits, wanted.digits).filter { $0 != $1 }.count + abs(shown.digits.count - wanted.digits.count) + (shown.colon == wanted.colon ? 0 : 1)
        }
    }
}

/// An I2C bus that passes every transaction on to another and keeps its messages.
final class RecordingI2CBus: I2CBus, Sendable {
    let inner: any I2CBus
    private let kept = Mutex<[[[UInt8]]]>([])
    /// Called after each transaction the inner bus took.
    let afterEach: @Sendable () -> Void

    init(_ inner: any I2CBus, afterEach: @escaping @Sendable () -> Void = {}) {
        self.inner = inner
        self.afterEach = afterEach
    }

    var name: String { inner.name }
    var maxMessageLength: Int { inner.maxMessageLength }

    func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError) {
        try inner.write(messages, to: address)
        kept.withLock { $0.append(messages) }
        afterEach()
    }

    /// The transactions since the last call, and forgets them.
    func take() -> [[[UInt8]]] {
        kept.withLock { kept in
            defer { kept = [] }
            return kept
        }
    }
}
