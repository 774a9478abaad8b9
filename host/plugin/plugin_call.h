// callPlugin: the host's second line of defence around every call into plugin code. Any exception
// that escaped the plugin's own SDK barrier becomes an error Status; the text is copied, never kept.
#pragma once

#include <exception>
#include <string>

#include "jobhost/status.h"

namespace jobhost {

template <class F>
Status callPlugin(F&& call) noexcept {
  try {
    return call();
  } catch (const std::exception& e) {
    return Status::error(std::string("threw an exception: ") + e.what());
  } catch (...) {
    return Status::error("threw a non-standard exception");
  }
}

}  // namespace jobhost
