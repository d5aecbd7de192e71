/// How the yolk should come out: the temperature the boundary between yolk and white must reach.
public enum Doneness: String, CaseIterable, Sendable, Hashable {
    /// A runny yolk: 63 °C.
    case soft
    /// A jammy yolk: 70 °C.
    case medium
    /// A firm yolk: 77 °C.
    case hard

    /// The name as the egg menu shows it (the names of `Preset.eggs`): `Soft`, `Medium`, `Hard`.
    public var name: String {
        switch self {
        case .soft: "Soft"
        case .medium: "Medium"
        case .hard: "Hard"
        }
    }

    /// The target temperature at the yolk's edge, in °C: 63, 70 or 77.
    public var yolkCelsius: Double {
        switch self {
        case .soft: 63
        case .medium: 70
        case .hard: 77
        }
    }
}
