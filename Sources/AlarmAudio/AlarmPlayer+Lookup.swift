extension AlarmPlayer {
    /// Checks that ALSA's configuration defines `device` at all, without opening it.
    ///
    /// Tells a typing mistake (`-D nosuchdevice`), which no hardware can ever fix, from a device
    /// that is defined but absent now (`hw:9`, `plughw:CARD=Nope`, a USB speaker unplugged), which
    /// may work later. The key is `device` up to its first `:`; one without a dot must be defined
    /// as `pcm.<key>` (in alsa.conf, `/etc/asound.conf`, `~/.asoundrc`, a conf.d file, or
    /// `ALSA_CONFIG_PATH`'s files; `pcm.!key` overrides count), a dotted one from the top
    /// (`pcm.mydev`). An alias counts as defined whether or not its target exists yet
    /// (`front`, `default` with no card). When the configuration cannot be read, or the key leads
    /// into a subtree alsa-lib completes only on demand, this returns: opening will tell.
    ///
    /// Reads alsa-lib's global configuration as `snd_pcm_open` does (rereading its files if they
    /// changed); runs no hooks and touches no hardware. Blocks for that file I/O only, about a
    /// millisecond. Call it from one thread at a time; see `ALSAConfiguration` for dotted names.
    /// - Parameter device: ALSA PCM name, as for `-D`, for example `"default"` or `"hw:1,0"`.
    /// - Throws: ``AlarmError/deviceUndefined(device:defined:)`` with the defined PCM names (in
    ///   the configuration's order) when nothing defines the name.
    /// C: `snd_config_update_ref`, `snd_config_search`, `snd_config_unref`.
    public static func checkDefined(device: String) throws(AlarmError) {
        let configuration: ALSAConfiguration
        do {
            configuration = try ALSAConfiguration()
        } catch {
            return  // every open fails the same way; the probe reports it
        }
        guard configuration.definition(of: device) == .undefined else { return }
        throw .deviceUndefined(device: device, defined: configuration.pcmNames)
    }
}
