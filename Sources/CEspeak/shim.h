#ifndef EGGTIMER_CESPEAK_SHIM_H
#define EGGTIMER_CESPEAK_SHIM_H
/* libespeak-ng's types and constants for Speech, which loads the library itself with dlopen the
   first time something is spoken: the module map has no `link` and Package.swift no pkgConfig, so
   the shipped binary does not need libespeak-ng (nor espeak-ng-data) unless it speaks.

   Each function Speech calls gets a pointer type made from its own declaration with __typeof__,
   so a dlsym'd pointer has exactly the header's signature. __typeof__ does not reference the
   symbol, so nothing here links against the library. */
#include <espeak-ng/speak_lib.h>

typedef __typeof__(&espeak_Initialize) CEspeak_Initialize;
typedef __typeof__(&espeak_SetSynthCallback) CEspeak_SetSynthCallback;
typedef __typeof__(&espeak_SetVoiceByName) CEspeak_SetVoiceByName;
typedef __typeof__(&espeak_SetVoiceByProperties) CEspeak_SetVoiceByProperties;
typedef __typeof__(&espeak_Synth) CEspeak_Synth;
typedef __typeof__(&espeak_Synchronize) CEspeak_Synchronize;
typedef __typeof__(&espeak_Info) CEspeak_Info;
typedef __typeof__(&espeak_SetParameter) CEspeak_SetParameter;
typedef __typeof__(&espeak_ListVoices) CEspeak_ListVoices;
typedef __typeof__(&espeak_GetCurrentVoice) CEspeak_GetCurrentVoice;

/* The synth callback's own type (espeak_SetSynthCallback's parameter), for a Swift closure. */
typedef t_espeak_callback *CEspeak_callback;

/* espeakINITIALIZE_DONT_EXIT: without it espeak_Initialize calls exit() when its data is missing. */
static const int CEspeak_initializeDontExit = espeakINITIALIZE_DONT_EXIT;
static const unsigned int CEspeak_charsUTF8 = espeakCHARS_UTF8;
#endif
