// SPDX-License-Identifier: GPL-2.0
/*
 * An I2C adapter that records what is sent through it, for Headway's kernel tests.
 *
 * It answers at a few addresses (parameter `address`, a list: 0x3c where OLEDs sit, 0x70 an
 * HT16K33's and 0x74 an IS31FL3731's by default) and logs every message of
 * every transfer to debugfs (headway-i2c-recorder/log) as "w 3c 40 01 02" or "r 3c 2", one
 * transfer per line group ending in an empty line. Writing anything to the log clears it.
 * Setting the writable parameter `nack` to 1 makes every transfer fail as an absent device would
 * (-ENXIO), so unplugging a display can be tested through the real i2c-dev path.
 * Reads return bytes of a 256-byte register file from the register the last write selected.
 */
#include <linux/i2c.h>
#include <linux/module.h>

#include "recording-log.h"

static unsigned short addresses[8] = { 0x3c, 0x70, 0x74 };
static int address_count = 3;
module_param_array_named(address, addresses, ushort, &address_count, 0444);
MODULE_PARM_DESC(address, "7-bit addresses the recorder answers at (up to 8)");

static bool nack;
module_param(nack, bool, 0644);
MODULE_PARM_DESC(nack, "fail every transfer with -ENXIO, as if the device were unplugged");

static struct recording_log recording;
static u8 registers[256];
static u8 selected;

static bool answers(u16 addr)
{
	int i;

	for (i = 0; i < address_count; i++)
		if (addresses[i] == addr)
			return true;
	return false;
}

static int recorder_xfer(struct i2c_adapter *adapter, struct i2c_msg *msgs, int num)
{
	int i, j;

	if (READ_ONCE(nack))
		return -ENXIO;
	for (i = 0; i < num; i++)
		if (!answers(msgs[i].addr) || (msgs[i].flags & I2C_M_TEN))
			return -ENXIO;

	mutex_lock(&recording.lock);
	for (i = 0; i < num; i++) {
		struct i2c_msg *msg = &msgs[i];

		if (msg->flags & I2C_M_RD) {
			recording_log_printf(&recording, "r %02x %u\n", msg->addr, msg->len);
			for (j = 0; j < msg->len; j++)
				msg->buf[j] = registers[(u8)(selected + j)];
		} else {
			recording_log_printf(&recording, "w %02x", msg->addr);
			recording_log_bytes(&recording, msg->buf, msg->len);
			recording_log_append(&recording, "\n", 1);
			if (msg->len > 0)
				selected = msg->buf[0];
			for (j = 1; j < msg->len; j++)
				registers[(u8)(selected + j - 1)] = msg->buf[j];
		}
	}
	recording_log_append(&recording, "\n", 1);
	mutex_unlock(&recording.lock);
	return num;
}

static u32 recorder_functionality(struct i2c_adapter *adapter)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm recorder_algorithm = {
	.master_xfer = recorder_xfer,
	.functionality = recorder_functionality,
};

static struct i2c_adapter recorder_adapter = {
	.owner = THIS_MODULE,
	.algo = &recorder_algorithm,
	.name = "headway-i2c-recorder",
};

static int __init recorder_init(void)
{
	int error, i;

	for (i = 0; i < address_count; i++)
		if (addresses[i] > 0x7f)
			return -EINVAL;
	error = recording_log_create(&recording, "headway-i2c-recorder", 4 << 20);
	if (error)
		return error;
	error = i2c_add_adapter(&recorder_adapter);
	if (error)
		recording_log_destroy(&recording);
	return error;
}

static void __exit recorder_exit(void)
{
	i2c_del_adapter(&recorder_adapter);
	recording_log_destroy(&recording);
}

module_init(recorder_init);
module_exit(recorder_exit);
MODULE_DESCRIPTION("I2C adapter that records every message, for Headway's kernel tests");
MODULE_LICENSE("GPL");
