#define _GNU_SOURCE
#include "cplatform.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int hw_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

int hw_pidfd_open(int32_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return (int)syscall(434, pid, 0);  // the same number on every architecture since Linux 5.3
#endif
}

int hw_close_descriptors_except(int keep) {
    // close_range(2) (Linux 5.9) around the one kept; older kernels: one close per descriptor.
    long result = 0;
    if (keep > 3) result = syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u);
    if (result == 0) result = syscall(SYS_close_range, (unsigned)(keep < 3 ? 3 : keep + 1), ~0u, 0u);
    if (result == 0) return 0;
    long highest = sysconf(_SC_OPEN_MAX);
    if (highest < 0 || highest > 65536) highest = 65536;
    for (int fd = 3; fd < highest; fd++) {
        if (fd != keep) close(fd);
    }
    return 0;
}

// The pipe each signal is routed to (-1: none), by signal number.
static volatile sig_atomic_t signal_pipes[NSIG] = {[0 ... NSIG - 1] = -1};

static void route_signal(int number, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    unsigned char bytes[2] = {(unsigned char)number, info != NULL && info->si_code == SI_KERNEL};
    ssize_t written = write(signal_pipes[number], bytes, sizeof bytes);
    (void)written;  // a full pipe already holds a wake-up
    errno = saved;
}

int hw_route_signal_to_pipe(int number, int fd) {
    if (number <= 0 || number >= NSIG) {
        errno = EINVAL;
        return -1;
    }
    signal_pipes[number] = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = route_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(number, &action, NULL);
}

#ifndef HEADWAY_VERSION
#define HEADWAY_VERSION "development"
#endif

const char *hw_version(void) { return HEADWAY_VERSION; }

static char exit_message[512];
static size_t exit_message_length;
static int exit_fd = 2;
static int exit_status;

static void exit_now(int number) {
    (void)number;
    // Only async-signal-safe calls here.
    if (exit_message_length) (void)!write(exit_fd, exit_message, exit_message_length);
    _exit(exit_status);
}

// Keeps what exit_now writes and returns, then makes signal `number` call it.
static int exit_on(int number, int fd, const char *message, int status) {
    exit_message_length = strlen(message);
    if (exit_message_length > sizeof exit_message) exit_message_length = sizeof exit_message;
    memcpy(exit_message, message, exit_message_length);
    exit_fd = fd;
    exit_status = status;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = exit_now;
    return sigaction(number, &action, NULL);
}

int hw_exit_on_signal(int number, int fd, const char *message, int status) { return exit_on(number, fd, message, status); }

int hw_exit_after(uint32_t milliseconds, const char *message, int status) {
    if (exit_on(SIGALRM, 2, message, status) < 0) return -1;
    struct itimerval timer = {.it_interval = {0, 0}, .it_value = {(time_t)(milliseconds / 1000), (suseconds_t)(milliseconds % 1000) * 1000}};
    return setitimer(ITIMER_REAL, &timer, NULL);
}
