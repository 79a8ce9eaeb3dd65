// SPDX-License-Identifier: GPL-2.0
/*
 * An SPI controller that records what is sent through it, for Headway's kernel tests.
 *
 * It registers as bus 0 with one chip select and adds a child device whose modalias spidev knows
 * ("dh2228fv"), so the built-in spidev binds and /dev/spidev0.0 appears with no device tree.
 * Each transfer is logged to debugfs (headway-spi-recorder/log) as one line:
 *   speed=<Hz> bits=<bits per word> mode=<0..3> len=<bytes> dc=<0|1> reset=<0|1>: <hex bytes>
 * where speed is what the SPI core settled on (requests above `max_speed_hz` are clamped), and
 * dc and reset are the levels of a display's D/C and reset lines while the transfer is clocked:
 * lines `dc_line` and `reset_line` of the GPIO chip labelled `gpio_label` (gpio-sim's bank, which
 * keeps the level a consumer drives, or the line's pull when nobody does). Their raw values are
 * read without requesting the lines, so the program under test holds them as on a real board.
 * `-` means the line is not configured, `?` that it could not be read (no such chip or line).
 * Writing anything to the log clears it.
 */
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/string.h>
#include <linux/version.h>

#include "recording-log.h"
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/* gpiochip_get_desc is exported but declared only here, gpio-sim's copy of the kernel's header. */
#include "gpiolib.h"
#endif

static unsigned int max_speed_hz = 20000000;
module_param(max_speed_hz, uint, 0444);
MODULE_PARM_DESC(max_speed_hz, "fastest clock the controller offers");

static char *gpio_label;
module_param(gpio_label, charp, 0444);
MODULE_PARM_DESC(gpio_label, "label of the GPIO chip with the display's D/C and reset lines");

static int dc_line = -1;
module_param(dc_line, int, 0444);
MODULE_PARM_DESC(dc_line, "offset of the display's D/C line on gpio_label (-1: none)");

static int reset_line = -1;
module_param(reset_line, int, 0444);
MODULE_PARM_DESC(reset_line, "offset of the display's reset line on gpio_label (-1: none)");

static struct recording_log recording;
static struct platform_device *recorder_device;
static struct spi_device *child;

/* '0' or '1': the raw level of `desc`, '?' when there is no such line or it cannot be read. */
static char level(struct gpio_desc *desc)
{
	int value;

	if (IS_ERR_OR_NULL(desc))
		return '?';
	/* gpio-sim sleeps (a mutex guards its values); transfer_one runs in process context. */
	value = gpiod_get_raw_value_cansleep(desc);
	return value < 0 ? '?' : value ? '1' : '0';
}

/*
 * The level of line `offset` of the chip labelled `gpio_label`, '-' when not configured. The chip
 * is looked up at each transfer, not at load: gpio-sim's bank goes live after the modules are
 * inserted (/init creates it through configfs), and could go away again.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
/* 6.7 on (Debian 13's 6.12): chips are found as gpio_device, referenced while read. */
static char line_level(int offset)
{
	struct gpio_device *device;
	char result;

	if (offset < 0 || !gpio_label)
		return '-';
	device = gpio_device_find_by_label(gpio_label);
	if (!device)
		return '?';
	result = level(gpio_device_get_desc(device, offset));
	gpio_device_put(device);
	return result;
}
#else
/* Before 6.7 (Debian 12's 6.1): gpiochip_find and gpiochip_get_desc. */
static int chip_has_label(struct gpio_chip *chip, void *label)
{
	return chip->label && !strcmp(chip->label, label);
}

static char line_level(int offset)
{
	struct gpio_chip *chip;

	if (offset < 0 || !gpio_label)
		return '-';
	chip = gpiochip_find(gpio_label, chip_has_label);
	return chip ? level(gpiochip_get_desc(chip, offset)) : '?';
}
#endif

static int recorder_transfer_one(struct spi_controller *controller, struct spi_device *spi,
				 struct spi_transfer *transfer)
{
	char dc = line_level(dc_line), reset = line_level(reset_line);

	mutex_lock(&recording.lock);
	recording_log_printf(&recording, "speed=%u bits=%u mode=%u len=%u", transfer->speed_hz,
			     transfer->bits_per_word, (unsigned int)(spi->mode & (SPI_CPOL | SPI_CPHA)), transfer->len);
	recording_log_printf(&recording, " dc=%c reset=%c:", dc, reset);
	if (transfer->tx_buf)
		recording_log_bytes(&recording, transfer->tx_buf, transfer->len);
	recording_log_append(&recording, "\n", 1);
	mutex_unlock(&recording.lock);
	if (transfer->rx_buf)
		memset(transfer->rx_buf, 0, transfer->len);
	return 0;
}

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

	error = recording_log_create(&recording, "headway-spi-recorder", 8 << 20);
	if (error)
		return error;
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
	recording_log_destroy(&recording);
	return error;
}

static void __exit recorder_exit(void)
{
	if (child)
		spi_unregister_device(child);
	platform_device_unregister(recorder_device);
	platform_driver_unregister(&recorder_driver);
	recording_log_destroy(&recording);
}

module_init(recorder_init);
module_exit(recorder_exit);
MODULE_DESCRIPTION("SPI controller that records every transfer, for Headway's kernel tests");
MODULE_LICENSE("GPL");
