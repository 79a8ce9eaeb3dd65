extension TFTModuleModel {
    /// The modules modelled, each with the vendor writes it is placed by. docs/tft-controllers.md
    /// lists the same facts in a table.
    public static let catalogue: [TFTModuleModel] = [
        displayHATMini, miniPiTFT114, miniPiTFT13, tftBonnet13, waveshare13, waveshare144,
        st7735rGreenTab, st7735rRedTab, st7735rBlackTab, st7735rMini160x80, st7735rMini160x80Plugin, st7735rGreenTab144,
        piTFT28,
    ]

    /// The module called `name`, if one is modelled.
    public static func named(_ name: String) -> TFTModuleModel? { catalogue.first { $0.name == name } }
}
