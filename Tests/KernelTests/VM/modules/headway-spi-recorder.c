// SPDX-License-Identifier: GPL-2.0
/*
 * An SPI controller that records what is sent through it, for Headway's kernel tests.
 *
 * It registers as bus 0 with one chip select and adds a child device whose modalias spidev knows
 * ("dh2228fv"), so the built-in spidev binds and /dev/spidev0.0 appears with no device tree.
 * Each transfer is logged to debugfs (headway-spi-recorder/log) as one line:
 *   speed=<Hz> bits=<bits per word> mode=<0..3> len=<bytes>: <hex bytes>
 * where speed is what the SPI core settled on (requests above `max_speed_hz` are clamped).
 * Writing anything to the log clears it.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>

#include "recording-log.h"

static unsigned int max_speed_hz = 20000000;
module_param(max_speed_hz, uint, 0444);
MODULE_PARM_DESC(max_speed_hz, "fastest clock the controller offers");

static struct recording_log recording;
static struct platform_device *recorder_device;
static struct spi_device *child;

static int recorder_transfer_one(struct spi_controller *controller, struct spi_device *spi,
				 struct spi_transfer *transfer)
{
	mutex_lock(&recording.lock);
	recording_log_printf(&recording, "speed=%u bits=%u mode=%u len=%u:", transfer->speed_hz,
			     transfer->bits_per_word, (unsigned int)(spi->mode & (SPI_CPOL | SPI_CPHA)), transfer->len);
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
