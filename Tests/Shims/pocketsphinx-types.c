/* Checks, at compile time, that the function pointer types Sources/CPocketsphinx/shim.h declares by
   hand (pocketsphinx.h needs pkg-config's include flags, which the shim cannot have) are exactly
   those of the installed 5prealpha headers. ListeningTests compiles it with gcc -fsyntax-only. */
#include "shim.h"
#include <pocketsphinx.h>

#define SAME(type, function) \
    _Static_assert(__builtin_types_compatible_p(type, __typeof__(&function)), #function " differs from " #type);

SAME(CPocketsphinx_Arguments, ps_args)
SAME(CPocketsphinx_Init, ps_init)
SAME(CPocketsphinx_FreeDecoder, ps_free)
SAME(CPocketsphinx_LookupWord, ps_lookup_word)
SAME(CPocketsphinx_SetJSGFString, ps_set_jsgf_string)
SAME(CPocketsphinx_SetSearch, ps_set_search)
SAME(CPocketsphinx_StartUtterance, ps_start_utt)
SAME(CPocketsphinx_ProcessRaw, ps_process_raw)
SAME(CPocketsphinx_EndUtterance, ps_end_utt)
SAME(CPocketsphinx_Hypothesis, ps_get_hyp)
SAME(CPocketsphinx_Probability, ps_get_prob)
