import HeadwayDevices
import HeadwayRender
import Synchronization

/// A simulated monochrome display: keeps the picture it shows and counts what it was sent.
public final class VirtualDisplay: MonochromeDisplayDevice {
    public let name: String
    public let width: Int
    public let height: Int
    private let state: Mutex<(picture: Bitmap, frames: Int, damagedBytes: Int)>

    public init(name: String, width: Int, height: Int) {
        self.name = name
        self.width = width
        self.height = height
        state = Mutex((Bitmap(width: width, height: height), 0, 0))
    }

    public func show(_ bitmap: Bitmap) throws(DeviceError) {
        guard bitmap.width == width, bitmap.height == height else {
            throw DeviceError(.unsupported, "\(name) is \(width)x\(height) but was sent \(bitmap.width)x\(bitmap.height)")
        }
        // Only the damaged part is taken over, as a driver sending only that would; anything the
        // caller forgot to mark stays stale here and shows up in tests.
        state.withLock { state in
            guard let damage = bitmap.damage else { return }
            var picture = state.picture
            for y in damage.y..<damage.maxY {
                for x in damage.x..<damage.maxX { picture[x, y] = bitmap[x, y] }
            }
            picture.clearDamage()
            let firstPage = damage.y / 8, lastPage = (damage.maxY - 1) / 8
            state = (picture, state.frames + 1, state.damagedBytes + (lastPage - firstPage + 1) * damage.width)
        }
    }

    /// What the display shows now.
    public var picture: Bitmap { state.withLock { $0.picture } }
    public var framesReceived: Int { state.withLock { $0.frames } }
    /// Bytes a page-addressed controller would have been sent for the damaged areas, in all.
    public var damagedBytes: Int { state.withLock { $0.damagedBytes } }
}
