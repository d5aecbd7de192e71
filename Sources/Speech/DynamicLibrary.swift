import Glibc

/// Opens a shared object for ``EspeakLibrary`` and ``SamplerateLibrary``.
///
/// Any thread. C: `dlopen` with `RTLD_NOW | RTLD_LOCAL`.
/// - Parameter fileName: The SONAME or a path.
/// - Returns: The handle (never closed), or `dlerror()`'s message prefixed with `fileName`.
func openLibrary(_ fileName: String) -> Result<UnsafeMutableRawPointer, SpeechError> {
    guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
        return .failure(.libraryMissing("\(fileName): \(lastDLError())"))
    }
    return .success(handle)
}

/// The symbol `name` of the library `handle` as the function pointer type `T`, or nil.
///
/// Any thread. C: `dlsym`.
func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _ type: T.Type) -> T? {
    dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
}

/// `dlerror()`'s message, or a placeholder.
func lastDLError() -> String {
    guard let message = dlerror() else { return "unknown dlopen error" }
    return String(cString: message)
}
