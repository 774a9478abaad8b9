// Volcano's svc OnPodCreate: hostname and subdomain, the VC_<T>_HOSTS / VC_<T>_NUM env read from
// the `<job>-svc` ConfigMap, and that ConfigMap mounted at /etc/volcano.
#pragma once

#include <jobhost/jobhost.h>

namespace svc {

struct SvcJobData;

inline constexpr const char* kHostsMountPath = "/etc/volcano";

/// Mutates `pod` of `ctx.job()` with the job's svc data; idempotent (env upserted by name, volume
/// by name, mount by path).
void decorateSvcPod(jobhost::JobContext& ctx, const SvcJobData& data, jobhost::Pod& pod);

}  // namespace svc
