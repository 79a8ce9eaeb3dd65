#include "cplatform.h"

#include <crypt.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>

int hw_password_hash(const char *password, char *out, size_t size) {
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    // NULL random bytes: libxcrypt draws the salt from the kernel itself; 0: yescrypt's default cost.
    if (!crypt_gensalt_rn("$y$", 0, NULL, 0, setting, sizeof setting)) return -1;
    struct crypt_data data;
    memset(&data, 0, sizeof data);
    const char *hash = crypt_rn(password, setting, &data, sizeof data);
    if (!hash || hash[0] == '*') {
        if (!errno) errno = EINVAL;
        return -1;
    }
    if (strlen(hash) + 1 > size) {
        errno = ERANGE;
        return -1;
    }
    memcpy(out, hash, strlen(hash) + 1);
    explicit_bzero(&data, sizeof data);
    return 0;
}

int hw_password_check(const char *password, const char *stored) {
    struct crypt_data data;
    memset(&data, 0, sizeof data);
    const char *hash = crypt_rn(password, stored, &data, sizeof data);
    if (!hash || hash[0] == '*') return -1;
    size_t length = strlen(stored);
    if (strlen(hash) != length) {
        explicit_bzero(&data, sizeof data);
        return 0;
    }
    unsigned char difference = 0;
    for (size_t i = 0; i < length; i++) difference |= (unsigned char)(hash[i] ^ stored[i]);
    explicit_bzero(&data, sizeof data);
    return difference == 0;
}

int hw_random_bytes(void *buffer, size_t size) {
    size_t filled = 0;
    while (filled < size) {
        ssize_t got = getrandom((char *)buffer + filled, size - filled, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        filled += (size_t)got;
    }
    return 0;
}
