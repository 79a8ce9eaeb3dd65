/// Which IS31FL3731 LEDs (n = 16·(x − 1) + (y − 1) for Cx-y) are the red, green and blue dies of
/// each of the LED SHIM's 28 pixels, left to right.
///
/// pimoroni/led-shim@e1adf3e `ledshim/is31fl3731.py` (`LEDSHIM._pixel_addr`) and
/// adafruit/Adafruit_CircuitPython_IS31FL3731@2ae915b `led_shim.py` (`LedShim.pixel_addr`, y = 0
/// red, 1 green, 2 blue) give the same 84 LEDs; they are the 84 bits set in Pimoroni's enable
/// pattern for the LED control registers.
enum LEDSHIMWiring {
    static let leds: [(red: Int, green: Int, blue: Int)] = [
        (118, 69, 85), (117, 68, 101), (116, 84, 100), (115, 83, 99),
        (114, 82, 98), (113, 81, 97), (112, 80, 96), (134, 21, 37),
        (133, 20, 36), (132, 19, 35), (131, 18, 34), (130, 17, 50),
        (129, 33, 49), (128, 32, 48), (127, 47, 63), (121, 41, 57),
        (122, 25, 58), (123, 26, 42), (124, 27, 43), (125, 28, 44),
        (126, 29, 45), (15, 95, 111), (8, 89, 105), (9, 90, 106),
        (10, 91, 107), (11, 92, 108), (12, 76, 109), (13, 77, 93),
    ]
}
