#ifndef EGGTIMER_CSYSTEM_SHIM_H
#define EGGTIMER_CSYSTEM_SHIM_H
/* Declarations Swift's Glibc module lacks: signalfd (signals in the poll set), timerfd (a wake-up
   on the boot clock), ppoll (a nanosecond poll timeout), prctl (variadic), the terminal's window
   size ioctls (macros), and what makes descriptors close-on-exec from birth (pipe2, posix_openpt,
   posix_spawn's close-from) and pidfd_open (a child's exit in a poll set), and the kernel's input
   ABI (struct input_event, whose layout differs between 32-bit and 64-bit time, and the evdev
   ioctls, which are macros).

   _GNU_SOURCE must NOT be defined here: these system headers are shared with Swift's Glibc
   module, and a different feature set changes struct layouts there (fd_set's fds_bits becomes
   __fds_bits), which breaks clean builds at random. What needs it is declared below instead. */
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

/* From <poll.h> under _GNU_SOURCE (glibc 2.36 declares exactly this). */
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* From <unistd.h> under _GNU_SOURCE (glibc 2.9+): pipe with flags, so O_CLOEXEC is set atomically
   and a child another thread spawns meanwhile cannot inherit the ends. O_CLOEXEC itself imports. */
extern int pipe2(int __pipedes[2], int __flags);

/* From <spawn.h> under _GNU_SOURCE (glibc 2.34+): the child closes every descriptor >= __from
   after the earlier file actions, so it gets only what the actions set up. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *__actions, int __from);

/* From <stdlib.h> under _XOPEN_SOURCE >= 600 (ptsname_r under _GNU_SOURCE): a pseudo-terminal
   opened step by step, because openpty cannot make its descriptors close-on-exec atomically.
   posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC) gives the master; the slave is opened by name. */
extern int posix_openpt(int __oflag);
extern int grantpt(int __fd);
extern int unlockpt(int __fd);
extern int ptsname_r(int __fd, char *__buf, size_t __buflen);

/* From <sys/pidfd.h> (glibc 2.36, Linux 5.3+; the header is not in Swift's Glibc module): a
   descriptor that polls readable when the process exits. It is always close-on-exec. */
extern int pidfd_open(pid_t __pid, unsigned int __flags);

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

/* The bytes written on a socket that its peer has not read yet: SIOCOUTQ (<linux/sockios.h>
   defines it as TIOCOUTQ, a macro). For a Unix stream socket it falls as the peer reads, so a
   request still counted was never read. -1 with errno set on failure. */
static inline int CSystem_unreadBytes(int fd) {
    int count = 0;
    return ioctl(fd, TIOCOUTQ, &count) < 0 ? -1 : count;
}

/* POLLRDHUP from <bits/poll.h> under _GNU_SOURCE (Linux 2.6.17+): the peer closed its end of a
   stream socket, or shut down its writing half, seen by poll without reading. */
static const short CSystem_POLLRDHUP = 0x2000;

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
/* accept4 from <sys/socket.h> under _GNU_SOURCE (glibc 2.10+): the accepted socket is
   close-on-exec and non-blocking from birth. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/* struct ucred is declared only under _GNU_SOURCE; this has its layout (pid, uid, gid). */
struct CSystem_PeerCredentials { pid_t pid; uid_t uid; gid_t gid; };

/* Who is at the other end of a connected Unix socket, as the kernel recorded it at connect time
   (SO_PEERCRED). Returns 0, or -1 with errno set. */
static inline int CSystem_peerCredentials(int fd, struct CSystem_PeerCredentials *credentials) {
    socklen_t length = sizeof *credentials;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, credentials, &length);
}

/* TFD_TIMER_CANCEL_ON_SET (Linux 2.6.36+): an absolute CLOCK_REALTIME timerfd whose read fails
   with ECANCELED when the wall clock is set. A named constant, since older headers lack it. */
static const int CSystem_TFD_TIMER_CANCEL_ON_SET = 1 << 1;

/* Reads the kernel's clock discipline without changing it (adjtimex with modes 0): stores the
   status bits in *status and returns the clock state (TIME_OK ... TIME_ERROR), or -1 with errno.
   The clock is not synchronised when the state is TIME_ERROR or STA_UNSYNC is set. */
static inline int CSystem_clockState(int *status) {
    struct timex tx = { .modes = 0 };
    int state = adjtimex(&tx);
    *status = tx.status;
    return state;
}
static const int CSystem_STA_UNSYNC = STA_UNSYNC;
static const int CSystem_TIME_ERROR = TIME_ERROR;

/* The kernel's input events (linux/input.h). The record's size and field places are the header's:
   24 bytes on 64-bit userspace, 16 on 32-bit without 64-bit time; the time fields change names
   between the two (input_event_sec/usec are macros), so they are read and written here. */
static const unsigned long CSystem_inputEventSize = sizeof(struct input_event);
static inline long long CSystem_inputEventSeconds(const struct input_event *event) { return event->input_event_sec; }
static inline long long CSystem_inputEventMicroseconds(const struct input_event *event) { return event->input_event_usec; }
static inline void CSystem_setInputEventTime(struct input_event *event, long long seconds, long long microseconds) {
    event->input_event_sec = seconds;
    event->input_event_usec = microseconds;
}

/* Takes (1) or gives back (0) a device for this descriptor alone: its events no longer reach the
   console or other readers. EVIOCGRAB is a macro. Returns 0, or -1 with errno (ENOTTY on a FIFO). */
static inline int CSystem_grabInputDevice(int fd, int grab) { return ioctl(fd, EVIOCGRAB, grab); }

/* The device's name into buffer (NUL-terminated when it fits). EVIOCGNAME(len) is a macro.
   Returns the bytes copied, or -1 with errno (ENOTTY on a FIFO). */
static inline int CSystem_inputDeviceName(int fd, char *buffer, unsigned int length) {
    return ioctl(fd, EVIOCGNAME(length), buffer);
}
static const int CSystem_EV_SYN = EV_SYN;
static const int CSystem_EV_KEY = EV_KEY;
static const int CSystem_SYN_REPORT = SYN_REPORT;
static const int CSystem_SYN_DROPPED = SYN_DROPPED;
static const int CSystem_KEY_MAX = KEY_MAX;
static const int CSystem_BTN_MISC = BTN_MISC;

/* getrandom(2) from <sys/random.h> (glibc 2.25+, Linux 3.17+): bytes from the kernel's CSPRNG,
   blocking only until the pool is first initialised at boot. Wrapped so the call is SystemKit's
   alone whether or not Swift's Glibc module exports it. Returns the bytes written, or -1 with errno. */
static inline long CSystem_getrandom(void *buffer, unsigned long length) {
    return (long)getrandom(buffer, length, 0);
}
#endif
