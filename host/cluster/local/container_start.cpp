// Starting a prepared container (see container_start.h): plainly, natively, or under bwrap, whose
// own executable is found along jobhost's PATH while the command is found along the container's.
#include "host/cluster/local/container_start.h"

#include <cstdlib>

#include "host/cluster/local/bwrap.h"
#include "host/cluster/local/native_container.h"

namespace jobhost::local {

Expected<Spawned> startContainer(const ContainerStart& start) {
  switch (start.isolation) {
    case Isolation::None: return spawnProcess(start.request);
    case Isolation::Native: return spawnNative(start.request, start.sandbox);
    case Isolation::Bwrap: break;
  }
  SpawnRequest request = start.request;
  request.argv = bwrapArgs(start.sandbox);
  const char* path = std::getenv("PATH");
  if (auto bwrap = findExecutable("bwrap", path ? path : ""); !bwrap.empty()) request.argv[0] = bwrap;
  request.argv.insert(request.argv.end(), start.request.argv.begin(), start.request.argv.end());
  return spawnProcess(request);
}

}  // namespace jobhost::local
