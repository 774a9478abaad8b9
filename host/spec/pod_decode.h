// Decoding of Kubernetes object metadata and pod templates (containers, env, ports, resources,
// mounts, volumes) from SourceDoc values. Internal to host/spec; used by the job decoder.
#pragma once

#include "host/spec/decoder.h"
#include "jobhost/meta.h"
#include "jobhost/pod.h"

namespace jobhost {

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, ObjectMeta& out);
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, PodTemplateSpec& out);

}  // namespace jobhost
