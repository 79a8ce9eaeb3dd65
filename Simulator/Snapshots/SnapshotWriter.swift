import HeadwayRender
import HeadwaySystem

/// Writes each device of a rig as picture files: `NAME.ppm` (LEDs, LED matrices and segment
/// displays), `NAME.pbm` (1-bit displays) or `NAME.pgm` (greyscale displays), and `NAME.svg`; a
/// colour TFT's glass as `NAME.ppm` and `NAME.png`.
public struct SnapshotWriter {
    /// The folder written into.
    public let directory: String

    /// A writer into `directory` (which must exist).
    public init(directory: String) { self.directory = directory }

    /// Writes every device's current picture; returns the paths written.
    @discardableResult
    public func write(_ rig: SimulatorRig) throws -> [String] {
        try createDirectory()
        var written: [String] = []
        for device in rig.devices { written += try write(device) }
        return written
    }

    /// Writes one device's current picture; returns the paths written.
    @discardableResult
    public func write(_ device: RigDevice) throws -> [String] {
        switch device.view {
        case .panel(let panel): return try write(panel.panelPicture, named: device.name)
        case .matrix(let glass): return try write(glass(), named: device.name)
        case .leds(_, let layout):
            let light = device.light
            let svg = layout.isRing ? SVGPicture.ring(light) : SVGPicture.strip(light)
            return [try save(Netpbm.ppm(light), as: "\(device.name).ppm"), try save(Array(svg.utf8), as: "\(device.name).svg")]
        case .lamps:
            let light = device.light
            return [try save(Netpbm.ppm(light), as: "\(device.name).ppm"), try save(Array(SVGPicture.strip(light).utf8), as: "\(device.name).svg")]
        }
    }

    /// Writes a panel's picture at its depth (`NAME.pbm` or `NAME.pgm`, and `NAME.svg`; a colour
    /// glass as `NAME.ppm` and `NAME.png`).
    @discardableResult
    public func write(_ picture: PanelPicture, named name: String) throws -> [String] {
        switch picture {
        case .mono(let bitmap): try write(bitmap, named: name)
        case .grey(let greymap): try write(greymap, named: name)
        case .colour(let glass): try write(glass, named: name)
        }
    }

    /// Writes one display picture as `NAME.pbm` and `NAME.svg`; returns the paths written.
    @discardableResult
    public func write(_ picture: Bitmap, named name: String) throws -> [String] {
        try createDirectory()
        return [
            try save(Netpbm.pbm(picture), as: "\(name).pbm"),
            try save(Array(SVGPicture.display(picture).utf8), as: "\(name).svg"),
        ]
    }

    /// Writes one greyscale display picture as `NAME.pgm` and `NAME.svg`; returns the paths written.
    @discardableResult
    public func write(_ glass: Greymap, named name: String) throws -> [String] {
        try createDirectory()
        return [
            try save(Netpbm.pgm(glass), as: "\(name).pgm"),
            try save(Array(SVGPicture.display(glass).utf8), as: "\(name).svg"),
        ]
    }

    /// Writes one TFT glass as `NAME.ppm` and `NAME.png`; returns the paths written.
    @discardableResult
    public func write(_ glass: TFTGlass, named name: String) throws -> [String] {
        try createDirectory()
        return [
            try save(Netpbm.ppm(glass), as: "\(name).ppm"),
            try save(PNGPicture.png(glass), as: "\(name).png"),
        ]
    }

    func createDirectory() throws(SnapshotError) {
        do throws(SystemError) { try Folders.make(directory, mode: 0o777) } catch {
            throw SnapshotError(path: directory, reason: "cannot create the folder (\(error.text))")
        }
    }

    func save(_ bytes: [UInt8], as name: String) throws(SnapshotError) -> String {
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        do throws(SystemError) { try Files.write(path, bytes) } catch {
            throw SnapshotError(path: path, reason: "cannot write the file (\(error.text))")
        }
        return path
    }
}

/// A snapshot file could not be written.
public struct SnapshotError: Error, CustomStringConvertible {
    /// The file that could not be written.
    public let path: String
    /// Why not.
    public let reason: String
    public var description: String { "\(path): \(reason); choose a folder you can write to with --snapshot / --out" }
}
