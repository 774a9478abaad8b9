// GoogleTest printers for the SDK values plugin tests assert on (JobPhase, PodPhase, FieldError):
// a failing EXPECT_EQ shows "Running" or "<field>: <message>" instead of raw bytes. Test-side only.
#pragma once

#include <ostream>

#include "jobhost/extension_points.h"
#include "jobhost/job.h"
#include "jobhost/pod.h"

namespace jobhost {

// In namespace jobhost so GoogleTest finds them by argument-dependent lookup; the SDK's own
// headers define no stream operators for these types.
inline void PrintTo(JobPhase phase, std::ostream* os) { *os << toString(phase); }
inline void PrintTo(PodPhase phase, std::ostream* os) { *os << toString(phase); }
inline void PrintTo(const FieldError& error, std::ostream* os) { *os << error.field << ": " << error.message; }

}  // namespace jobhost
