// Starting a prepared container (see container_start.h): plainly, natively, or under bwrap, each
// with its own spawn function.
#include "host/cluster/local/container_start.h"

#include "host/cluster/local/bwrap.h"
#include "host/cluster/local/native_container.h"

namespace jobhost::local {

Expected<Spawned> startContainer(const ContainerStart& start) {
  switch (start.isolation) {
    case Isolation::None: return spawnProcess(start.request);
    case Isolation::Native: return spawnNative(start.request, start.sandbox);
    case Isolation::Bwrap: return spawnBwrap(start.request, start.sandbox);
  }
  return Expected<Spawned>::failure("unknown isolation");
}

}  // namespace jobhost::local
