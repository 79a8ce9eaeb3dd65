#!/usr/bin/python3
"""luma.oled (Debian's python3-luma.oled) drawing the kind of screen Headway's bar screen is — a
label, a bar, a percentage and the time left — with PIL on a 128x64 SSD1306 behind luma's own
no-op serial interface, so the time is luma's drawing and packing alone. Prints microseconds per
frame; Scripts/bench-oled runs it beside headway-bench."""
import time
from luma.core.interface.serial import noop
from luma.core.render import canvas
from luma.oled.device import ssd1306

device = ssd1306(noop(), width=128, height=64)
frames = 2000
started = time.perf_counter()
for frame in range(frames):
    fraction = (frame % 1000) / 1000
    with canvas(device) as draw:
        draw.text((0, 0), "Compiling 120 files", fill="white")
        draw.rectangle((0, 30, 127, 41), outline="white")
        draw.rectangle((2, 32, 2 + int(123 * fraction), 39), fill="white")
        draw.text((0, 50), f"{int(fraction * 100)}%   42 s left", fill="white")
elapsed = time.perf_counter() - started
print(f"luma.oled: draw + display one frame: {elapsed / frames * 1e6:.1f} µs")
