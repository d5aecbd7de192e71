#ifndef EGGTIMER_CSYSTEM_SHIM_H
#define EGGTIMER_CSYSTEM_SHIM_H
/* Declarations Swift's Glibc module lacks: signalfd (signals in the poll set), ppoll (a nanosecond
   poll timeout), and the terminal's window size. */
#define _GNU_SOURCE 1
#include <signal.h>
#include <poll.h>
#include <spawn.h>
#include <time.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <sys/prctl.h>

/* TIOCGWINSZ is a macro Swift may not import as a constant. */
static inline int CSystem_windowSize(int fd, unsigned short *rows, unsigned short *columns) {
    struct winsize ws;
    int rc = ioctl(fd, TIOCGWINSZ, &ws);
    if (rc == 0) { *rows = ws.ws_row; *columns = ws.ws_col; }
    return rc;
}

/* Sets the terminal's window size (what a terminal emulator does on resize; tests use it). */
static inline int CSystem_setWindowSize(int fd, unsigned short rows, unsigned short columns) {
    struct winsize ws = { .ws_row = rows, .ws_col = columns, .ws_xpixel = 0, .ws_ypixel = 0 };
    return ioctl(fd, TIOCSWINSZ, &ws);
}

/* Sets this thread's timer slack (threads created later inherit it). The default 50 us lets the
   kernel batch wake-ups; a kitchen timer wakes about twice a second, so exact wake-ups cost
   nothing. prctl is variadic, which Swift cannot call. */
static inline int CSystem_setTimerSlack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0UL, 0UL, 0UL);
}
#endif
