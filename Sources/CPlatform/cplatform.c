#define _GNU_SOURCE
#include "cplatform.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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

static volatile sig_atomic_t signal_pipe = -1;

static void route_signal(int number, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    unsigned char bytes[2] = {(unsigned char)number, info != NULL && info->si_code == SI_KERNEL};
    ssize_t written = write(signal_pipe, bytes, sizeof bytes);
    (void)written;  // a full pipe already holds a wake-up
    errno = saved;
}

int hw_route_signal_to_pipe(int number, int fd) {
    signal_pipe = fd;
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
