/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs log both recording drivers keep: text appended under `lock` (callers hold it for a
 * whole transfer so records never interleave), read whole from <name>/log, cleared by any write
 * to it. Once full, later records are dropped and a read says so at the end.
 */
#ifndef HEADWAY_RECORDING_LOG_H
#define HEADWAY_RECORDING_LOG_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>

struct recording_log {
	struct mutex lock;
	char *buffer;
	size_t length;
	size_t capacity;
	bool full;
	struct dentry *directory;
};

static inline void recording_log_append(struct recording_log *log, const char *text, size_t count)
{
	if (log->full || count > log->capacity - log->length) {
		log->full = true;
		return;
	}
	memcpy(log->buffer + log->length, text, count);
	log->length += count;
}

static inline __printf(2, 3) void recording_log_printf(struct recording_log *log, const char *format, ...)
{
	char line[64];
	va_list args;
	int count;

	va_start(args, format);
	count = vscnprintf(line, sizeof(line), format, args);
	va_end(args);
	recording_log_append(log, line, count);
}

/* Appends " xx" for each byte. */
static inline void recording_log_bytes(struct recording_log *log, const u8 *bytes, size_t count)
{
	char text[3] = { ' ' };
	size_t i;

	for (i = 0; i < count; i++) {
		hex_byte_pack(text + 1, bytes[i]);
		recording_log_append(log, text, sizeof(text));
	}
}

static ssize_t recording_log_read(struct file *file, char __user *to, size_t count, loff_t *position)
{
	static const char full_note[] = "log full: later transfers were not recorded\n";
	struct recording_log *log = file->private_data;
	ssize_t result;

	mutex_lock(&log->lock);
	if (log->full && *position >= log->length) {
		loff_t note_position = *position - log->length;

		result = simple_read_from_buffer(to, count, &note_position, full_note, sizeof(full_note) - 1);
		*position = log->length + note_position;
	} else {
		result = simple_read_from_buffer(to, count, position, log->buffer, log->length);
	}
	mutex_unlock(&log->lock);
	return result;
}

static ssize_t recording_log_clear(struct file *file, const char __user *from, size_t count, loff_t *position)
{
	struct recording_log *log = file->private_data;

	mutex_lock(&log->lock);
	log->length = 0;
	log->full = false;
	mutex_unlock(&log->lock);
	return count;
}

static const struct file_operations recording_log_operations = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = recording_log_read,
	.write = recording_log_clear,
	.llseek = default_llseek,
};

static inline int recording_log_create(struct recording_log *log, const char *name, size_t capacity)
{
	mutex_init(&log->lock);
	log->buffer = vmalloc(capacity);
	if (!log->buffer)
		return -ENOMEM;
	log->capacity = capacity;
	log->directory = debugfs_create_dir(name, NULL);
	debugfs_create_file("log", 0600, log->directory, log, &recording_log_operations);
	return 0;
}

static inline void recording_log_destroy(struct recording_log *log)
{
	debugfs_remove_recursive(log->directory);
	vfree(log->buffer);
}

#endif
