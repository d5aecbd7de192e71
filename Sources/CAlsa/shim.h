#ifndef EGGTIMER_CALSA_SHIM_H
#define EGGTIMER_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* alsa-lib's error handler is variadic, which Swift cannot implement: this one discards. */
static inline void CAlsa_discardError(const char *file, int line, const char *function, int err,
                                      const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* Stops alsa-lib from printing "ALSA lib ..." lines to stderr; errors still come back as return codes. */
static inline int CAlsa_silenceLibraryErrors(void) {
    return snd_lib_error_set_handler(CAlsa_discardError);
}
#endif
