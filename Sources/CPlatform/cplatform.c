#define _GNU_SOURCE
#include "cplatform.h"

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

#ifndef HEADWAY_VERSION
#define HEADWAY_VERSION "development"
#endif

const char *hw_version(void) { return HEADWAY_VERSION; }
