// Isolation modes and their resolution from the config setting (see isolation.h).
#include "host/cluster/local/isolation.h"

#include "host/cluster/local/bwrap.h"
#include "host/cluster/local/native_container.h"

namespace jobhost::local {

const char* toString(Isolation isolation) {
  switch (isolation) {
    case Isolation::Native: return "native";
    case Isolation::Bwrap: return "bwrap";
    case Isolation::None: return "none";
  }
  return "none";
}

Expected<Isolation> resolveIsolation(const std::string& setting) {
  using R = Expected<Isolation>;
  if (setting != "auto" && setting != "native" && setting != "bwrap" && setting != "none")
    return R::failure("isolation \"" + setting + "\": must be \"auto\", \"native\", \"bwrap\" or \"none\"");
  if (setting == "none") return Isolation::None;
  if (setting == "native" || setting == "auto") {
    const std::string& problem = nativeTrial();
    if (problem.empty()) return Isolation::Native;
    if (setting == "native")
      return R::failure("isolation \"native\": cannot start a container in new namespaces here (" + problem +
                        "); it needs root (CAP_SYS_ADMIN) and Linux 5.9 or later; use \"auto\", \"bwrap\" or \"none\"");
  }
  const bool bwrap = bwrapWorks();
  if (setting == "bwrap" && !bwrap)
    return R::failure(
        "isolation \"bwrap\": bubblewrap cannot run here (is it installed? `apt-get install bubblewrap`; "
        "unprivileged users also need user namespaces); use \"auto\", \"native\" or \"none\"");
  return bwrap ? Isolation::Bwrap : Isolation::None;
}

}  // namespace jobhost::local
