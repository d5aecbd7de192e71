/// Durations and numbers in words.
extension Phrasebook {
    /// A duration in words: hours, minutes and seconds, singular or plural, zero parts left out.
    ///
    /// "one minute", "five minutes", "forty seconds", "one hour twenty minutes", "two hours one
    /// second"; with minutes and seconds only, the seconds' unit is left out as people say it:
    /// "three minutes forty". German: "eine Minute", "fünf Minuten", "drei Minuten vierzig", "eine
    /// Stunde zwanzig Minuten". Zero is "zero seconds" / "null Sekunden". Negative durations speak
    /// as zero.
    /// - Parameters:
    ///   - duration: The duration; its fraction of a second is dropped, or counted as a whole
    ///     second with `roundingUp`.
    ///   - roundingUp: Whether a fraction of a second counts as one more second.
    /// - Returns: The words, lowercased (to follow a comma or a colon).
    public func spoken(_ duration: Duration, roundingUp: Bool = false) -> String {
        let (wholeSeconds, attoseconds) = duration.components
        var total = max(0, wholeSeconds)
        if roundingUp, wholeSeconds >= 0, attoseconds > 0, total < Int64.max { total += 1 }
        let (hours, minutes, seconds) = (total / 3_600, total / 60 % 60, total % 60)
        var parts: [String] = []
        if hours > 0 { parts.append(count(hours, .hour)) }
        if minutes > 0 { parts.append(count(minutes, .minute)) }
        if seconds > 0 || parts.isEmpty {
            // "three minutes forty": the seconds need no unit right after minutes alone.
            parts.append(hours == 0 && minutes > 0 ? number(seconds) : count(seconds, .second))
        }
        return parts.joined(separator: " ")
    }

    /// A unit of time to count.
    enum TimeUnit {
        case hour, minute, second
    }

    /// `value` and `unit` in words: "one minute", "zwei Stunden", "eine Sekunde".
    func count(_ value: Int64, _ unit: TimeUnit) -> String {
        let nouns: (one: String, many: String) =
            switch (language, unit) {
            case (.english, .hour): ("hour", "hours")
            case (.english, .minute): ("minute", "minutes")
            case (.english, .second): ("second", "seconds")
            case (.german, .hour): ("Stunde", "Stunden")
            case (.german, .minute): ("Minute", "Minuten")
            case (.german, .second): ("Sekunde", "Sekunden")
            }
        guard value != 1 else { return language == .english ? "one \(nouns.one)" : "eine \(nouns.one)" }
        return "\(number(value)) \(nouns.many)"
    }

    /// A whole number in words, 0 to 999 999 ("forty-two", "zweiundvierzig"); digits beyond that
    /// (espeak-ng reads them in the voice's language) and for negative numbers.
    func number(_ value: Int64) -> String {
        guard (0...999_999).contains(value) else { return String(value) }
        let value = Int(value)
        return language == .english ? english(value) : german(value)
    }

    private static let englishSmall = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    private static let englishTens = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ]

    /// 0–999 999 in English words: "one hundred and five", "twenty-one thousand".
    private func english(_ value: Int) -> String {
        if value < 20 { return Self.englishSmall[value] }
        if value < 100 {
            let tens = Self.englishTens[value / 10]
            return value % 10 == 0 ? tens : "\(tens)-\(Self.englishSmall[value % 10])"
        }
        if value < 1_000 {
            let hundreds = "\(Self.englishSmall[value / 100]) hundred"
            return value % 100 == 0 ? hundreds : "\(hundreds) and \(english(value % 100))"
        }
        let thousands = "\(english(value / 1_000)) thousand"
        guard value % 1_000 > 0 else { return thousands }
        return value % 1_000 < 100
            ? "\(thousands) and \(english(value % 1_000))" : "\(thousands) \(english(value % 1_000))"
    }

    private static let germanSmall = [
        "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
        "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn",
    ]
    private static let germanTens = [
        "", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig",
    ]

    /// 0–999 999 in German words, written as one word: "einundzwanzig", "einhundertfünf".
    private func german(_ value: Int) -> String {
        if value < 20 { return Self.germanSmall[value] }
        if value < 100 {
            let tens = Self.germanTens[value / 10]
            let ones = value % 10
            return ones == 0 ? tens : "\(ones == 1 ? "ein" : Self.germanSmall[ones])und\(tens)"
        }
        if value < 1_000 {
            let hundreds = "\(value / 100 == 1 ? "ein" : Self.germanSmall[value / 100])hundert"
            return value % 100 == 0 ? hundreds : hundreds + german(value % 100)
        }
        var count = value / 1_000 == 1 ? "ein" : german(value / 1_000)
        if count.hasSuffix("eins") { count.removeLast() }  // einhunderteintausend
        let thousands = count + "tausend"
        return value % 1_000 == 0 ? thousands : thousands + german(value % 1_000)
    }
}
