// The C entry points of the Linux bus backends.
#include "linux_buses.h"
#include "linux_gpio.h"
