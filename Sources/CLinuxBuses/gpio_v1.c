// libgpiod 1.6 (API v1): lines are gpiod_line objects grouped in a bulk; events are per line.
#include <gpiod.h>
#ifdef GPIOD_LINE_BULK_INITIALIZER

#include "linux_gpio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hw_gpio_chip {
    struct gpiod_chip *chip;
};

struct hw_gpio_request {
    struct gpiod_line_bulk bulk;
};

int hw_gpio_api(void) { return 1; }
const char *hw_gpio_library_version(void) { return gpiod_version_string(); }

hw_gpio_chip *hw_gpio_open(const char *which) {
    struct gpiod_chip *chip;
    if (which[0] == '/')
        chip = gpiod_chip_open(which);
    else if (strncmp(which, "gpiochip", 8) == 0)
        chip = gpiod_chip_open_by_name(which);
    else
        chip = gpiod_chip_open_by_label(which);
    if (!chip) {
        if (errno == 0) errno = ENOENT;
        return NULL;
    }
    hw_gpio_chip *handle = calloc(1, sizeof *handle);
    handle->chip = chip;
    return handle;
}

const char *hw_gpio_chip_label(hw_gpio_chip *chip) { return gpiod_chip_label(chip->chip); }

int hw_gpio_line_holder(hw_gpio_chip *chip, unsigned offset, char *consumer, unsigned size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line || gpiod_line_update(line) < 0) return -1;
    const char *name = gpiod_line_consumer(line);
    snprintf(consumer, size, "%s", name ? name : "");
    return gpiod_line_is_used(line) ? 1 : 0;
}
const char *hw_gpio_chip_name(hw_gpio_chip *chip) { return gpiod_chip_name(chip->chip); }
unsigned hw_gpio_chip_line_count(hw_gpio_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

void hw_gpio_close(hw_gpio_chip *chip) {
    gpiod_chip_close(chip->chip);
    free(chip);
}

static int bias_flags(int bias) {
    switch (bias) {
    case HW_GPIO_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case HW_GPIO_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case HW_GPIO_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return 0;
    }
}

hw_gpio_request *hw_gpio_request_outputs(hw_gpio_chip *chip, const unsigned *offsets, unsigned count, int active_low,
                                         const int *initial, const char *consumer) {
    if (count == 0 || count > GPIOD_LINE_BULK_MAX_LINES) {
        errno = EINVAL;
        return NULL;
    }
    hw_gpio_request *request = calloc(1, sizeof *request);
    if (gpiod_chip_get_lines(chip->chip, (unsigned *)offsets, count, &request->bulk) < 0 ||
        gpiod_line_request_bulk_output_flags(&request->bulk, consumer, active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0,
                                             initial) < 0) {
        int saved = errno;
        free(request);
        errno = saved;
        return NULL;
    }
    return request;
}

hw_gpio_request *hw_gpio_request_input(hw_gpio_chip *chip, unsigned offset, int bias, int active_low, const char *consumer) {
    hw_gpio_request *request = calloc(1, sizeof *request);
    gpiod_line_bulk_init(&request->bulk);
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    int flags = bias_flags(bias) | (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0);
    if (!line || gpiod_line_request_both_edges_events_flags(line, consumer, flags) < 0) {
        int saved = errno;
        free(request);
        errno = saved;
        return NULL;
    }
    gpiod_line_bulk_add(&request->bulk, line);
    return request;
}

int hw_gpio_set(hw_gpio_request *request, const int *values) {
    return gpiod_line_set_value_bulk(&request->bulk, values);
}

int hw_gpio_get(hw_gpio_request *request, int *values) { return gpiod_line_get_value_bulk(&request->bulk, values); }

int hw_gpio_read_edge(hw_gpio_request *request, int64_t timeout_ns, int *rising, uint64_t *timestamp_ns) {
    struct gpiod_line *line = gpiod_line_bulk_get_line(&request->bulk, 0);
    struct timespec timeout = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    int ready = gpiod_line_event_wait(line, &timeout);
    if (ready <= 0) return ready;
    struct gpiod_line_event event;
    if (gpiod_line_event_read(line, &event) < 0) return -1;
    *rising = event.event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    *timestamp_ns = (uint64_t)event.ts.tv_sec * 1000000000u + (uint64_t)event.ts.tv_nsec;
    return 1;
}

void hw_gpio_release(hw_gpio_request *request) {
    gpiod_line_release_bulk(&request->bulk);
    free(request);
}

#endif
