// jobhost-plugin-probe FILE: dlopens one plugin file in a process of its own, so a damaged file that
// crashes the dynamic loader (a corrupt relocation, say) takes down this process, not the host.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace {

// An exception thrown by a global constructor does not unwind through dlopen: it ends here.
[[noreturn]] void thrownWhileLoading() {
  try {
    if (auto e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::exception& e) {
    std::fputs(e.what(), stderr);
    std::fflush(stderr);
    ::_exit(3);
  } catch (...) {
    ::_exit(4);
  }
  std::abort();
}

}  // namespace

/// Exit 0: loaded; 2: dlopen refused it (the host's own dlopen reports why); 3: its static
/// initialisation threw (the text on stderr); 4: it threw something that is not a std::exception.
int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: jobhost-plugin-probe FILE\n", stderr);
    return 64;
  }
  std::set_terminate(thrownWhileLoading);
  if (dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  return 0;
}
