#define _GNU_SOURCE
#include "cplatform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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

int hw_signal_is_ignored(int number) {
    struct sigaction current;
    if (sigaction(number, NULL, &current) != 0) return -1;
    return current.sa_handler == SIG_IGN ? 1 : 0;
}

long hw_splice(int in, int out, unsigned long count) {
    return (long)splice(in, NULL, out, NULL, count, SPLICE_F_MOVE);
}

const void *hw_memrchr(const void *bytes, int byte, unsigned long count) {
    return memrchr(bytes, byte, count);
}

typedef uint8_t hw_block __attribute__((vector_size(16)));

// Whether one of the set's bytes is among the `blocks` times sixteen bytes at `at`.
static inline int hw_blocks_have_any(const uint8_t *at, int blocks, const hw_block *wanted, int set_count) {
    hw_block hits = (hw_block){0};
    for (int offset = 0; offset < blocks * 16; offset += 16) {
        hw_block block;
        memcpy(&block, at + offset, sizeof block);
        for (int index = 0; index < set_count; index++) hits |= (hw_block)(block == wanted[index]);
    }
    uint64_t halves[2];
    memcpy(halves, &hits, sizeof halves);
    return (halves[0] | halves[1]) != 0;
}

static inline int hw_in_set(uint8_t byte, const uint8_t *set, int set_count) {
    for (int index = 0; index < set_count; index++) {
        if (byte == set[index]) return 1;
    }
    return 0;
}

long hw_first_of_any(const uint8_t *bytes, unsigned long count, const uint8_t *set, int set_count) {
    if (set_count < 1 || set_count > 8) return -1;
    hw_block wanted[8];
    for (int index = 0; index < set_count; index++) wanted[index] = (hw_block){0} + set[index];
    unsigned long place = 0;
    // Four blocks a test while there are, then one.
    while (place + 64 <= count && !hw_blocks_have_any(bytes + place, 4, wanted, set_count)) place += 64;
    while (place + 16 <= count && !hw_blocks_have_any(bytes + place, 1, wanted, set_count)) place += 16;
    for (; place < count; place++) {
        if (hw_in_set(bytes[place], set, set_count)) return (long)place;
    }
    return -1;
}

long hw_last_of_any(const uint8_t *bytes, unsigned long count, const uint8_t *set, int set_count) {
    if (set_count < 1 || set_count > 8) return -1;
    hw_block wanted[8];
    for (int index = 0; index < set_count; index++) wanted[index] = (hw_block){0} + set[index];
    unsigned long end = count;
    while (end >= 64 && !hw_blocks_have_any(bytes + end - 64, 4, wanted, set_count)) end -= 64;
    while (end >= 16 && !hw_blocks_have_any(bytes + end - 16, 1, wanted, set_count)) end -= 16;
    while (end > 0) {
        end--;
        if (hw_in_set(bytes[end], set, set_count)) return (long)end;
    }
    return -1;
}

int hw_set_pipe_size(int fd, int bytes) {
    return fcntl(fd, F_SETPIPE_SZ, bytes);
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
