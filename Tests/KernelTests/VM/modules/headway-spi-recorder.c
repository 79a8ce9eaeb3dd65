// SPDX-License-Identifier: GPL-2.0
/*
 * An SPI controller that records what is sent through it, for Headway's kernel tests.
 *
 * It registers as bus 0 with one chip select and adds a child device whose modalias spidev knows
 * ("dh2228fv"), so the built-in spidev binds and /dev/spidev0.0 appears with no device tree.
 * Each transfer is logged to debugfs (headway-spi-recorder/log) as one line:
 *   speed=<Hz> bits=<bits per word> mode=<0..3> len=<bytes> data=<hex bytes>
 * where speed is what the SPI core settled on (requests above `max_speed_hz` are clamped).
 * Writing anything to the log clears it.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/vmalloc.h>

#define LOG_CAPACITY (8 << 20)

static unsigned int max_speed_hz = 20000000;
module_param(max_speed_hz, uint, 0444);
MODULE_PARM_DESC(max_speed_hz, "fastest clock the controller offers");

static DEFINE_MUTEX(log_lock);
static char *log_buffer;
static size_t log_length;
static bool log_full;
static struct dentry *debug_dir;
static struct platform_device *recorder_device;
static struct spi_device *child;

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

static int recorder_transfer_one(struct spi_controller *controller, struct spi_device *spi,
				 struct spi_transfer *transfer)
{
	const u8 *bytes = transfer->tx_buf;
	unsigned int i;

	mutex_lock(&log_lock);
	record("speed=%u bits=%u mode=%u len=%u data=", transfer->speed_hz,
	       transfer->bits_per_word, (unsigned int)(spi->mode & (SPI_CPOL | SPI_CPHA)), transfer->len);
	for (i = 0; bytes && i < transfer->len; i++)
		record(i ? " %02x" : "%02x", bytes[i]);
	record("\n");
	mutex_unlock(&log_lock);
	if (transfer->rx_buf)
		memset(transfer->rx_buf, 0, transfer->len);
	return 0;
}

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

static int recorder_probe(struct platform_device *pdev)
{
	struct spi_board_info info = {
		.modalias = "dh2228fv",
		.max_speed_hz = max_speed_hz,
		.bus_num = 0,
		.chip_select = 0,
		.mode = SPI_MODE_0,
	};
	struct spi_controller *controller;
	int error;

	controller = devm_spi_alloc_host(&pdev->dev, 0);
	if (!controller)
		return -ENOMEM;
	controller->bus_num = 0;
	controller->num_chipselect = 1;
	controller->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST;
	controller->bits_per_word_mask = SPI_BPW_RANGE_MASK(1, 32);
	controller->max_speed_hz = max_speed_hz;
	controller->min_speed_hz = 1000;
	controller->transfer_one = recorder_transfer_one;
	error = devm_spi_register_controller(&pdev->dev, controller);
	if (error)
		return error;
	child = spi_new_device(controller, &info);
	if (!child)
		return -ENODEV;
	if (!child->dev.driver)
		dev_warn(&pdev->dev, "spidev did not bind to %s: no /dev/spidev0.0\n", info.modalias);
	return 0;
}

static struct platform_driver recorder_driver = {
	.probe = recorder_probe,
	.driver = { .name = "headway-spi-recorder" },
};

static int __init recorder_init(void)
{
	int error;

	log_buffer = vmalloc(LOG_CAPACITY);
	if (!log_buffer)
		return -ENOMEM;
	debug_dir = debugfs_create_dir("headway-spi-recorder", NULL);
	debugfs_create_file("log", 0600, debug_dir, NULL, &log_operations);
	error = platform_driver_register(&recorder_driver);
	if (error)
		goto fail;
	recorder_device = platform_device_register_simple("headway-spi-recorder", -1, NULL, 0);
	if (IS_ERR(recorder_device)) {
		error = PTR_ERR(recorder_device);
		platform_driver_unregister(&recorder_driver);
		goto fail;
	}
	return 0;
fail:
	debugfs_remove_recursive(debug_dir);
	vfree(log_buffer);
	return error;
}

static void __exit recorder_exit(void)
{
	if (child)
		spi_unregister_device(child);
	platform_device_unregister(recorder_device);
	platform_driver_unregister(&recorder_driver);
	debugfs_remove_recursive(debug_dir);
	vfree(log_buffer);
}

module_init(recorder_init);
module_exit(recorder_exit);
MODULE_DESCRIPTION("SPI controller that records every transfer, for Headway's kernel tests");
MODULE_LICENSE("GPL");
