// RealClock: each timer is an Asio steady_timer; cancellation is a flag checked on expiry, so a
// cancelled callback never runs even if the timer already fired and is queued.
#include "host/controller/real_clock.h"

#include <chrono>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace jobhost {

RealClock::RealClock() : guard_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}

RealClock::~RealClock() {
  guard_.reset();
  io_.stop();
  thread_.join();
}

TimeMs RealClock::now() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TimerHandle RealClock::schedule(int64_t delayMs, std::function<void()> fn) {
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(delayMs < 0 ? 0 : delayMs));
  timer->async_wait([timer, cancelled, fn = std::move(fn)](const boost::system::error_code& ec) {
    if (!ec && !cancelled->load()) fn();
  });
  return TimerHandle(cancelled);
}

}  // namespace jobhost
