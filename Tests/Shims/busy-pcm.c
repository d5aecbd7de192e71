/*
 * busy-pcm: an LD_PRELOAD library for tests that makes every ALSA PCM a process opens one
 * exclusive device, as a `hw:` or `plughw:` device is: while one process (or one open in the same
 * process) holds it, another snd_pcm_open answers -EBUSY at once with SND_PCM_NONBLOCK, and waits
 * until it is free without (as the kernel's PCM open does).
 *
 * Why a shim: this machine has no sound card, so no real `hw:` device exists, and the PCMs that
 * work without one (`null`, `file`) never lock. The shim keeps the PCM underneath (a `file:` PCM,
 * so a test can read what was played) and adds only the exclusive open.
 *
 * The device is the file named by BUSY_PCM_LOCK: an open takes flock(LOCK_EX) on it (LOCK_NB with
 * SND_PCM_NONBLOCK, -EBUSY when held) before the real open, and snd_pcm_close lets it go; so does
 * the process's exit, as the kernel frees a `hw:` device. A test holds the device itself by taking
 * the same flock. Without BUSY_PCM_LOCK the shim does nothing. The lock's descriptor is
 * close-on-exec, so children (an --on-done command) do not hold the device.
 *
 * Built by the tests with the system's C compiler (TestSupport's BusyDevice).
 */
#define _GNU_SOURCE
#include <alsa/asoundlib.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#define HELD_PCMS 16

/* Which open PCM holds which lock descriptor. */
static struct {
    snd_pcm_t *pcm;
    int fd;
} held[HELD_PCMS];
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

/* Takes the device's flock; returns its descriptor, -1 with no lock file set, or -errno. */
static int take_device(int mode) {
    const char *path = getenv("BUSY_PCM_LOCK");
    if (path == NULL || *path == 0) return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -errno;
    int operation = LOCK_EX | ((mode & SND_PCM_NONBLOCK) ? LOCK_NB : 0);
    while (flock(fd, operation) != 0) {
        int error = errno;
        if (error == EINTR) continue;
        close(fd);
        return error == EWOULDBLOCK ? -EBUSY : -error;
    }
    return fd;
}

int snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode) {
    static int (*real)(snd_pcm_t **, const char *, snd_pcm_stream_t, int);
    if (real == NULL) real = (int (*)(snd_pcm_t **, const char *, snd_pcm_stream_t, int))dlsym(RTLD_NEXT, "snd_pcm_open");
    int fd = take_device(mode);
    if (fd < -1) return fd;
    int result = real(pcm, name, stream, mode);
    if (fd < 0) return result;
    if (result < 0) {
        close(fd);
        return result;
    }
    pthread_mutex_lock(&held_lock);
    int slot = 0;
    while (slot < HELD_PCMS && held[slot].pcm != NULL) slot++;
    if (slot < HELD_PCMS) {
        held[slot].pcm = *pcm;
        held[slot].fd = fd;
    }
    pthread_mutex_unlock(&held_lock);
    if (slot == HELD_PCMS) close(fd); /* more open PCMs than any test makes: unlocked */
    return result;
}

int snd_pcm_close(snd_pcm_t *pcm) {
    static int (*real)(snd_pcm_t *);
    if (real == NULL) real = (int (*)(snd_pcm_t *))dlsym(RTLD_NEXT, "snd_pcm_close");
    int result = real(pcm);
    int fd = -1;
    pthread_mutex_lock(&held_lock);
    for (int slot = 0; slot < HELD_PCMS; slot++) {
        if (pcm != NULL && held[slot].pcm == pcm) {
            fd = held[slot].fd;
            held[slot].pcm = NULL;
        }
    }
    pthread_mutex_unlock(&held_lock);
    if (fd >= 0) close(fd); /* after the real close: the device is free once it is closed */
    return result;
}
