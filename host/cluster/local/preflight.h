// What the local backend cannot run, found before any pod starts: containers without a command
// (there is no image entrypoint here) and mounted volumes of types it does not provide.
#pragma once

#include <vector>

#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost::local {

/// One error per container of a task template that sets neither `command` nor `args`, and per
/// volume that a container mounts but whose type the backend does not provide, each at its field
/// (`spec.tasks[i].template.spec.containers[j].command`, `...volumes[k]`) with what to do instead.
std::vector<FieldError> preflight(const Job& job);

}  // namespace jobhost::local
