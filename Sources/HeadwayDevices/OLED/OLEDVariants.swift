import HeadwayCore

/// The table: each controller's row. Sources per fact are in docs/oled-controllers.md; each
/// initialisation follows its datasheet's recommended sequence and the module makers' values.
extension OLEDController {
    /// The controller's row of the table.
    package var variant: OLEDVariant {
        switch self {
        case .ssd1306: Self.ssd1306Row
        case .sh1106: Self.sh1106Row
        case .ssd1309: Self.ssd1309Row
        case .ssd1305: Self.ssd1305Row
        case .ssd1315: Self.ssd1315Row
        case .sh1107: Self.sh1107Row
        case .ssd1327: Self.ssd1327Row
        }
    }

}
