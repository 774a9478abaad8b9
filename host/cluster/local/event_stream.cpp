// EventStream (see event_stream.h): one delivery thread, batches in push order.
// The listener is called without the stream's lock held.
#include "host/cluster/local/event_stream.h"

namespace jobhost::local {

EventStream::EventStream() : thread_([this] { run(); }) {}

EventStream::~EventStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void EventStream::setListener(ClusterListener* listener) {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !delivering_; });
    listener_ = listener;
  }
  changed_.notify_all();
}

void EventStream::push(ClusterEvent event) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(event));
    ++pushed_;
  }
  changed_.notify_all();
}

void EventStream::flush() {
  std::unique_lock lock(mutex_);
  const uint64_t target = pushed_;
  changed_.wait(lock, [&] { return delivered_ >= target || stopping_ || !listener_; });
}

void EventStream::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || (listener_ && !queue_.empty()); });
    if (stopping_) return;
    std::vector<ClusterEvent> batch;
    batch.swap(queue_);
    ClusterListener* listener = listener_;
    delivering_ = true;
    lock.unlock();
    listener->onClusterEvents(batch);
    lock.lock();
    delivering_ = false;
    delivered_ += batch.size();
    changed_.notify_all();
  }
}

}  // namespace jobhost::local
