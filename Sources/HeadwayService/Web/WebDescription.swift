import Headway
import HeadwayProtocol

/// What the page is told of outputs and of the configuration: each output's last frame as its
/// driver took it (pixels and LED levels as bytes, with a text equivalent for screen readers),
/// and the configuration in force without its secrets.
enum WebDescription {
    /// `text` line by line through the filter for outside text.
    static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.sanitised(String($0)) }.joined(separator: "\n")
    }

    /// An output as the page shows it: what it is and what it says (`description`: `kind`, its
    /// geometry, `text`, a failure), and the bytes of its last frame as the driver took it (`data`:
    /// a picture's pixels, LED levels), sent whole to a new page and as a ``ByteDelta`` after.
    struct Output: Equatable {
        var description: JSONValue
        var data: [UInt8]?
    }

    /// An output's last frame: `kind` (leds, picture, lights, segments), its geometry, its data, and
    /// `text` — words that change with what is shown, not with each frame of an animation.
    static func output(_ output: ServiceOutput) -> Output {
        let frame = output.indicatorOutput.shown?.current ?? ShownFrame()
        var members: [(String, JSONValue)] = [("name", .string(DisplayText.sanitised(output.name)))]
        if let failure = frame.failure { members.append(("failure", .string(DisplayText.sanitised(failure)))) }
        var data: [UInt8]?
        switch (output.medium, frame.content) {
        case (.leds(let chain), let content):
            let levels: [RGB8]
            if case .leds(let shown)? = content { levels = shown } else { levels = Array(repeating: .off, count: chain.count) }
            members += [("kind", .string("leds")), ("layout", .string(chain.layout.isRing ? "ring" : "strip")), ("count", .number(Double(levels.count)))]
            data = levels.flatMap { [$0.red, $0.green, $0.blue] }
            let lit = levels.filter { $0 != .off }
            var text = "\(chain.layout.isRing ? "LED ring" : "LED strip") of \(levels.count): \(lit.count) lit"
            if let brightest = lit.max(by: { Int($0.red) + Int($0.green) + Int($0.blue) < Int($1.red) + Int($1.green) + Int($1.blue) }) {
                text += ", brightest \(colourName(brightest))"
            }
            members.append(("text", .string(text)))
        case (.display(let display), let content):
            members += [("kind", .string("picture")), ("width", .number(Double(display.device.width))), ("height", .number(Double(display.device.height)))]
            guard case .picture(let picture, let brightness, let lit)? = content else {
                members += [("format", .string("mono")), ("lit", .bool(false)), ("text", .string("display, nothing drawn yet"))]
                break
            }
            let format: String
            switch picture {
            case .bitmap: format = "mono"
            case .greymap: format = "grey4"
            case .colour(let colour): format = colour.format == .rgb565 ? "rgb565" : "rgb666"
            }
            members += [("format", .string(format)), ("brightness", .number((brightness * 100).rounded() / 100)), ("lit", .bool(lit))]
            data = picture.bytes
            let text = lit
                ? "\(picture.width)×\(picture.height) display at \(Int((brightness * 100).rounded())) % brightness"
                : "\(picture.width)×\(picture.height) display, panel off"
            members.append(("text", .string(text)))
        case (.lights(let lights), let content) where lights.isOneRGBLED:
            // One LED of the colour its lines make, as the glass of the simulator shows it.
            var lines = [false, false, false]
            if case .lights(let shown)? = content, shown.count == 3 { lines = shown }
            let led = RGB8(red: lines[0] ? 255 : 0, green: lines[1] ? 255 : 0, blue: lines[2] ? 255 : 0)
            members += [("kind", .string("leds")), ("layout", .string("strip")), ("count", .number(1))]
            data = [led.red, led.green, led.blue]
            members.append(("text", .string("RGB LED: \(led == .off ? "off" : colourName(led))")))
        case (.lights(let lights), let content):
            var levels = Array(repeating: false, count: lights.device.count)
            if case .lights(let shown)? = content { levels = shown }
            members += [("kind", .string("lights")), ("count", .number(Double(levels.count))), ("on", .array(levels.map { .bool($0) }))]
            members.append(("text", .string("\(levels.count) GPIO LEDs: \(levels.filter { $0 }.count) on")))
        case (.matrix(let matrix), let content):
            var frame: MatrixFrame?
            if case .matrix(let shown)? = content { frame = shown }
            let (described, levels) = matrixMembers(matrix.device.face, frame)
            members += described
            data = levels
        }
        return Output(description: .object(members), data: data)
    }

    /// A matrix as a picture of its positions' levels (`rgb8`, and those levels as its data), a
    /// segment display as its digits' segment bits (SegmentSet's order) with the text they read.
    static func matrixMembers(_ face: MatrixFace, _ frame: MatrixFrame?) -> ([(String, JSONValue)], [UInt8]?) {
        let blinks = frame.map { $0.blink != .steady } ?? false
        switch face {
        case .pixels(let width, let height, _):
            var levels = MatrixLevels(width: width, height: height)
            if case .pixels(let shown)? = frame?.content { levels = shown }
            let lit = levels.levels.filter { $0 != .off }.count
            let members: [(String, JSONValue)] = [
                ("kind", .string("picture")), ("format", .string("rgb8")), ("width", .number(Double(width))), ("height", .number(Double(height))),
                ("lit", .bool(true)), ("text", .string("\(width)×\(height) LED matrix: \(lit) lit\(blinks ? ", blinking" : "")")),
            ]
            return (members, levels.levels.flatMap { [$0.red, $0.green, $0.blue] })
        case .segments(let count, let kind, let colon):
            var picture = SegmentPicture(count: count)
            if case .segments(let shown)? = frame?.content { picture = shown }
            let reads = SegmentFont.text(of: picture, kind: kind)
            let members: [(String, JSONValue)] = [
                ("kind", .string("segments")), ("segments", .string(kind == .seven ? "seven" : "fourteen")), ("count", .number(Double(count))),
                ("digits", .array(picture.digits.map { .number(Double($0.rawValue)) })), ("colon", .bool(colon && picture.colon)),
                ("text", .string("\(count)-digit display: \(reads.isEmpty ? "dark" : "reads \(reads)")\(blinks ? ", blinking" : "")")),
            ]
            return (members, nil)
        }
    }

    /// A colour as people say it, roughly: the strongest channels of an LED's levels (not the levels
    /// themselves, which an animation changes with every frame).
    static func colourName(_ level: RGB8) -> String {
        let channels = [("red", level.red), ("green", level.green), ("blue", level.blue)]
        let top = channels.map(\.1).max() ?? 0
        let strong = channels.filter { $0.1 >= top / 2 && $0.1 > 0 }.map(\.0)
        switch Set(strong) {
        case ["red", "green", "blue"]: return "white"
        case ["red", "green"]: return "yellow"
        case ["green", "blue"]: return "cyan"
        case ["red", "blue"]: return "magenta"
        default: return strong.first ?? "off"
        }
    }

    /// The configuration in force, as a person reads it, without secrets: a password or token
    /// is said to be set, never shown; notification URLs show their host only.
    static func configuration(_ configuration: ServiceConfiguration) -> String {
        var lines = ["source: \(configuration.source)"]
        if let board = configuration.board { lines.append("board: \(board.title)") }
        if !configuration.hats.isEmpty { lines.append("hats: \(configuration.hats.joined(separator: ", "))") }
        lines.append("outputs:")
        for output in configuration.outputs {
            var line = "  - \(output.name): \(output.device.driver)"
            if let count = output.device.ledCount { line += ", \(count) LEDs" }
            line += ", up to \(Int(output.framesPerSecond ?? output.device.framesPerSecond)) frames/s"
            if let hat = output.hat { line += " (from \(hat))" }
            lines.append(line)
        }
        if !configuration.buttons.isEmpty {
            lines.append("buttons: " + configuration.buttons.map { "\($0.chip) line \($0.line)" }.joined(separator: ", "))
        }
        lines.append("focus: \(configuration.focus.rawValue); brightness \(Int((configuration.appearance.brightness * 100).rounded())) %")
        if let quiet = configuration.quietHours { lines.append("quiet hours: \(quiet.from)–\(quiet.to)") }
        if !configuration.watchedUnits.isEmpty { lines.append("watched units: \(configuration.watchedUnits.joined(separator: ", "))") }
        if let web = configuration.web {
            var access: [String] = []
            if web.passwordHash != nil { access.append("password set (hashed)") }
            if web.token != nil { access.append("token set") }
            if access.isEmpty { access.append("no login (this machine only)") }
            lines.append("web: \(web.address):\(web.port), \(access.joined(separator: ", ")), TLS \(web.certificate != nil ? "on" : "off"), metrics \(web.metrics.rawValue)")
        }
        for rule in configuration.notifications {
            let target: String
            switch rule.target {
            case .webhook(let url): target = "webhook to " + host(of: url)
            case .ntfy(let url): target = "ntfy on " + host(of: url)
            }
            lines.append("notify: jobs \(rule.jobs) on \(rule.events.map(\.rawValue).sorted().joined(separator: ", ")): \(target)")
        }
        return Self.lines(lines.joined(separator: "\n"))
    }

    /// `https://host:port/secret/path` → `host:port` (a topic or a hook's path is as good as a token).
    static func host(of url: String) -> String {
        let rest = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return rest.count > 2 ? String(rest[2].split(separator: "@").last ?? "") : url
    }
}
