// Quantities kept as JSON in a model's unknown fields (pod overhead, pod-level resources): a JSON
// string or number read with Kubernetes' quantity syntax.
#pragma once

#include <optional>
#include <string_view>

#include <rapidjson/document.h>

#include "jobhost/meta.h"
#include "jobhost/quantity.h"

namespace jobhost {

/// The quantity a JSON string ("250m") or number (2, 1.5) spells; nullopt for anything else.
std::optional<Quantity> jsonQuantity(const rapidjson::Value& v);

/// A JSON object of quantities ({"cpu": "250m"}) as a ResourceList, skipping entries that are not
/// quantities; empty when `list` is not an object.
ResourceList jsonResourceList(const rapidjson::Value& list);

/// The unknown field `field` (compact JSON), parsed (a null document when broken); nullopt, with
/// nothing allocated, when there is no such field.
std::optional<rapidjson::Document> unknownFieldJson(const UnknownFields& unknown, std::string_view field);

}  // namespace jobhost
