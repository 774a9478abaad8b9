// The backend's ordered event delivery: events are appended (under the backend's lock, so in the
// order the changes happened) and a dedicated thread hands them to the listener in batches, never
// from inside a backend call. Events wait while no listener is set.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "host/cluster/backend.h"

namespace jobhost::local {

class EventStream {
 public:
  EventStream();
  ~EventStream();  // delivers nothing more; joins the thread
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;

  /// Replaces the listener; waits for a delivery in progress, so after setListener(nullptr) the
  /// old listener is never called again.
  void setListener(ClusterListener* listener);
  void push(ClusterEvent event);
  /// Blocks until every event pushed so far has been delivered (tests, shutdown).
  void flush();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<ClusterEvent> queue_;
  ClusterListener* listener_ = nullptr;
  uint64_t pushed_ = 0, delivered_ = 0;
  bool stopping_ = false, delivering_ = false;
  std::thread thread_;
};

}  // namespace jobhost::local
