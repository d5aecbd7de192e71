#ifndef EGGTIMER_CPOCKETSPHINX_SHIM_H
#define EGGTIMER_CPOCKETSPHINX_SHIM_H
/* CMU PocketSphinx 5prealpha's (Debian libpocketsphinx3, libsphinxbase3) types and function
   pointer types for Listening, which loads both libraries itself with dlopen: the module map has
   no `link` and Package.swift no pkgConfig, so the shipped binary does not need them unless it
   listens.

   sphinxbase's headers are on the default include path (Debian puts them under the multiarch
   folder), so its functions' pointer types are made with __typeof__ from their declarations.
   pocketsphinx.h is not: it includes <pocketsphinx_export.h> and friends from
   /usr/include/pocketsphinx, which only pkg-config's flags add. Its few functions used here are
   therefore declared below as pointer types, copied from the 5prealpha headers (pocketsphinx.h,
   ps_search.h); the decoder stays an opaque struct. __typeof__ and typedefs reference no symbol,
   so nothing here links against either library.

   cmd_ln_init is variadic, which Swift cannot call: the configuration is built with its argv form,
   cmd_ln_parse_r, over ps_args()'s definitions. */
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/err.h>
#include <sphinxbase/ckd_alloc.h>

typedef __typeof__(&cmd_ln_parse_r) CPocketsphinx_ParseConfiguration;
typedef __typeof__(&cmd_ln_free_r) CPocketsphinx_FreeConfiguration;
typedef __typeof__(&err_set_logfp) CPocketsphinx_SetLogFile;
typedef __typeof__(&ckd_free) CPocketsphinx_Free;

/* pocketsphinx.h: typedef struct ps_decoder_s ps_decoder_t; */
typedef struct ps_decoder_s CPocketsphinx_decoder;

/* arg_t const *ps_args(void); */
typedef arg_t const *(*CPocketsphinx_Arguments)(void);
/* ps_decoder_t *ps_init(cmd_ln_t *config); */
typedef CPocketsphinx_decoder *(*CPocketsphinx_Init)(cmd_ln_t *config);
/* int ps_free(ps_decoder_t *ps); */
typedef int (*CPocketsphinx_FreeDecoder)(CPocketsphinx_decoder *ps);
/* char *ps_lookup_word(ps_decoder_t *ps, const char *word); the result is freed with ckd_free. */
typedef char *(*CPocketsphinx_LookupWord)(CPocketsphinx_decoder *ps, const char *word);
/* int ps_set_jsgf_string(ps_decoder_t *ps, const char *name, const char *jsgf_string); */
typedef int (*CPocketsphinx_SetJSGFString)(CPocketsphinx_decoder *ps, const char *name, const char *jsgf_string);
/* int ps_set_search(ps_decoder_t *ps, const char *name); */
typedef int (*CPocketsphinx_SetSearch)(CPocketsphinx_decoder *ps, const char *name);
/* int ps_start_utt(ps_decoder_t *ps); */
typedef int (*CPocketsphinx_StartUtterance)(CPocketsphinx_decoder *ps);
/* int ps_process_raw(ps_decoder_t *ps, int16 const *data, size_t n_samples, int no_search, int full_utt); */
typedef int (*CPocketsphinx_ProcessRaw)(
    CPocketsphinx_decoder *ps, int16 const *data, size_t n_samples, int no_search, int full_utt);
/* int ps_end_utt(ps_decoder_t *ps); */
typedef int (*CPocketsphinx_EndUtterance)(CPocketsphinx_decoder *ps);
/* char const *ps_get_hyp(ps_decoder_t *ps, int32 *out_best_score); */
typedef char const *(*CPocketsphinx_Hypothesis)(CPocketsphinx_decoder *ps, int32 *out_best_score);
/* int32 ps_get_prob(ps_decoder_t *ps); */
typedef int32 (*CPocketsphinx_Probability)(CPocketsphinx_decoder *ps);
#endif
