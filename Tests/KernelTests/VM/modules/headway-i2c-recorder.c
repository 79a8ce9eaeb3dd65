// SPDX-License-Identifier: GPL-2.0
/*
 * An I2C adapter that records what is sent through it, for Headway's kernel tests.
 *
 * It answers at one address (parameter `address`, 0x3c by default) and logs every message of
 * every transfer to debugfs (headway-i2c-recorder/log) as "w 3c 40 01 02" or "r 3c 2", one
 * transfer per line group ending in an empty line. Writing anything to the log clears it.
 * Setting the writable parameter `nack` to 1 makes every transfer fail as an absent device would
 * (-ENXIO), so unplugging a display can be tested through the real i2c-dev path.
 * Reads return bytes of a 256-byte register file from the register the last write selected.
 */
#include <linux/debugfs.h>
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>

#define LOG_CAPACITY (4 << 20)

static unsigned short address = 0x3c;
module_param(address, ushort, 0444);
MODULE_PARM_DESC(address, "7-bit address the recorder answers at");

static bool nack;
module_param(nack, bool, 0644);
MODULE_PARM_DESC(nack, "fail every transfer with -ENXIO, as if the device were unplugged");

static DEFINE_MUTEX(log_lock);
static char *log_buffer;
static size_t log_length;
static bool log_full;
static u8 registers[256];
static u8 selected;
static struct dentry *debug_dir;

/* Appends formatted text to the log; once full, drops the rest and says so when read. */
static __printf(1, 2) void record(const char *format, ...)
{
	va_list args;
	int written;

	if (log_full)
		return;
	va_start(args, format);
	written = vsnprintf(log_buffer + log_length, LOG_CAPACITY - log_length, format, args);
	va_end(args);
	if (written >= LOG_CAPACITY - log_length)
		log_full = true;
	else
		log_length += written;
}

static int recorder_xfer(struct i2c_adapter *adapter, struct i2c_msg *msgs, int num)
{
	int i, j;

	if (READ_ONCE(nack))
		return -ENXIO;
	for (i = 0; i < num; i++)
		if (msgs[i].addr != address || (msgs[i].flags & I2C_M_TEN))
			return -ENXIO;

	mutex_lock(&log_lock);
	for (i = 0; i < num; i++) {
		struct i2c_msg *msg = &msgs[i];

		if (msg->flags & I2C_M_RD) {
			record("r %02x %u\n", msg->addr, msg->len);
			for (j = 0; j < msg->len; j++)
				msg->buf[j] = registers[(u8)(selected + j)];
		} else {
			record("w %02x", msg->addr);
			for (j = 0; j < msg->len; j++)
				record(" %02x", msg->buf[j]);
			record("\n");
			if (msg->len > 0)
				selected = msg->buf[0];
			for (j = 1; j < msg->len; j++)
				registers[(u8)(selected + j - 1)] = msg->buf[j];
		}
	}
	record("\n");
	mutex_unlock(&log_lock);
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

static ssize_t log_read(struct file *file, char __user *to, size_t count, loff_t *position)
{
	static const char full_note[] = "log full: later transfers were not recorded\n";
	ssize_t result;

	mutex_lock(&log_lock);
	if (log_full && *position >= log_length)
		result = simple_read_from_buffer(to, count, position, full_note, sizeof(full_note) - 1);
	else
		result = simple_read_from_buffer(to, count, position, log_buffer, log_length);
	mutex_unlock(&log_lock);
	return result;
}

static ssize_t log_write(struct file *file, const char __user *from, size_t count, loff_t *position)
{
	mutex_lock(&log_lock);
	log_length = 0;
	log_full = false;
	mutex_unlock(&log_lock);
	return count;
}

static const struct file_operations log_operations = {
	.owner = THIS_MODULE,
	.read = log_read,
	.write = log_write,
	.llseek = default_llseek,
};

static int __init recorder_init(void)
{
	int error;

	if (address > 0x7f)
		return -EINVAL;
	log_buffer = vmalloc(LOG_CAPACITY);
	if (!log_buffer)
		return -ENOMEM;
	error = i2c_add_adapter(&recorder_adapter);
	if (error) {
		vfree(log_buffer);
		return error;
	}
	debug_dir = debugfs_create_dir("headway-i2c-recorder", NULL);
	debugfs_create_file("log", 0600, debug_dir, NULL, &log_operations);
	return 0;
}

static void __exit recorder_exit(void)
{
	debugfs_remove_recursive(debug_dir);
	i2c_del_adapter(&recorder_adapter);
	vfree(log_buffer);
}

module_init(recorder_init);
module_exit(recorder_exit);
MODULE_DESCRIPTION("I2C adapter that records every message, for Headway's kernel tests");
MODULE_LICENSE("GPL");
