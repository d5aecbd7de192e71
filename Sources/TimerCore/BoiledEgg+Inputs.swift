extension BoiledEgg {
    /// An egg's weight: a size class (its midpoint, `EggSize.grams`) or grams as weighed.
    public enum Weight: Sendable, Hashable {
        /// An EU size class.
        case size(EggSize)
        /// A mass in grams.
        case grams(Double)

        /// The mass in grams.
        public var grams: Double {
            switch self {
            case .size(let size): size.grams
            case .grams(let grams): grams
            }
        }

        /// `58 g` or `68 g (size L)`.
        var text: String {
            switch self {
            case .size(let size): "\(size.grams.eggText) g (size \(size.letters))"
            case .grams(let grams): "\(grams.eggText) g"
            }
        }
    }

    /// Where the egg starts, with its temperature in °C.
    public struct Start: Sendable, Hashable {
        /// Where the temperature comes from; it only changes the wording of the basis.
        public enum Place: Sendable, Hashable {
            /// Out of the fridge.
            case fridge
            /// At room temperature.
            case room
            /// A temperature the user gave.
            case given
        }

        /// Where the egg comes from.
        public var place: Place
        /// Its temperature, in °C.
        public var celsius: Double

        /// Creates a start; `celsius` is checked when the time is computed.
        public init(place: Place, celsius: Double) { (self.place, self.celsius) = (place, celsius) }

        /// A fridge's usual temperature, in °C: 4.
        public static let fridgeCelsius = 4.0
        /// A kitchen's usual temperature, in °C: 20.
        public static let roomCelsius = 20.0
        /// Straight from a fridge at 4 °C.
        public static let fridge = Start(place: .fridge, celsius: fridgeCelsius)
        /// At a room temperature of 20 °C.
        public static let room = Start(place: .room, celsius: roomCelsius)
        /// At `celsius` °C, as the user gave it.
        public static func given(celsius: Double) -> Start { Start(place: .given, celsius: celsius) }

        /// `from the fridge`, `from the fridge (6 °C)`, `from room temperature`, `from 12 °C`.
        var text: String {
            switch place {
            case .fridge: celsius == Self.fridgeCelsius ? "from the fridge" : "from the fridge (\(celsius.eggText) °C)"
            case .room:
                celsius == Self.roomCelsius ? "from room temperature" : "from room temperature (\(celsius.eggText) °C)"
            case .given: "from \(celsius.eggText) °C"
            }
        }
    }

    /// The water the egg boils in.
    public enum Water: Sendable, Hashable {
        /// Boiling at this altitude, in metres above sea level (`EggPhysics.boilingPoint(altitudeMetres:)`).
        case altitude(metres: Double)
        /// Held at this temperature, in °C.
        case celsius(Double)

        /// Boiling at sea level (about 100 °C).
        public static let seaLevel = Water.altitude(metres: 0)

        /// `at sea level`, `at 1500 m (boiling at 95 °C)`, `in water at 95 °C`.
        func text(boilingAt celsius: Double) -> String {
            switch self {
            case .altitude(let metres) where metres == 0: "at sea level"
            case .altitude(let metres): "at \(metres.eggText) m (boiling at \(celsius.eggText) °C)"
            case .celsius(let given): "in water at \(given.eggText) °C"
            }
        }
    }
}
