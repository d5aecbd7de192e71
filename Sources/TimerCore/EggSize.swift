/// An EU egg weight class (Regulation (EC) No 589/2008), standing for the middle of its range.
///
/// The classes are S under 53 g, M 53–63 g, L 63–73 g and XL 73 g and over. M and L are 10 g wide,
/// so their midpoints are 58 g and 68 g. S and XL have one open end; they are taken as 10 g wide too
/// (43–53 g and 73–83 g), which puts every class 10 g from its neighbours: S 48 g, XL 78 g.
public enum EggSize: String, CaseIterable, Sendable, Hashable {
    /// S, under 53 g: 48 g.
    case small = "S"
    /// M, 53–63 g: 58 g.
    case medium = "M"
    /// L, 63–73 g: 68 g.
    case large = "L"
    /// XL, 73 g and over: 78 g.
    case extraLarge = "XL"

    /// The letters as printed on the box: `S`, `M`, `L`, `XL`.
    public var letters: String { rawValue }

    /// The weight this class stands for, in grams: 48, 58, 68 or 78.
    public var grams: Double {
        switch self {
        case .small: 48
        case .medium: 58
        case .large: 68
        case .extraLarge: 78
        }
    }
}
