// Umbrella header of the jobhost plugin SDK: include this in a plugin's source files.
// Only headers under jobhost/ may be included by plugins; nothing here includes host code.
#pragma once

#include "jobhost/descriptor.h"
#include "jobhost/extension_points.h"
#include "jobhost/flags.h"
#include "jobhost/job_cache.h"
#include "jobhost/job.h"
#include "jobhost/meta.h"
#include "jobhost/objects.h"
#include "jobhost/plugin.h"
#include "jobhost/pod.h"
#include "jobhost/quantity.h"
#include "jobhost/runtime_info.h"
#include "jobhost/status.h"
#include "jobhost/version.h"
#include "jobhost/volcano.h"
