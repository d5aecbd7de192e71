import TimerCore
import TimerText

// Egg times by physics (issue 14): `--size`, `--weight`, `--from`, `--altitude`, `--water` switch
// the three presets from their fixed times to the time Williams' formula computes
// (TimerCore's BoiledEgg). A preset time given explicitly (`--soft 6m`, or `soft = 6m` in the
// config file) wins over the computed one.

extension Options {
    /// How the eggs are, as given; nil where not given (then BoiledEgg's defaults: size M, from
    /// the fridge, at sea level).
    struct EggSettings: Equatable, Sendable {
        var size: EggSize?
        var grams: Double?
        /// `--from` as given; resolved with ``fridgeCelsius`` when the times are computed.
        var from: String?
        /// `--fridge-temperature`: what "from the fridge" means (default 4 °C).
        var fridgeCelsius: Double?
        var altitude: String?
        var water: String?
        /// The settings that came from the config file: one given on the command line replaces
        /// the file's counterpart (`--size` its `weight`, `--water` its `altitude`, and back).
        var fromFile: Set<String> = []

        /// Notes that `field` was set from `source`, and drops `counterpart` when this is the
        /// command line overriding the file's value.
        mutating func set(_ field: String, from source: ValueSource, replacing counterpart: String?) {
            if case .key = source {
                fromFile.insert(field)
                return
            }
            fromFile.remove(field)
            guard let counterpart, fromFile.contains(counterpart) else { return }
            fromFile.remove(counterpart)
            switch counterpart {
            case "size": size = nil
            case "weight": grams = nil
            case "altitude": altitude = nil
            case "water": water = nil
            default: break
            }
        }

        /// Whether any egg option was given.
        var isEmpty: Bool { size == nil && grams == nil && from == nil && altitude == nil && water == nil }
    }

    /// The egg options, in `--help` order (group: the egg times).
    static let eggSpecs: [Spec] = [
        Spec(
            names: ["--size"], argument: "S|M|L|XL", group: .presets,
            help: "compute the egg times for this EU size (S 48 g, M 58 g, L 68 g, XL 78 g)", fits: Scope.eggs,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in
            options.eggs.size = try parsed(name) { () throws(EggValueParseError) in try EggValueParser.size(value) }
            options.eggs.set("size", from: name, replacing: "weight")
        },
        Spec(
            names: ["--weight"], argument: "GRAMS", group: .presets,
            help: "compute the egg times for this weight (62g)", fits: Scope.eggs,
            inConfigFile: true
        ) { options, name, value throws(UsageError) in
            options.eggs.grams = try parsed(name) { () throws(EggValueParseError) in try EggValueParser.weight(value) }
            options.eggs.set("weight", from: name, replacing: "size")
        },
        keptEggSpec(
            "from", "WHERE", help: "the eggs start at fridge (4 C), room (20 C) or a temperature (12C)",
            replacing: nil, check: { value throws(EggValueParseError) in _ = try EggValueParser.start(value) },
            keep: { eggs, value in eggs.from = value }
        ),
        Spec(
            names: ["--fridge-temperature"], argument: "TEMP", group: .presets,
            help: "what 'from the fridge' means (default 4C)", fits: Scope.eggs, inConfigFile: true
        ) { options, name, value throws(UsageError) in
            options.eggs.fridgeCelsius = try parsed(name) { () throws(EggValueParseError) in
                try EggValueParser.fridgeTemperature(value)
            }
        },
        keptEggSpec(
            "altitude", "METRES", help: "the kitchen's altitude (1500m): water boils cooler up there",
            replacing: "water", check: { value throws(EggValueParseError) in _ = try EggValueParser.altitude(value) },
            keep: { eggs, value in eggs.altitude = value }
        ),
        keptEggSpec(
            "water", "TEMP", help: "the boiling water's temperature (95C) instead of --altitude",
            replacing: "altitude", check: { value throws(EggValueParseError) in _ = try EggValueParser.water(value) },
            keep: { eggs, value in eggs.water = value }
        ),
    ]

    /// An egg option whose text is checked at once but kept as given, since what it means is
    /// worked out with the other settings when the times are computed (`--from` with the fridge
    /// temperature; `--altitude` or `--water`, one replacing the config file's other).
    private static func keptEggSpec(
        _ name: String, _ argument: String, help: String, replacing counterpart: String?,
        check: @escaping @Sendable (String) throws(EggValueParseError) -> Void,
        keep: @escaping @Sendable (inout EggSettings, String) -> Void
    ) -> Spec {
        Spec(
            names: ["--" + name], argument: argument, group: .presets, help: help, fits: Scope.eggs, inConfigFile: true
        ) {
            options, source, value throws(UsageError) in
            try parsed(source) { () throws(EggValueParseError) in try check(value) }
            keep(&options.eggs, value)
            options.eggs.set(name, from: source, replacing: counterpart)
        }
    }

    /// Runs an egg value parser, turning its error into a usage error naming the option or key.
    private static func parsed<T>(_ name: ValueSource, _ parse: () throws(EggValueParseError) -> T) throws(UsageError)
        -> T
    {
        do { return try parse() } catch { throw name.error(because: error.description) }
    }

    /// Replaces the preset times not given explicitly with the computed ones, when any egg option
    /// was given, and records how each was computed (``presetBasis``).
    /// - Throws: `UsageError` when the eggs and water have no answer (an egg warmer than the yolk
    ///   target allows, water boiling below it) or `--altitude` and `--water` were both given.
    ///
    /// Only the eggs this run can boil are computed: the one named (`eggtimer soft`), or all three
    /// for the menu; a plain countdown or a pomodoro ignores the egg settings (of the config file).
    mutating func computeEggTimes() throws(UsageError) {
        let wanted: [Int]
        switch command {
        case .preset(let index): wanted = [index]
        case .menu: wanted = Array(presets.indices)
        default: return
        }
        guard !eggs.isEmpty else { return }
        let water: BoiledEgg.Water
        let start: BoiledEgg.Start
        do {
            water = try EggValueParser.water(altitude: eggs.altitude, water: eggs.water) ?? .seaLevel
            let fridge = eggs.fridgeCelsius ?? BoiledEgg.Start.fridgeCelsius
            if let from = eggs.from {
                start = try EggValueParser.start(from, fridgeCelsius: fridge)
            } else {
                start = BoiledEgg.Start(place: .fridge, celsius: fridge)
            }
        } catch {
            throw eggError(error.description)
        }
        let weight: BoiledEgg.Weight = eggs.grams.map { .grams($0) } ?? .size(eggs.size ?? .medium)
        for (index, doneness) in Doneness.allCases.enumerated()
        where wanted.contains(index) && index < presets.count && !explicitPresets[index] {
            do {
                let timing = try BoiledEgg(doneness, weight: weight, start: start, water: water).timing()
                presets[index].duration = timing.duration
                presetBasis[index] = timing.basis
            } catch {
                throw eggError(error.description)
            }
        }
    }

    /// An egg setting with no answer as a usage error, naming the config file's egg keys when
    /// some came from there (the command line alone does not explain it then).
    private func eggError(_ description: String) -> UsageError {
        guard !eggs.fromFile.isEmpty else { return UsageError(description: description) }
        return UsageError(
            description: description
                + " (egg settings of the config file: \(eggs.fromFile.sorted().joined(separator: ", ")))")
    }
}
