// Encoders shared between the Job, Pod and object serialisers: metadata, pod template, label
// selector and network topology. Internal to host/spec.
#pragma once

#include "host/spec/json_build.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost {

rapidjson::Value encodeObjectMeta(const ObjectMeta& meta, JsonAllocator& allocator);
rapidjson::Value encodePodTemplateSpec(const PodTemplateSpec& podTemplate, JsonAllocator& allocator);
rapidjson::Value encodeLabelSelector(const LabelSelector& selector, JsonAllocator& allocator);
rapidjson::Value encodeNetworkTopology(const NetworkTopologySpec& topology, JsonAllocator& allocator);

}  // namespace jobhost
