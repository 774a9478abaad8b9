// The native containers' init program (container_init.c), built static and embedded in the host
// library, as an executable in-memory file: nothing to install or find on disk.
#pragma once

#include <string>

namespace jobhost::local {

/// A read-only descriptor (close-on-exec) of the init program for execveat, created on first use;
/// -1 when it cannot be created, with the reason in initImageError().
int initImageFd();
std::string initImageError();

}  // namespace jobhost::local
