// JSON lines of `jobhost simulate`: one per handled request and one per PodGroup Unschedulable
// report (the final job status is host/spec's encodeJobStatus with everyStatusField).
#pragma once

#include <string>

#include "host/controller/controller.h"
#include "jobhost/job.h"
#include "jobhost/objects.h"

namespace jobhost {

/// {"t_ms":…,"event":…,"pod":…,"exitCode":…,"action":…,"delay_ms":…,"phase":…,"retryCount":…,
///  "version":…,"pending":…,"running":…,"succeeded":…,"failed":…,"terminating":…,"unknown":…}
/// plus, when they apply: "task", "fired", "error", "requeued", "retryLimitReached".
std::string handledRequestJson(const HandledRequest& r, TimeMs origin);

/// {"t_ms":…,"podGroup":…,"phase":…,"condition":"Unschedulable","reason":…,"message":…}: the
/// PodGroup's last condition (Unschedulable) as the sim scheduler just reported it.
std::string unschedulableJson(const PodGroup& podGroup, TimeMs at);

}  // namespace jobhost
