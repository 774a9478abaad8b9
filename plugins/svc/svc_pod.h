// Volcano's svc OnPodCreate: hostname and subdomain, the VC_<T>_HOSTS / VC_<T>_NUM env read from
// the `<job>-svc` ConfigMap, and that ConfigMap mounted at /etc/volcano.
#pragma once

#include <jobhost/jobhost.h>

#include "svc_options.h"

namespace svc {

inline constexpr const char* kHostsMountPath = "/etc/volcano";

/// Mutates `pod` of `ctx.job()`; idempotent (env upserted by name, volume by name, mount by path).
void decorateSvcPod(jobhost::JobContext& ctx, const SvcOptions& options, jobhost::Pod& pod);

}  // namespace svc
