#ifndef EGGTIMER_CSYSTEM_SHIM_H
#define EGGTIMER_CSYSTEM_SHIM_H
/* Declarations Swift's Glibc module lacks: signalfd (signals in the poll set), ppoll (a nanosecond
   poll timeout), pipe2 (close-on-exec pipes), prctl (variadic), and the terminal's window size ioctls (macros).

   _GNU_SOURCE must NOT be defined here: these system headers are shared with Swift's Glibc
   module, and a different feature set changes struct layouts there (fd_set's fds_bits becomes
   __fds_bits), which breaks clean builds at random. What needs it is declared below instead. */
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* From <poll.h> under _GNU_SOURCE (glibc 2.36 declares exactly this). */
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* From <unistd.h> under _GNU_SOURCE (glibc 2.9+): a pipe whose ends are close-on-exec (O_CLOEXEC)
   and non-blocking (O_NONBLOCK) from birth, so no thread's posix_spawn can inherit them. */
extern int pipe2(int pipefd[2], int flags);

/* POSIX_SPAWN_SETSID from <spawn.h> under _GNU_SOURCE (glibc 2.26+): the child calls setsid().
   Tests use it to give a program its own session on a pseudo-terminal. */
static const short CSystem_POSIX_SPAWN_SETSID = 0x80;

/* The terminal's window size; TIOCGWINSZ is a macro Swift may not import. */
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
