/*
 * espeak-first: the tests' reference synthesis. Says TEXT in VOICE COUNT times in this one fresh
 * process, as the Speech target's SpeechEngine calls libespeak-ng (espeak_Initialize with
 * AUDIO_OUTPUT_SYNCHRONOUS and espeakINITIALIZE_DONT_EXIT, espeak_SetParameter(espeakRATE, WPM):
 * SpeechSynthesizer.wordsPerMinute, which the tests pass; a synth callback, espeak_SetVoiceByName
 * and, when no voice has that name, espeak_SetVoiceByProperties with it as the language (`en-gb`),
 * espeak_Synth of plain UTF-8 text), and writes each synthesis's mono S16 samples, in the
 * machine's byte order, to PREFIX.N.raw (N from 0); prints the rate in Hz.
 *
 * Why a process of its own: espeak-ng's output depends on what the process said before (the
 * pitch flutter's place in its table, a function-local static in wavegen.c that no call resets,
 * and rand() for voices with breath), so the first synthesis of a fresh process is the only one
 * another process can reproduce: eggtimer's spoken line is its process's first.
 *
 * Usage: espeak-first VOICE TEXT COUNT PREFIX WPM. Built by the tests with the system's C compiler
 * (TestSupport's SpeechReference).
 */
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static short *samples;
static size_t used, capacity;

static int collect(short *wave, int count, espeak_EVENT *events) {
    (void)events;
    if (wave == NULL || count <= 0) return 0;
    if (used + (size_t)count > capacity) {
        capacity = (used + (size_t)count) * 2;
        samples = realloc(samples, capacity * sizeof *samples);
        if (samples == NULL) return 1;
    }
    memcpy(samples + used, wave, (size_t)count * sizeof *samples);
    used += (size_t)count;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: espeak-first VOICE TEXT COUNT PREFIX WPM\n");
        return 64;
    }
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) {
        fprintf(stderr, "espeak_Initialize failed\n");
        return 1;
    }
    if (espeak_SetParameter(espeakRATE, atoi(argv[5]), 0) != EE_OK) {
        fprintf(stderr, "espeak_SetParameter(espeakRATE, %s) failed\n", argv[5]);
        return 1;
    }
    espeak_SetSynthCallback(collect);
    espeak_VOICE wanted;
    memset(&wanted, 0, sizeof wanted);
    wanted.languages = argv[1];
    if (espeak_SetVoiceByName(argv[1]) != EE_OK && espeak_SetVoiceByProperties(&wanted) != EE_OK) {
        fprintf(stderr, "no voice %s\n", argv[1]);
        return 1;
    }
    int count = atoi(argv[3]);
    for (int n = 0; n < count; n++) {
        used = 0;
        if (espeak_Synth(argv[2], strlen(argv[2]) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL) != EE_OK) {
            fprintf(stderr, "espeak_Synth failed\n");
            return 1;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s.%d.raw", argv[4], n);
        FILE *file = fopen(path, "wbe");
        if (file == NULL || fwrite(samples, sizeof *samples, used, file) != used || fclose(file) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
    }
    printf("%d\n", rate);
    return 0;
}
