// Umbrella header of the jobhost::testing harness: include this in a plugin's GoogleTest files
// (link jobhost::testing). Only SDK headers are reachable from here; nothing from the host.
#pragma once

#include "jobhost/jobhost.h"
#include "jobhost/testing/builders.h"
#include "jobhost/testing/conformance.h"
#include "jobhost/testing/fake_context.h"
#include "jobhost/testing/harness.h"
#include "jobhost/testing/pod_view.h"
#include "jobhost/testing/printers.h"
