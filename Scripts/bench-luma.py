#!/usr/bin/python3
"""luma.oled (Debian's python3-luma.oled) drawing the screen Headway's bar screen is — a label, a
percentage, the value ("14.4/120"), a bar and the time left — with PIL, behind luma's own no-op serial interface,
so the time is luma's drawing, diffing and packing alone. Prints microseconds per frame;
Scripts/bench-oled runs it beside headway-bench.

  bench-luma.py [ssd1306]   a 128x64 SSD1306: on/off pixels, the whole frame packed every time
  bench-luma.py ssd1327     a 128x128 SSD1327 in grey (RGB canvas, as luma's default mode): the
                            bar's track dim, its fill full; luma's default diff_to_previous
                            framebuffer packs only the changed cells' boxes into 4-bit pairs
  bench-luma.py st7789      a 320x240 ST7789 (Debian's python3-luma.lcd): the colour bar screen
                            in DejaVu Sans as Headway draws it, sent whole at 18 bits a pixel
  bench-luma.py ili9341     the same on a 320x240 ILI9341: luma's diff_to_previous (5 x 5 cells)
  bench-luma.py st7789|ili9341 FRAMES display
                            luma's display() alone: the frames drawn beforehand, then handed over
The job steps through 1000 values as headway-bench's does (frame % 1000)."""
import sys
import time
from luma.core.interface.serial import noop
from luma.core.render import canvas
from luma.oled.device import ssd1306, ssd1327

controller = sys.argv[1] if len(sys.argv) > 1 else "ssd1306"
frames = 2000
if controller in ("st7789", "ili9341"):
    from PIL import ImageFont
    from luma.lcd.device import st7789, ili9341
    class NoGPIO:
        """The backlight's GPIO, doing nothing (luma's devices ask RPi.GPIO for one otherwise)."""
        LOW, HIGH, OUT = 0, 1, 0
        def setup(self, *args, **kwargs): pass
        def output(self, *args, **kwargs): pass
        def cleanup(self, *args, **kwargs): pass
    kind = st7789 if controller == "st7789" else ili9341
    device = kind(noop(), width=320, height=240, gpio=NoGPIO())
    dejavu = "/usr/share/fonts/truetype/dejavu/"
    text, small = ImageFont.truetype(dejavu + "DejaVuSans.ttf", 24), ImageFont.truetype(dejavu + "DejaVuSans.ttf", 18)
    figures = ImageFont.truetype(dejavu + "DejaVuSans-Bold.ttf", 40)
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 300

    def draw(target, frame):
        fraction = (frame % 1000) / 1000
        target.text((12, 12), "Compiling 120 files", font=text, fill=(240, 240, 240))
        target.text((12, 62), f"{int(fraction * 100)}%", font=figures, fill=(240, 240, 240))
        target.text((240, 80), f"{fraction * 120:g}/120", font=small, fill=(240, 240, 240))
        target.rounded_rectangle((12, 134, 307, 166), radius=16, fill=(0x18, 0x18, 0x20))
        target.rounded_rectangle((14, 136, 14 + int(291 * fraction), 164), radius=14, fill=(0, 0xA0, 0xFF))
        target.text((12, 196), "ETA 42s", font=text, fill=(240, 240, 240))
    if len(sys.argv) > 3 and sys.argv[3] == "display":
        # display() alone: the same frames drawn first, then handed over one after another.
        from PIL import Image, ImageDraw
        images = []
        for frame in range(frames):
            image = Image.new(device.mode, device.size)
            draw(ImageDraw.Draw(image), frame)
            images.append(image)
        started = time.perf_counter()
        for image in images:
            device.display(image)
        print(f"luma.lcd: display() alone ({controller} 320x240): {(time.perf_counter() - started) / frames * 1e6:.1f} µs")
        sys.exit(0)
    started = time.perf_counter()
    for frame in range(frames):
        with canvas(device) as target:
            draw(target, frame)
    print(f"luma.lcd: draw + display one frame ({controller} 320x240): {(time.perf_counter() - started) / frames * 1e6:.1f} µs")
    sys.exit(0)
if controller == "ssd1306":
    device = ssd1306(noop(), width=128, height=64)
    track, fill = "white", "white"
elif controller == "ssd1327":
    device = ssd1327(noop(), width=128, height=128)
    track, fill = (77, 77, 77), "white"     # 0.3 of full light: grey level 4 of 15, as Headway's track
else:
    sys.exit(f"bench-luma.py: unknown controller {controller!r} (ssd1306 or ssd1327)")

started = time.perf_counter()
for frame in range(frames):
    fraction = (frame % 1000) / 1000
    with canvas(device) as draw:
        draw.text((0, 0), "Compiling 120 files", fill="white")
        draw.text((70, 15), f"{fraction * 120:g}/120", fill="white")
        draw.rectangle((0, 30, 127, 41), outline=track)
        draw.rectangle((2, 32, 2 + int(123 * fraction), 39), fill=fill)
        draw.text((0, 50), f"{int(fraction * 100)}%   42 s left", fill="white")
elapsed = time.perf_counter() - started
what = "draw + display one frame" if controller == "ssd1306" else "draw + display one greyscale frame (SSD1327 128x128)"
print(f"luma.oled: {what}: {elapsed / frames * 1e6:.1f} µs")
