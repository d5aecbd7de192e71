#ifndef EGGTIMER_CSAMPLERATE_SHIM_H
#define EGGTIMER_CSAMPLERATE_SHIM_H
/* libsamplerate's types and constants for Speech, which loads the library itself with dlopen the
   first time something is spoken (as CEspeak: no `link`, no pkgConfig), so the shipped binary
   does not need libsamplerate unless it speaks.

   Each function Speech calls gets a pointer type made from its own declaration with __typeof__
   (which references no symbol). */
#include <samplerate.h>

typedef __typeof__(&src_simple) CSamplerate_simple;
typedef __typeof__(&src_strerror) CSamplerate_strerror;
typedef __typeof__(&src_short_to_float_array) CSamplerate_short_to_float_array;
typedef __typeof__(&src_float_to_short_array) CSamplerate_float_to_short_array;
#endif
