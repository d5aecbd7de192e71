/*
 * realtime-shift: an LD_PRELOAD library for tests that moves CLOCK_REALTIME, and nothing else, by
 * an offset read from a file on every call, as an NTP step or a wrong clock does.
 *
 * Why not libfaketime: libfaketime 0.9.10 also rewrites the absolute deadline of every timerfd,
 * CLOCK_BOOTTIME ones included (PLATFORM-NOTES.md), so a program that counts on the boot clock is
 * moved by it and a test of "a wall-clock step does not move a countdown" measures libfaketime,
 * not the program. This shim leaves CLOCK_BOOTTIME, CLOCK_MONOTONIC and their timerfds alone.
 *
 * The file named by REALTIME_SHIFT_FILE holds one signed integer: the offset in nanoseconds
 * (no file, or no number: no shift). It is read again on each call, so writing a new offset
 * steps the clock at once. A timerfd on CLOCK_REALTIME with TFD_TIMER_ABSTIME is armed at the
 * shifted deadline minus the offset then in force, so it fires at the shifted time while the
 * offset stays put. What it cannot model: the kernel sends no TFD_TIMER_CANCEL_ON_SET when the
 * offset changes.
 *
 * Built by the tests with the system's C compiler (TestSupport's RealtimeShift).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define TRACKED_DESCRIPTORS 4096

/* Which descriptors are timerfds on CLOCK_REALTIME (set by timerfd_create, cleared by close). */
static unsigned char realtime_timer[TRACKED_DESCRIPTORS];

static int64_t offset_ns(void) {
    const char *path = getenv("REALTIME_SHIFT_FILE");
    if (path == NULL || *path == 0) return 0;
    int saved = errno;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errno = saved;
        return 0;
    }
    char text[32];
    ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    errno = saved;
    if (length <= 0) return 0;
    text[length] = 0;
    const char *p = text;
    int negative = 0;
    if (*p == '-' || *p == '+') negative = *p++ == '-';
    int64_t value = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (value > (INT64_MAX - 9) / 10) return 0; /* out of range: no shift */
        value = value * 10 + (*p - '0');
    }
    return negative ? -value : value;
}

static void shift(struct timespec *spec, int64_t by_ns) {
    int64_t ns = (int64_t)spec->tv_nsec + by_ns % 1000000000;
    int64_t seconds = (int64_t)spec->tv_sec + by_ns / 1000000000;
    if (ns < 0) {
        ns += 1000000000;
        seconds -= 1;
    } else if (ns >= 1000000000) {
        ns -= 1000000000;
        seconds += 1;
    }
    spec->tv_sec = (time_t)seconds;
    spec->tv_nsec = (long)ns;
}

static int is_realtime(clockid_t clock) { return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE; }

int clock_gettime(clockid_t clock, struct timespec *spec) {
    static int (*real)(clockid_t, struct timespec *);
    if (real == NULL) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, spec);
    if (result == 0 && is_realtime(clock)) shift(spec, offset_ns());
    return result;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    struct timespec spec;
    int result = clock_gettime(CLOCK_REALTIME, &spec);
    if (result == 0) { /* glibc declares value non-null */
        value->tv_sec = spec.tv_sec;
        value->tv_usec = spec.tv_nsec / 1000;
    }
    if (zone != NULL) {
        struct timezone *utc = zone;
        utc->tz_minuteswest = 0;
        utc->tz_dsttime = 0;
    }
    return result;
}

time_t time(time_t *out) {
    struct timespec spec;
    clock_gettime(CLOCK_REALTIME, &spec);
    if (out != NULL) *out = spec.tv_sec;
    return spec.tv_sec;
}

int timerfd_create(int clock, int flags) {
    static int (*real)(int, int);
    if (real == NULL) real = (int (*)(int, int))dlsym(RTLD_NEXT, "timerfd_create");
    int fd = real(clock, flags);
    if (fd >= 0 && fd < TRACKED_DESCRIPTORS) realtime_timer[fd] = is_realtime(clock);
    return fd;
}

int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    static int (*real)(int, int, const struct itimerspec *, struct itimerspec *);
    if (real == NULL)
        real = (int (*)(int, int, const struct itimerspec *, struct itimerspec *))dlsym(RTLD_NEXT, "timerfd_settime");
    if (fd >= 0 && fd < TRACKED_DESCRIPTORS && realtime_timer[fd] && (flags & TFD_TIMER_ABSTIME) && value != NULL &&
        (value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0)) {
        struct itimerspec moved = *value;
        shift(&moved.it_value, -offset_ns());
        return real(fd, flags, &moved, old);
    }
    return real(fd, flags, value, old);
}

int close(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (fd >= 0 && fd < TRACKED_DESCRIPTORS) realtime_timer[fd] = 0;
    return real(fd);
}
