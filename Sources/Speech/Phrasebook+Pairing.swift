extension Phrasebook {
    /// The kitchen's pairing code spoken digit by digit (a long press of `.` or Enter):
    /// "Pairing code 1 2 3 4 5 6", "Kopplungscode 1 2 3 4 5 6".
    /// - Parameter code: The code's digits (ASCII); anything else in it is left out.
    /// - Returns: The sentence.
    public func pairingCode(_ code: String) -> String {
        let digits = code.filter { $0.isASCII && $0.isNumber }.map(String.init).joined(separator: " ")
        return (language == .english ? "Pairing code " : "Kopplungscode ") + digits
    }
}
