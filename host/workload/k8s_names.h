// Kubernetes name formats (k8s.io/apimachinery validation): qualified names, DNS-1123 labels and
// subdomains, port names, env var names, config keys and label values, with Kubernetes' messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jobhost::k8s {

/// Each function returns Kubernetes' error messages for `value` (empty when valid), worded as
/// apimachinery's content package words them (k8s 1.34+: "must be no more than N bytes").
std::vector<std::string> isQualifiedName(std::string_view value);
std::vector<std::string> isDNS1123Label(std::string_view value);
std::vector<std::string> isDNS1123Subdomain(std::string_view value);
std::vector<std::string> isValidPortName(std::string_view value);
std::vector<std::string> isValidPortNum(int64_t port);
std::vector<std::string> isEnvVarName(std::string_view value);
std::vector<std::string> isConfigMapKey(std::string_view value);
std::vector<std::string> isLabelValue(std::string_view value);

/// The bare regular-expression tests behind the functions above.
bool matchesDNS1123Label(std::string_view value);      // [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matchesDNS1123Subdomain(std::string_view value);  // labels joined by '.'

}  // namespace jobhost::k8s
