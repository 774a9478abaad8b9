// mimalloc's tuning for the executables that link jobhost::allocator: 2 MiB (transparent huge)
// pages, no decommit and an arena that keeps freed segments, set before any allocation.
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mimalloc.h>

namespace {

bool inEnvironment(char** envp, const char* variable) {
  const size_t length = std::strlen(variable);
  for (char** e = envp; e && *e; ++e)
    if (std::strncmp(*e, variable, length) == 0 && (*e)[length] == '=') return true;
  return false;
}

void setUnlessInEnvironment(char** envp, const char* variable, mi_option_t option, long value) {
  if (!inEnvironment(envp, variable)) mi_option_set(option, value);
}

// Without an arena, mimalloc returns a freed segment to the OS (munmap) and maps a fresh one
// later, whose first touch the kernel zeroes again: with 10,000 jobs in flight that was a sixth of
// the controller's cycles (perf, controller_bench). Segments taken from an arena go back to it
// instead. The arena is address space only (MAP_NORESERVE): memory is committed page by page on
// first touch, in 2 MiB pages where transparent huge pages allow. Past its 8 GiB mimalloc maps
// from the OS as before; if the space cannot be reserved (a ulimit -v), nothing changes. Under
// strict overcommit (vm.overcommit_memory=2) MAP_NORESERVE is ignored and the whole arena would be
// charged against the commit limit, so there is no arena there.
bool strictOvercommit() {
  const int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char mode = '0';
  const bool read1 = read(fd, &mode, 1) == 1;
  close(fd);
  return read1 && mode == '2';
}

void giveArena() {
  if (strictOvercommit()) return;
  constexpr size_t kAlign = size_t{64} << 20;  // mimalloc's arena block (segment) alignment
  constexpr size_t kSize = size_t{8} << 30;
  void* mapped = mmap(nullptr, kSize + kAlign, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) return;
  void* start = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(mapped) + kAlign - 1) & ~(kAlign - 1));
  madvise(start, kSize, MADV_HUGEPAGE);
  if (!mi_manage_os_memory(start, kSize, /*is_committed=*/true, /*is_large=*/false, /*is_zero=*/true, /*numa_node=*/-1))
    munmap(mapped, kSize + kAlign);
}

// jobhost processes are bounded (a run, a simulation), so memory kept until exit is fine.
// A .preinit_array entry runs before every library's constructors (whose allocations would
// otherwise take the first, untuned segment), and gets the environment as its third argument.
// The user's MIMALLOC_* environment wins; setting MIMALLOC_ALLOW_DECOMMIT (memory goes back to
// the OS) also leaves out the arena, which exists to keep memory.
void tuneMimalloc(int, char**, char** envp) {
  setUnlessInEnvironment(envp, "MIMALLOC_LARGE_OS_PAGES", mi_option_large_os_pages, 1);
  if (inEnvironment(envp, "MIMALLOC_ALLOW_DECOMMIT")) return;
  mi_option_set(mi_option_allow_decommit, 0);
  giveArena();
}

[[gnu::section(".preinit_array"), gnu::used]] void (*const tuneMimallocEntry)(int, char**, char**) = tuneMimalloc;

}  // namespace
