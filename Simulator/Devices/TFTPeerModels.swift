import HeadwayDevices

/// How the peers send a colour TFT's frame, costed in bytes on the wire on the same frames
/// Headway sends, each window costing its CASET, RASET and RAMWR (11 bytes) as the controllers
/// take them. From their published sources:
/// - **Pimoroni `st7789`** (pimoroni/st7789-python@2e0df28:st7789/__init__.py `display()`): the
///   whole window every frame, RGB565 (2 bytes a pixel), in 4,096-byte `xfer` chunks;
/// - **luma.lcd `st7789`** (Debian's python3-luma.lcd 2.10.0, luma/lcd/device.py `st7789.display()`):
///   the whole window every frame at 18 bits (COLMOD 06h: 3 bytes a pixel);
/// - **luma.lcd `diff_to_previous`** (the same file's `st7735` and `ili9341`, with
///   luma/core/framebuffer.py): the picture cut into a grid — 4 x 4 on the ST7735, 5 x 5 on the
///   ILI9341 — and each cell that changed sent as the box around its changes, 3 bytes a pixel;
///   luma asserts that the grid divides the picture, so it has no cost otherwise;
/// - **the kernel's `panel-mipi-dbi`** (torvalds/linux drivers/gpu/drm/drm_mipi_dbi.c
///   `mipi_dbi_fb_dirty`): the damage merged into one rectangle, RGB565;
/// - **the floor**: one window and the changed pixels alone.
public enum TFTPeerModel: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The whole window every frame, RGB565.
    case pimoroni = "Pimoroni st7789"
    /// The whole window every frame, 18 bits.
    case lumaFull = "luma.lcd st7789"
    /// The changed box of each grid cell, 18 bits.
    case lumaDiff = "luma.lcd diff_to_previous"
    /// One rectangle around every change, RGB565.
    case panelMipiDbi = "panel-mipi-dbi"

    public var description: String { rawValue }

    /// The grid luma.lcd's `diff_to_previous` cuts `family`'s pictures into (n x n), or nil where
    /// luma sends whole frames.
    public static func lumaGrid(_ family: TFTFamily) -> Int? {
        switch family {
        case .st7735: 4
        case .ili9341: 5
        case .st7789: nil
        }
    }

    /// Bytes on the wire this method sends to turn `old` into `new` (RGB565 pictures of the same
    /// size) on a `family` controller; nil where the method does not apply (luma's grid on an ST7789
    /// or a picture it does not divide); 0 for no change where the method sends nothing then.
    public func bytes(from old: ColourPicture, to new: ColourPicture, family: TFTFamily) -> Int? {
        let window = 11
        switch self {
        case .pimoroni: return window + new.width * new.height * 2
        case .lumaFull: return window + new.width * new.height * 3
        case .panelMipiDbi:
            return Self.changedBox(old, new, in: PixelRect(x: 0, y: 0, width: new.width, height: new.height)).map { window + $0.width * $0.height * 2 } ?? 0
        case .lumaDiff:
            guard let n = Self.lumaGrid(family), new.width % n == 0, new.height % n == 0 else { return nil }
            let (cellWidth, cellHeight) = (new.width / n, new.height / n)
            var total = 0
            for row in 0..<n {
                for column in 0..<n {
                    let cell = PixelRect(x: column * cellWidth, y: row * cellHeight, width: cellWidth, height: cellHeight)
                    if let box = Self.changedBox(old, new, in: cell) { total += window + box.width * box.height * 3 }
                }
            }
            return total
        }
    }

    /// One window and the changed pixels, RGB565.
    public static func floor(from old: ColourPicture, to new: ColourPicture) -> Int {
        let size = new.bytesPerPixel
        var changed = 0
        for index in stride(from: 0, to: new.bytes.count, by: size) where old.bytes[index..<(index + size)] != new.bytes[index..<(index + size)] {
            changed += 1
        }
        return changed == 0 ? 0 : 11 + changed * size
    }

    /// The box around the pixels of `area` that differ, nil when none do.
    static func changedBox(_ old: ColourPicture, _ new: ColourPicture, in area: PixelRect) -> PixelRect? {
        let size = new.bytesPerPixel, rowBytes = new.bytesPerRow
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        old.bytes.withUnsafeBufferPointer { old in
            new.bytes.withUnsafeBufferPointer { new in
                for y in area.y..<area.maxY {
                    let row = y * rowBytes
                    for x in area.x..<area.maxX {
                        let index = row + x * size
                        guard old[index] != new[index] || old[index + 1] != new[index + 1] || (size == 3 && old[index + 2] != new[index + 2]) else { continue }
                        minX = min(minX, x)
                        maxX = max(maxX, x)
                        minY = min(minY, y)
                        maxY = max(maxY, y)
                    }
                }
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
