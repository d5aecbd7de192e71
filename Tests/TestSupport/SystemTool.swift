public import Glibc

// Testing is there in test builds; `make release` builds this target too, without it.
#if canImport(Testing)
    import Testing
#endif

/// A program or library from a Debian package that a test runs, preloads or reads: the one place
/// tests find such files, each named with the package that ships it.
///
/// Reading ``path`` checks that the package is in one of the Makefile's package lists (so a
/// package installed by hand cannot hide a missing install step on a fresh machine) and that the
/// file is there; either failure is recorded as one issue naming the file and the package, and the
/// test then fails at its first use of the path. ``SystemToolTests`` checks the whole table
/// against the Makefile in `make test`, whichever test target uses a tool.
public struct SystemTool: Sendable, CustomStringConvertible {
    /// The absolute path, as shipped by the package.
    public let location: String
    /// The Debian package that ships it.
    public let package: String

    /// - Parameters:
    ///   - location: The absolute path.
    ///   - package: The Debian package that ships it.
    public init(_ location: String, package: String) {
        (self.location, self.package) = (location, package)
    }

    /// The path, checked: a problem (``problem``) is recorded as an issue of the running test.
    public var path: String {
        #if canImport(Testing)
            if let problem { Issue.record(Comment(rawValue: problem)) }
        #endif
        return location
    }

    /// What is wrong with this tool on this machine, in one line, or nil.
    public var problem: String? {
        if !MakefilePackages.names.contains(package) {
            return "\(location) comes from Debian package \(package), which no package list in the Makefile names"
        }
        if access(location, F_OK) != 0 {
            return "\(location) is missing: Debian package \(package) is not installed (the make targets install it)"
        }
        return nil
    }

    public var description: String { "\(location) (\(package))" }
}

extension SystemTool {
    /// `/bin/sh`.
    public static let sh = SystemTool("/bin/sh", package: "dash")
    /// `/bin/bash`.
    public static let bash = SystemTool("/bin/bash", package: "bash")
    /// `/bin/rm`.
    public static let rm = SystemTool("/bin/rm", package: "coreutils")
    /// `/bin/ls`, also read as a file that is no MP3.
    public static let ls = SystemTool("/bin/ls", package: "coreutils")
    /// `/usr/bin/nohup`.
    public static let nohup = SystemTool("/usr/bin/nohup", package: "coreutils")
    /// `/usr/bin/timeout`.
    public static let timeout = SystemTool("/usr/bin/timeout", package: "coreutils")
    /// `/usr/bin/setpriv`: runs a command as another user.
    public static let setpriv = SystemTool("/usr/bin/setpriv", package: "util-linux")
    /// `/bin/chown`: gives a folder to another user id (HostileFolderTests, in a mount namespace).
    public static let chown = SystemTool("/bin/chown", package: "coreutils")
    /// `/bin/mkdir`: makes a folder inside a mount namespace (HostileFolderTests).
    public static let mkdir = SystemTool("/bin/mkdir", package: "coreutils")
    /// `/usr/bin/unshare`: runs a command in namespaces of its own.
    public static let unshare = SystemTool("/usr/bin/unshare", package: "util-linux")
    /// `/bin/mount`.
    public static let mount = SystemTool("/bin/mount", package: "mount")
    /// `/usr/bin/perl`: a stand-in listener of another user's.
    public static let perl = SystemTool("/usr/bin/perl", package: "perl-base")
    /// `/usr/bin/gcc`: builds the tests' preload libraries (``RealtimeShift``).
    public static let gcc = SystemTool("/usr/bin/gcc", package: "gcc")
    /// `/usr/bin/pulseaudio`: the sound server of the heard tests.
    public static let pulseaudio = SystemTool("/usr/bin/pulseaudio", package: "pulseaudio")
    /// `/usr/bin/pactl`.
    public static let pactl = SystemTool("/usr/bin/pactl", package: "pulseaudio-utils")
    /// `/usr/bin/parec`: records a sink's monitor.
    public static let parec = SystemTool("/usr/bin/parec", package: "pulseaudio-utils")
    /// `/usr/sbin/mosquitto`: the broker of the broker tests.
    public static let mosquitto = SystemTool("/usr/sbin/mosquitto", package: "mosquitto")
    /// `/usr/bin/mosquitto_passwd`.
    public static let mosquittoPasswd = SystemTool("/usr/bin/mosquitto_passwd", package: "mosquitto")
    /// `/usr/bin/mosquitto_pub`.
    public static let mosquittoPub = SystemTool("/usr/bin/mosquitto_pub", package: "mosquitto-clients")
    /// `/usr/bin/mosquitto_sub`.
    public static let mosquittoSub = SystemTool("/usr/bin/mosquitto_sub", package: "mosquitto-clients")
    /// `/usr/bin/openssl`: makes the TLS tests' certificates.
    public static let openssl = SystemTool("/usr/bin/openssl", package: "openssl")
    /// The zone file of a far time zone (UTC+14, no daylight saving time).
    public static let kiritimati = SystemTool("/usr/share/zoneinfo/Pacific/Kiritimati", package: "tzdata")
    /// The zone file of the daylight-saving tests.
    public static let berlin = SystemTool("/usr/share/zoneinfo/Europe/Berlin", package: "tzdata")
    /// `/usr/bin/espeak-ng`: speaks the commands the recogniser's tests decode.
    public static let espeakNG = SystemTool("/usr/bin/espeak-ng", package: "espeak-ng")
    /// `/usr/bin/sox`: resamples espeak-ng's 22 050 Hz speech to the recogniser's 16 kHz.
    public static let sox = SystemTool("/usr/bin/sox", package: "sox")
    /// The US English model PocketSphinx recognises with.
    public static let pocketsphinxModel = SystemTool(
        "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", package: "pocketsphinx-en-us")
    /// PocketSphinx's main header, whose folder the shim's type check includes.
    public static let pocketsphinxHeader = SystemTool(
        "/usr/include/pocketsphinx/pocketsphinx.h", package: "libpocketsphinx-dev")

    /// Every tool above.
    public static let all: [SystemTool] = [
        sh, bash, rm, ls, nohup, timeout, chown, mkdir, setpriv, unshare, mount, perl, gcc, pulseaudio, pactl, parec,
        mosquitto,
        mosquittoPasswd,
        mosquittoPub, mosquittoSub, openssl, kiritimati, berlin, espeakNG, sox,
        pocketsphinxModel, pocketsphinxHeader,
    ]
}

/// The Debian package names in the Makefile's package lists (every `NAME_PACKAGES := …` line).
public enum MakefilePackages {
    /// The names, read once from the repository's Makefile; empty when it cannot be read.
    public static let names: Set<String> = {
        let text = String(decoding: readFile(repositoryRoot + "/Makefile") ?? [], as: UTF8.self)
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":=", maxSplits: 1)
            guard parts.count == 2, parts[0].split(separator: " ").last?.hasSuffix("_PACKAGES") == true else {
                continue
            }
            for word in parts[1].split(separator: " ") where !word.hasPrefix("$") { names.insert(String(word)) }
        }
        return names
    }()
}
