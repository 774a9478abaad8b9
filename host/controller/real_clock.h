// RealClock: wall-clock time with timers on a dedicated Asio io_context thread.
// Used when the controller drives a real backend (local processes).
#pragma once

#include <memory>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "host/controller/clock.h"

namespace jobhost {

class RealClock final : public Clock {
 public:
  RealClock();
  ~RealClock() override;
  RealClock(const RealClock&) = delete;
  RealClock& operator=(const RealClock&) = delete;

  TimeMs now() const override;
  TimerHandle schedule(int64_t delayMs, std::function<void()> fn) override;

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread thread_;
};

}  // namespace jobhost
