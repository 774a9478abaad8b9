// The embedded init program (see init_image.h): its bytes come from the build (.incbin of the
// static binary CMake builds from container_init.c); a sealed memfd holds them at run time.
#include "host/cluster/local/init_image.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#ifndef JOBHOST_CONTAINER_INIT
#error "JOBHOST_CONTAINER_INIT must name the built init program (host/cluster/local/CMakeLists.txt)"
#endif

asm(".section .rodata\n"
    ".balign 16\n"
    ".globl jobhost_container_init_image\n"
    ".hidden jobhost_container_init_image\n"
    "jobhost_container_init_image:\n"
    ".incbin \"" JOBHOST_CONTAINER_INIT "\"\n"
    ".globl jobhost_container_init_image_end\n"
    ".hidden jobhost_container_init_image_end\n"
    "jobhost_container_init_image_end:\n"
    ".previous\n");

extern "C" {
__attribute__((visibility("hidden"))) extern const unsigned char jobhost_container_init_image[];
__attribute__((visibility("hidden"))) extern const unsigned char jobhost_container_init_image_end[];
}

namespace jobhost::local {
namespace {

#ifndef MFD_EXEC
constexpr unsigned kMfdExec = 0x0010U;  // Linux 6.3: executable memfd, stated explicitly
#else
constexpr unsigned kMfdExec = MFD_EXEC;
#endif

struct Image {
  int fd = -1;
  std::string error;
};

Image load() {
  int fd = ::memfd_create("jobhost-init", MFD_CLOEXEC | MFD_ALLOW_SEALING | kMfdExec);
  if (fd < 0 && errno == EINVAL) fd = ::memfd_create("jobhost-init", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return {-1, std::string("memfd_create: ") + std::strerror(errno)};
  const unsigned char* data = jobhost_container_init_image;
  size_t left = static_cast<size_t>(jobhost_container_init_image_end - jobhost_container_init_image);
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return {-1, std::string("cannot write the init program: ") + std::strerror(err)};
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  // exec refuses files open for writing on some kernels: keep a read-only descriptor only.
  const int ro = ::open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_RDONLY | O_CLOEXEC);
  if (ro < 0) return {fd, ""};
  ::close(fd);
  return {ro, ""};
}

const Image& image() {
  static const Image loaded = load();
  return loaded;
}

}  // namespace

int initImageFd() { return image().fd; }
std::string initImageError() { return image().error; }

}  // namespace jobhost::local
