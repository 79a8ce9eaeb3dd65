// Thin C entry points for the Linux bus ioctls whose request numbers and structures are macros or
// kernel types Swift cannot import directly. Each returns what the system call returned (-1 with
// errno set on failure); no policy lives here.
#ifndef HEADWAY_LINUX_BUSES_H
#define HEADWAY_LINUX_BUSES_H

#include <stdint.h>

/// I2C_FUNC_I2C: the adapter can do plain I2C messages (I2C_RDWR, write()).
extern const unsigned long hw_i2c_func_i2c;
/// I2C_FUNC_SMBUS_WRITE_I2C_BLOCK: the adapter can do SMBus I2C-block writes.
extern const unsigned long hw_i2c_func_smbus_write_i2c_block;
/// The longest message i2c-dev accepts (the kernel's 8192-byte limit).
extern const int hw_i2c_max_message;
/// I2C_SMBUS_BLOCK_MAX: data bytes in one SMBus block transfer.
extern const int hw_smbus_block_max;

/// ioctl(fd, I2C_FUNCS, funcs)
int hw_i2c_funcs(int fd, unsigned long *funcs);
/// ioctl(fd, I2C_SLAVE, address): the address later read()/write()/SMBus calls go to.
int hw_i2c_set_address(int fd, uint16_t address);
/// One combined I2C_RDWR transaction of `count` write messages to `address` (at most 42).
int hw_i2c_write_messages(int fd, uint16_t address, const uint8_t *const *buffers, const uint16_t *lengths, uint32_t count);
/// Whether a device answers at `address`, as i2cdetect asks: the address with no data (an SMBus
/// quick write). 1: it acknowledged; 0: no acknowledgement; -1 with errno EBUSY: a kernel driver
/// owns the address ("UU"); -1 with another errno: the probe itself failed.
int hw_i2c_probe(int fd, uint16_t address);
/// libi2c's i2c_smbus_write_i2c_block_data: `command`, then `length` (≤ 32) data bytes.
int hw_smbus_write_block(int fd, uint8_t command, uint8_t length, const uint8_t *values);

/// SPI_IOC_WR_MODE: the SPI mode (0…3) for later transfers.
int hw_spi_set_mode(int fd, uint8_t mode);
/// One SPI_IOC_MESSAGE(1) write of `length` bytes at `speed_hz`, `bits_per_word` bits a word.
int hw_spi_write(int fd, const uint8_t *bytes, uint32_t length, uint32_t speed_hz, uint8_t bits_per_word);

#endif
