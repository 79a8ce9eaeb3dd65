// libgpiod 2.x (API v2): requests own their lines and one file descriptor; chips are opened by path
// only, so names and labels are resolved here by scanning /dev/gpiochip*.
#include <gpiod.h>
#ifndef GPIOD_LINE_BULK_INITIALIZER

#include "linux_gpio.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hw_gpio_chip {
    struct gpiod_chip *chip;
    char label[64];
    char name[32];
    unsigned lines;
};

struct hw_gpio_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned count;
};

int hw_gpio_api(void) { return 2; }
const char *hw_gpio_library_version(void) { return gpiod_api_version(); }

static hw_gpio_chip *wrap(struct gpiod_chip *chip) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) {
        gpiod_chip_close(chip);
        return NULL;
    }
    hw_gpio_chip *handle = calloc(1, sizeof *handle);
    handle->chip = chip;
    snprintf(handle->label, sizeof handle->label, "%s", gpiod_chip_info_get_label(info));
    snprintf(handle->name, sizeof handle->name, "%s", gpiod_chip_info_get_name(info));
    handle->lines = (unsigned)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return handle;
}

int hw_gpio_line_holder(hw_gpio_chip *chip, unsigned offset, char *consumer, unsigned size) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return -1;
    const char *name = gpiod_line_info_get_consumer(info);
    snprintf(consumer, size, "%s", name ? name : "");
    int used = gpiod_line_info_is_used(info) ? 1 : 0;
    gpiod_line_info_free(info);
    return used;
}

hw_gpio_chip *hw_gpio_open(const char *which) {
    char path[300];
    if (which[0] == '/') {
        struct gpiod_chip *chip = gpiod_chip_open(which);
        return chip ? wrap(chip) : NULL;
    }
    if (strncmp(which, "gpiochip", 8) == 0) {
        snprintf(path, sizeof path, "/dev/%s", which);
        struct gpiod_chip *chip = gpiod_chip_open(path);
        return chip ? wrap(chip) : NULL;
    }
    DIR *dev = opendir("/dev");
    if (!dev) return NULL;
    struct dirent *entry;
    hw_gpio_chip *found = NULL;
    while (!found && (entry = readdir(dev))) {
        if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
        snprintf(path, sizeof path, "/dev/%s", entry->d_name);
        if (!gpiod_is_gpiochip_device(path)) continue;
        struct gpiod_chip *chip = gpiod_chip_open(path);
        if (!chip) continue;
        hw_gpio_chip *candidate = wrap(chip);
        if (candidate && strcmp(candidate->label, which) == 0)
            found = candidate;
        else if (candidate)
            hw_gpio_close(candidate);
    }
    closedir(dev);
    if (!found) errno = ENOENT;
    return found;
}

const char *hw_gpio_chip_label(hw_gpio_chip *chip) { return chip->label; }
const char *hw_gpio_chip_name(hw_gpio_chip *chip) { return chip->name; }
unsigned hw_gpio_chip_line_count(hw_gpio_chip *chip) { return chip->lines; }

void hw_gpio_close(hw_gpio_chip *chip) {
    gpiod_chip_close(chip->chip);
    free(chip);
}

/// Frees the settings objects of a request, keeping errno from the request itself.
static void free_configs(struct gpiod_line_settings *settings, struct gpiod_line_config *lines) {
    int saved = errno;
    gpiod_line_settings_free(settings);
    gpiod_line_config_free(lines);
    errno = saved;
}

static struct gpiod_line_request *request_lines(hw_gpio_chip *chip, struct gpiod_line_config *lines, const char *consumer) {
    struct gpiod_request_config *config = gpiod_request_config_new();
    if (!config) return NULL;
    gpiod_request_config_set_consumer(config, consumer);
    struct gpiod_line_request *request = gpiod_chip_request_lines(chip->chip, config, lines);
    int saved = errno;
    gpiod_request_config_free(config);
    errno = saved;
    return request;
}

hw_gpio_request *hw_gpio_request_outputs(hw_gpio_chip *chip, const unsigned *offsets, unsigned count, int active_low,
                                         const int *initial, const char *consumer) {
    if (count == 0 || count > 64) {
        errno = EINVAL;
        return NULL;
    }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_line_request *request = NULL;
    if (settings && lines) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_active_low(settings, active_low != 0);
        int ok = 1;
        for (unsigned i = 0; i < count && ok; i++) {
            gpiod_line_settings_set_output_value(settings, initial[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
            ok = gpiod_line_config_add_line_settings(lines, &offsets[i], 1, settings) == 0;
        }
        if (ok) request = request_lines(chip, lines, consumer);
    }
    free_configs(settings, lines);
    if (!request) return NULL;
    hw_gpio_request *handle = calloc(1, sizeof *handle);
    handle->request = request;
    handle->count = count;
    return handle;
}

hw_gpio_request *hw_gpio_request_input(hw_gpio_chip *chip, unsigned offset, int bias, int active_low, const char *consumer) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_line_request *request = NULL;
    if (settings && lines) {
        enum gpiod_line_bias value = GPIOD_LINE_BIAS_AS_IS;
        if (bias == HW_GPIO_BIAS_DISABLED) value = GPIOD_LINE_BIAS_DISABLED;
        if (bias == HW_GPIO_BIAS_PULL_UP) value = GPIOD_LINE_BIAS_PULL_UP;
        if (bias == HW_GPIO_BIAS_PULL_DOWN) value = GPIOD_LINE_BIAS_PULL_DOWN;
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_bias(settings, value);
        gpiod_line_settings_set_active_low(settings, active_low != 0);
        if (gpiod_line_config_add_line_settings(lines, &offset, 1, settings) == 0) request = request_lines(chip, lines, consumer);
    }
    free_configs(settings, lines);
    if (!request) return NULL;
    hw_gpio_request *handle = calloc(1, sizeof *handle);
    handle->request = request;
    handle->events = gpiod_edge_event_buffer_new(16);
    handle->count = 1;
    return handle;
}

int hw_gpio_set(hw_gpio_request *request, const int *values) {
    enum gpiod_line_value levels[64];
    for (unsigned i = 0; i < request->count; i++) levels[i] = values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
    return gpiod_line_request_set_values(request->request, levels);
}

int hw_gpio_get(hw_gpio_request *request, int *values) {
    enum gpiod_line_value levels[64];
    if (gpiod_line_request_get_values(request->request, levels) < 0) return -1;
    for (unsigned i = 0; i < request->count; i++) values[i] = levels[i] == GPIOD_LINE_VALUE_ACTIVE;
    return 0;
}

int hw_gpio_read_edge(hw_gpio_request *request, int64_t timeout_ns, int *rising, uint64_t *timestamp_ns) {
    int ready = gpiod_line_request_wait_edge_events(request->request, timeout_ns);
    if (ready <= 0) return ready;
    if (gpiod_line_request_read_edge_events(request->request, request->events, 1) < 1) return -1;
    struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->events, 0);
    *rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    *timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    return 1;
}

void hw_gpio_release(hw_gpio_request *request) {
    gpiod_line_request_release(request->request);
    if (request->events) gpiod_edge_event_buffer_free(request->events);
    free(request);
}

#endif
