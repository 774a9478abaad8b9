// Fuzz target: Kubernetes quantity parsing (SDK Quantity::parse). A parsed quantity must format
// and parse back to the same value.
#include <cstdlib>
#include <string_view>

#include "jobhost/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string error;
  auto q = jobhost::Quantity::parse(std::string_view(reinterpret_cast<const char*>(data), size), &error);
  if (!q) return 0;
  auto again = jobhost::Quantity::parse(q->toString());
  if (!again || *again != *q) std::abort();
  return 0;
}
