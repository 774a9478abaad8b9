// What the API server does to a new object's name before the admission webhooks see it: a name
// made from metadata.generateName, and ObjectMeta's "name or generateName is required" rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobhost/extension_points.h"
#include "jobhost/meta.h"

namespace jobhost {

/// SimpleNameGenerator: `prefix` cut to 58 bytes, then 5 random characters of apimachinery's
/// alphabet "bcdfghjklmnpqrstvwxz2456789" (so the name fits a 63-byte label).
std::string generatedName(std::string_view prefix);

/// On create: when `meta.name` is empty and `generateName` is not, names the object from it.
/// Returns ValidateObjectMeta's errors for a namespaced custom resource: an invalid generateName
/// (a DNS-1123 subdomain, a trailing '-' allowed) at metadata.generateName; at metadata.name,
/// neither name nor generateName, or a name that is not a DNS-1123 subdomain. The API server
/// rejects an object with any before admission.
std::vector<FieldError> nameOnCreate(ObjectMeta& meta, std::string_view generateName);

}  // namespace jobhost
