import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// Every module as sold, initialised and drawn by hand from the datasheets, over I2C and SPI:
/// the glass shows the picture upright and the chip finds nothing to complain about.
@Suite("Virtual OLED modules")
struct OLEDChipModuleTests {
    static let cases = OLEDModuleScript.all.flatMap { script in OLEDChipTestBench.Bus.allCases.map { (script, $0) } }

    @Test(arguments: cases)
    func handWrittenStreamShowsThePictureUpright(_ script: OLEDModuleScript, _ bus: OLEDChipTestBench.Bus) throws {
        let bench = try script.bench(on: bus)
        let picture = OLEDTestPicture.marks(width: script.width, height: script.height)
        try script.write(picture, bench)
        #expect(bench.chip.protocolErrors.isEmpty, "\(bench.chip.protocolErrors)")
        #expect(bench.chip.picture == picture)
        #expect(bench.chip.glass == Greymap(picture))
        #expect(bench.chip.isDisplayOn && bench.chip.isLit)
    }

    @Test func everyModuleOfTheCatalogueIsScriptedAndFullyBonded() {
        for controller in OLEDController.allCases {
            let sizes = VirtualOLED.sizes(of: controller)
            #expect(!sizes.isEmpty, "\(controller.rawValue) has no module")
            for size in sizes {
                let module = OLEDModuleModel.module(controller: controller, width: size.width, height: size.height)!
                #expect(module.panel.isFullyBonded, "\(module.name)")
                #expect(OLEDModuleScript.all.contains { $0.controller == controller && $0.width == size.width && $0.height == size.height })
            }
        }
    }

    @Test func theSizesAreTheModulesAsSold() {
        func sizes(_ controller: OLEDController) -> [String] { VirtualOLED.sizes(of: controller).map { "\($0.width)x\($0.height)" } }
        #expect(sizes(.ssd1306) == ["128x64", "128x32", "64x48"])
        #expect(sizes(.sh1106) == ["128x64"])
        #expect(sizes(.ssd1309) == ["128x64"])
        #expect(sizes(.ssd1305) == ["128x32", "128x64"])
        #expect(sizes(.ssd1315) == ["128x64"])
        #expect(sizes(.sh1107) == ["128x128", "64x128"])
        #expect(sizes(.ssd1327) == ["128x128", "96x96"])
    }

    @Test func aSizeNotSoldIsAProtocolErrorNotACrash() {
        let chip = VirtualOLED(controller: .sh1107, width: 128, height: 64)
        #expect(chip.protocolErrors == ["no sh1107 module of 128x64 is modelled (there are: 128x128, 64x128)"])
        #expect(chip.glass.width == 128 && chip.glass.height == 64)
    }

    @Test func onlyTheSSD1327IsGreyscale() {
        for controller in OLEDController.allCases {
            let size = VirtualOLED.sizes(of: controller)[0]
            let chip = VirtualOLED(controller: controller, width: size.width, height: size.height)
            #expect(chip.isGreyscale == (controller == .ssd1327))
            #expect((chip.greyTable != nil) == (controller == .ssd1327))
        }
    }
}
