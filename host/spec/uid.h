// Kubernetes-style object UIDs: random (RFC 4122 version 4) for live objects, and deterministic
// (RFC 4122 version 5, SHA-1) for reproducible output such as `jobhost render`.
#pragma once

#include <string>
#include <string_view>

namespace jobhost {

/// A random version-4 UUID, "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx", lower-case hex.
std::string newUid();

/// The version-5 UUID of the name "<ns>/<name>" in jobhost's UUID namespace
/// e9f1d1f3-a483-5ee7-ad04-69858e839a92 (itself uuid5(DNS, "jobhost.dev")); in Python:
/// uuid5(uuid5(NAMESPACE_DNS, "jobhost.dev"), f"{ns}/{name}"). Same inputs, same UID.
std::string stableUid(std::string_view ns, std::string_view name);

}  // namespace jobhost
