import AlarmAudio
import Testing

@testable import eggtimer

/// Start-up's check that the alarm sound is loud enough to hear.
@Suite struct SoundChecksTests {
    @Test func aSilentOrNearlySilentSoundIsNotAnAlarm() {
        #expect(
            !Startup.isAudible(AlarmSound(samples: [Int16](repeating: 0, count: 4410), sampleRate: 44100, channels: 1)))
        #expect(!Startup.isAudible(AlarmSound(samples: [0, 32, -32, 0], sampleRate: 44100, channels: 1)))
        #expect(Startup.isAudible(AlarmSound(samples: [0, 33, 0, 0], sampleRate: 44100, channels: 1)))
        #expect(Startup.isAudible(AlarmSound.builtInTone()))
    }
}
