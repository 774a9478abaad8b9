// mimalloc's tuning for the executables that link jobhost::allocator: 2 MiB (transparent huge)
// pages and no decommit, set before any allocation unless the user's MIMALLOC_* environment says otherwise.
#include <cstring>

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

// Page faults and re-faults on freshly committed 4 KiB pages were a quarter of the controller's
// time (perf, controller_bench): huge pages and keeping freed memory committed remove most of
// them. jobhost processes are bounded (a run, a simulation), so memory kept until exit is fine.
// A .preinit_array entry runs before every library's constructors (whose allocations would
// otherwise take the first, untuned segment), and gets the environment as its third argument.
void tuneMimalloc(int, char**, char** envp) {
  setUnlessInEnvironment(envp, "MIMALLOC_LARGE_OS_PAGES", mi_option_large_os_pages, 1);
  setUnlessInEnvironment(envp, "MIMALLOC_ALLOW_DECOMMIT", mi_option_allow_decommit, 0);
}

[[gnu::section(".preinit_array"), gnu::used]] void (*const tuneMimallocEntry)(int, char**, char**) = tuneMimalloc;

}  // namespace
