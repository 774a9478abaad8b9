/* How jobhost and a native container's init (container_init.c) talk, in C and C++: the
 * descriptors of the container's first process, and the report the init writes when the command ends. */
#pragma once

#include <stdint.h>

enum {
  JOBHOST_INIT_STATUS_FD = 3,     /* the status pipe's write end (O_NONBLOCK); the command has none */
  JOBHOST_INIT_IMAGE_FD = 4,      /* the init program (close-on-exec), until the init runs */
  JOBHOST_INIT_FIRST_FREE_FD = 5, /* setup uses descriptors from here on (shadowed directories) */
};

enum {
  JOBHOST_INIT_EXITED = 1, /* value: the command's wait status */
};

struct jobhost_init_report {
  int32_t kind;
  int32_t value;
};
