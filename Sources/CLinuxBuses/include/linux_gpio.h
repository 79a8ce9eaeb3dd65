// GPIO lines through libgpiod, with one C interface over its two incompatible APIs: 1.6 (Debian 12,
// Ubuntu 24.04, Raspberry Pi OS bookworm) and 2.x (Debian 13, Raspberry Pi OS trixie). Which one is
// compiled is decided by the installed <gpiod.h>: only 1.x defines GPIOD_LINE_BULK_INITIALIZER.
// Functions return NULL or -1 with errno set on failure.
#ifndef HEADWAY_LINUX_GPIO_H
#define HEADWAY_LINUX_GPIO_H

#include <stdint.h>

typedef struct hw_gpio_chip hw_gpio_chip;
typedef struct hw_gpio_request hw_gpio_request;

enum { HW_GPIO_BIAS_AS_IS = 0, HW_GPIO_BIAS_DISABLED = 1, HW_GPIO_BIAS_PULL_UP = 2, HW_GPIO_BIAS_PULL_DOWN = 3 };

/// The libgpiod API this was built against: 1 or 2.
int hw_gpio_api(void);
/// libgpiod's own version string.
const char *hw_gpio_library_version(void);

/// Opens a chip by path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1).
hw_gpio_chip *hw_gpio_open(const char *which);
const char *hw_gpio_chip_label(hw_gpio_chip *chip);
const char *hw_gpio_chip_name(hw_gpio_chip *chip);
unsigned hw_gpio_chip_line_count(hw_gpio_chip *chip);
void hw_gpio_close(hw_gpio_chip *chip);
/// Who holds line `offset`: 1 when it is in use (its consumer copied into `consumer`, possibly
/// empty), 0 when it is free, -1 with errno on failure.
int hw_gpio_line_holder(hw_gpio_chip *chip, unsigned offset, char *consumer, unsigned size);

/// Requests `count` lines as outputs, set together; `initial` holds logical values.
hw_gpio_request *hw_gpio_request_outputs(hw_gpio_chip *chip, const unsigned *offsets, unsigned count, int active_low,
                                         const int *initial, const char *consumer);
/// Requests one line as an input with edge events on both edges.
hw_gpio_request *hw_gpio_request_input(hw_gpio_chip *chip, unsigned offset, int bias, int active_low, const char *consumer);
/// Sets every line of an output request at once (logical values).
int hw_gpio_set(hw_gpio_request *request, const int *values);
/// Reads every line of a request (logical values).
int hw_gpio_get(hw_gpio_request *request, int *values);
/// Waits up to `timeout_ns` for an edge on an input request: 1 with the edge, 0 on timeout, -1 on error.
int hw_gpio_read_edge(hw_gpio_request *request, int64_t timeout_ns, int *rising, uint64_t *timestamp_ns);
void hw_gpio_release(hw_gpio_request *request);

#endif
