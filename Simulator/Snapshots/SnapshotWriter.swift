import HeadwayRender
import HeadwaySystem

/// Writes each device of a rig as picture files: `NAME.ppm` (LEDs), `NAME.pbm` (1-bit displays) or
/// `NAME.pgm` (greyscale displays), and `NAME.svg`.
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
        for chain in rig.chains {
            let light = chain.light
            written.append(try save(Netpbm.ppm(light), as: "\(chain.name).ppm"))
            let svg = chain.layout.isRing ? SVGPicture.ring(light) : SVGPicture.strip(light)
            written.append(try save(Array(svg.utf8), as: "\(chain.name).svg"))
        }
        for display in rig.displays {
            written += display.isGreyscale ? try write(display.glass, named: display.name) : try write(display.picture, named: display.name)
        }
        for lights in rig.lights {
            let light = lights.lit.map { $0 ? LinearColour(red: 1, green: 0.08, blue: 0.03) : LinearColour.black }
            written.append(try save(Netpbm.ppm(light), as: "\(lights.name).ppm"))
            written.append(try save(Array(SVGPicture.strip(light).utf8), as: "\(lights.name).svg"))
        }
        return written
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

    private func createDirectory() throws(SnapshotError) {
        do throws(SystemError) { try Folders.make(directory, mode: 0o777) } catch {
            throw SnapshotError(path: directory, reason: "cannot create the folder (\(error.text))")
        }
    }

    private func save(_ bytes: [UInt8], as name: String) throws(SnapshotError) -> String {
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
