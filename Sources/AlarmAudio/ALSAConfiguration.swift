import CAlsa
import Glibc

/// A reference to alsa-lib's global configuration tree, the one `snd_pcm_open` reads; sole owner
/// of that reference.
///
/// Answers whether a PCM name is defined at all (``definition(of:)``) without opening anything,
/// and lists the defined PCM names (``pcmNames``). The tree is read, never changed: no hooks are
/// run and no `@func` is evaluated, so nothing here touches a sound card.
///
/// Not thread-safe: create, use and drop it on one thread. Other threads may open devices
/// meanwhile (the reference keeps this tree alive even if alsa-lib reloads its files), as long as
/// no name given here is dotted into a subtree whose hooks they may be running (`cards.…`).
struct ALSAConfiguration: ~Copyable {
    /// What the configuration says about a PCM name.
    enum Definition: Equatable {
        /// The name's key is defined (possibly as an alias, whose target is not checked).
        case defined
        /// Nothing defines the key: `snd_pcm_open` fails for this name whatever hardware is present.
        case undefined
        /// The key leads into a subtree that alsa-lib completes only when searched (pending
        /// `@hooks`) or through an alias; it cannot be told without changing the tree.
        case undecided
    }

    private let top: OpaquePointer

    /// Takes a reference to the global configuration, (re)reading alsa-lib's files first if they
    /// changed: `alsa.conf` (or `ALSA_CONFIG_PATH`), `/etc/asound.conf`, `~/.asoundrc`, conf.d folders.
    ///
    /// Blocks while those files are read (local files; about a millisecond).
    /// - Throws: `ALSAError` when they cannot be read or parsed (the same error every open would get).
    /// C: `snd_config_update_ref`.
    init() throws(ALSAError) {
        var reference: OpaquePointer?
        try ALSAError.check(snd_config_update_ref(&reference), "snd_config_update_ref")
        guard let reference else { throw ALSAError(code: ENOENT, function: "snd_config_update_ref") }
        top = reference
    }

    deinit { snd_config_unref(top) }

    /// Looks `name` up as `snd_pcm_open` does, without expanding its arguments.
    ///
    /// The key is `name` up to its first `:` (what follows is arguments: `hw:9`,
    /// `file:'/x',raw`). A key without a dot is looked up as `pcm.<key>`; a dotted key from the
    /// top (`pcm.mydev`). A key defined as an alias (`pcm.default cards.pcm.default`) counts as
    /// defined: its target may appear only once a card is present.
    /// - Parameter name: An ALSA PCM name, as given to `-D`.
    /// - Returns: Whether the configuration defines it.
    /// - Complexity: O(n) in the number of definitions along the key's path.
    /// C: `snd_config_search`, `snd_config_get_type`.
    func definition(of name: String) -> Definition {
        let key = name.prefix { $0 != ":" }
        let path = key.contains(".") ? key.split(separator: ".", omittingEmptySubsequences: false) : ["pcm", key]
        var node = top
        for component in path {
            guard snd_config_get_type(node) == SND_CONFIG_TYPE_COMPOUND else { return .undecided }
            if let child = Self.child(of: node, named: String(component)) {
                node = child
            } else {
                return Self.child(of: node, named: "@hooks") == nil ? .undefined : .undecided
            }
        }
        return .defined
    }

    /// The ids of all `pcm.<name>` definitions, in the order the configuration holds them
    /// (alsa.conf's first, then those added by `/etc/asound.conf`, `~/.asoundrc` and conf.d files).
    /// - Complexity: O(n) in the number of definitions.
    /// C: `snd_config_iterator_first`, `snd_config_get_id`.
    var pcmNames: [String] {
        guard let pcm = Self.child(of: top, named: "pcm"), snd_config_get_type(pcm) == SND_CONFIG_TYPE_COMPOUND
        else { return [] }
        var names: [String] = []
        var iterator = snd_config_iterator_first(pcm)
        while iterator != snd_config_iterator_end(pcm) {
            var id: UnsafePointer<CChar>?
            if let entry = snd_config_iterator_entry(iterator), snd_config_get_id(entry, &id) >= 0, let id {
                let name = String(cString: id)
                if !name.hasPrefix("@") { names.append(name) }
            }
            iterator = snd_config_iterator_next(iterator)
        }
        return names
    }

    /// The direct child of compound `node` whose id is `id` (which must hold no dot), if any.
    ///
    /// C: `snd_config_search`.
    private static func child(of node: OpaquePointer, named id: String) -> OpaquePointer? {
        var child: OpaquePointer?
        guard snd_config_search(node, id, &child) >= 0 else { return nil }
        return child
    }
}
