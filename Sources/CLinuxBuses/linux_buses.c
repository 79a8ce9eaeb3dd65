#include "linux_buses.h"

#include <errno.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/spi/spidev.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

const unsigned long hw_i2c_func_i2c = I2C_FUNC_I2C;
const unsigned long hw_i2c_func_smbus_write_i2c_block = I2C_FUNC_SMBUS_WRITE_I2C_BLOCK;
const int hw_i2c_max_message = 8192;
const int hw_smbus_block_max = I2C_SMBUS_BLOCK_MAX;

int hw_i2c_funcs(int fd, unsigned long *funcs) { return ioctl(fd, I2C_FUNCS, funcs); }

int hw_i2c_set_address(int fd, uint16_t address) { return ioctl(fd, I2C_SLAVE, (unsigned long)address); }

int hw_i2c_probe(int fd, uint16_t address) {
    if (ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0) return -1;
    struct i2c_smbus_ioctl_data quick = {.read_write = I2C_SMBUS_WRITE, .command = 0, .size = I2C_SMBUS_QUICK, .data = NULL};
    if (ioctl(fd, I2C_SMBUS, &quick) == 0) return 1;
    // Adapters say "no acknowledgement" differently: bcm2835 EREMOTEIO, i2c-stub ENODEV, others ENXIO or EIO.
    if (errno == ENXIO || errno == EREMOTEIO || errno == EIO || errno == ENODEV || errno == ETIMEDOUT) return 0;
    return -1;
}

int hw_i2c_write_messages(int fd, uint16_t address, const uint8_t *const *buffers, const uint16_t *lengths, uint32_t count) {
    if (count == 0 || count > I2C_RDWR_IOCTL_MAX_MSGS) {
        errno = EINVAL;
        return -1;
    }
    struct i2c_msg messages[I2C_RDWR_IOCTL_MAX_MSGS];
    for (uint32_t i = 0; i < count; i++) {
        messages[i].addr = address;
        messages[i].flags = 0;
        messages[i].len = lengths[i];
        messages[i].buf = (uint8_t *)buffers[i];
    }
    struct i2c_rdwr_ioctl_data data = {.msgs = messages, .nmsgs = count};
    return ioctl(fd, I2C_RDWR, &data);
}

int hw_smbus_write_block(int fd, uint8_t command, uint8_t length, const uint8_t *values) {
    return i2c_smbus_write_i2c_block_data(fd, command, length, values);
}

int hw_spi_set_mode(int fd, uint8_t mode) { return ioctl(fd, SPI_IOC_WR_MODE, &mode); }

int hw_spi_write(int fd, const uint8_t *bytes, uint32_t length, uint32_t speed_hz, uint8_t bits_per_word) {
    struct spi_ioc_transfer transfer;
    memset(&transfer, 0, sizeof transfer);  // spidev requires the unused fields to be zero
    transfer.tx_buf = (uintptr_t)bytes;
    transfer.len = length;
    transfer.speed_hz = speed_hz;
    transfer.bits_per_word = bits_per_word;
    return ioctl(fd, SPI_IOC_MESSAGE(1), &transfer);
}
