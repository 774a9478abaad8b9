// JSON for `jobhost simulate`: one line per handled request, and the job status (spec §0.5 field
// names, Kubernetes casing; times RFC 3339, runningDuration as a Go duration string).
#pragma once

#include <string>

#include "host/controller/controller.h"
#include "jobhost/job.h"

namespace jobhost {

/// {"t_ms":…,"event":…,"pod":…,"exitCode":…,"action":…,"delay_ms":…,"phase":…,"retryCount":…,
///  "version":…,"pending":…,"running":…,"succeeded":…,"failed":…,"terminating":…,"unknown":…}
/// plus, when they apply: "task", "fired", "error", "requeued", "retryLimitReached".
std::string handledRequestJson(const HandledRequest& r, TimeMs origin);

/// The JobStatus object.
std::string jobStatusJson(const JobStatus& status);

/// "1970-01-01T00:00:12Z" (second precision, like metav1.Time).
std::string rfc3339(TimeMs ms);

}  // namespace jobhost
