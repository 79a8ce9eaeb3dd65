// System interfaces Swift's Glibc module does not import — struct ucred, splice(2),
// F_SETPIPE_SZ and memrchr(3) need _GNU_SOURCE, and glibc's pidfd_open() lives in a header the
// module leaves out —, a signal handler (which must be async-signal-safe, and Swift code cannot
// promise that), and the build's version, which only the C preprocessor can take from the
// command line; yescrypt password hashes (libxcrypt) and the kernel's random bytes. The calls
// return what the system call
// returned (-1 with errno set on failure); no policy lives here.
#ifndef HEADWAY_CPLATFORM_H
#define HEADWAY_CPLATFORM_H

#include <stddef.h>
#include <stdint.h>

/// getsockopt(SO_PEERCRED): the process, user and group at the other end of a Unix socket.
int hw_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);
/// pidfd_open(2): a descriptor that becomes readable when process `pid` exits.
int hw_pidfd_open(int32_t pid);
/// Closes every descriptor from 3 up except `keep`: what a detached process must not hold of
/// its parent's (a runner's pipes and sockets, which tell it when its hook is over).
int hw_close_descriptors_except(int keep);
/// Makes signal `number` write two bytes to `fd` — the number, and 1 when the kernel raised it (a
/// terminal's Ctrl-C) rather than a process — from a handler that calls only write(2) and keeps
/// errno. Each signal writes to the `fd` of its latest call, so that two event loops of one
/// process (the service's, a terminal's) route different signals to pipes of their own. Returns
/// sigaction's result (-1 with EINVAL for a number that is not a signal's).
int hw_route_signal_to_pipe(int number, int fd);
/// splice(2) of up to `count` bytes from `in` to `out` (one of them a pipe), blocking as read(2)
/// and write(2) would: the bytes moved, 0 at the input's end, -1 with errno (EINVAL when the two
/// cannot be spliced).
long hw_splice(int in, int out, unsigned long count);
/// memrchr(3): the last `byte` in the `count` bytes at `bytes`, or NULL.
const void *hw_memrchr(const void *bytes, int byte, unsigned long count);
/// The first place in the `count` bytes at `bytes` that holds one of the `set_count` (1…8) bytes
/// of `set`, or -1: one pass, sixteen bytes at a time (the compiler's vector extensions: SSE2 on
/// x86_64, NEON on arm64), where memchr would make a pass per byte sought.
long hw_first_of_any(const uint8_t *bytes, unsigned long count, const uint8_t *set, int set_count);
/// The last such place, or -1.
long hw_last_of_any(const uint8_t *bytes, unsigned long count, const uint8_t *set, int set_count);
/// fcntl(F_SETPIPE_SZ): asks for a pipe's buffer to hold `bytes`; the size given, or -1 with errno.
int hw_set_pipe_size(int fd, int bytes);
/// 1 when signal `number` is ignored (SIG_IGN) in this process, 0 when not, -1 with errno.
int hw_signal_is_ignored(int number);
/// The version this build was made from (`git describe`, passed by Scripts/lib/build-debs.sh as
/// -DHEADWAY_VERSION=...), or "development" for a plain `swift build`.
const char *hw_version(void);

/// After `milliseconds`, writes `message` (copied) to standard error and ends the process with
/// `status`, whatever it is doing then (a connect(2) to an unreachable host included): the
/// hook's promise to give up within its budget. 0 on success, -1 with errno.
int hw_exit_after(uint32_t milliseconds, const char *message, int status);
/// When signal `number` arrives, writes `message` (copied) to `fd` and ends the process with
/// `status` (a terminal's cursor given back on Ctrl-C). 0 on success, -1 with errno.
/// This and hw_exit_after keep one message: the latest call's.
int hw_exit_on_signal(int number, int fd, const char *message, int status);

/// Hashes `password` with yescrypt (libxcrypt's "$y$", a fresh random salt from the kernel) into
/// `out` (at least 384 bytes). 0 on success, -1 with errno.
int hw_password_hash(const char *password, char *out, size_t size);
/// Whether `password` hashes to `stored` (any method libxcrypt knows: $y$, $6$ …), compared in
/// constant time. 1 yes, 0 no, -1 when `stored` is not a hash libxcrypt reads.
int hw_password_check(const char *password, const char *stored);
/// Fills `buffer` with `size` random bytes from the kernel (getrandom). 0, or -1 with errno.
int hw_random_bytes(void *buffer, size_t size);

#endif
