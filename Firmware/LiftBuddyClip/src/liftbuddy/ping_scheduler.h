// Sonar ping scheduler: a non-blocking micros() state machine.
// It fires a ping on a fixed grid (every period_us), waits for the echo
// (captured by the INT0 interrupt, never by pulseIn) at most timeout_us, and
// never fires while the echo line is still high from a previous ping (some
// HC-SR04 clones hold it high for up to 200 ms when nothing comes back).
// All arithmetic is wrap-safe on the 32-bit micros() counter (wraps ~71 min).
#pragma once
#include <stdint.h>

namespace liftbuddy {

class PingScheduler {
 public:
  enum Action : uint8_t {
    kNone = 0,
    kFire,         // pulse the trigger now and arm the echo capture
    kMeasured,     // an echo completed: width_us() holds its length
    kTimedOut,     // no complete echo within timeout_us: disarm, nothing to send
    kSkippedBusy,  // a slot came while the echo line was still high: no ping
  };

  PingScheduler(uint32_t period_us, uint32_t timeout_us)
      : period_(period_us), timeout_(timeout_us) {}

  // Call as often as possible. echo_high: the echo pin's level now.
  // echo_complete/echo_width_us: what the interrupt captured since kFire.
  Action poll(uint32_t now_us, bool echo_high, bool echo_complete, uint32_t echo_width_us) {
    if (waiting_) {
      if (echo_complete) {
        waiting_ = false;
        width_ = echo_width_us;
        return kMeasured;
      }
      if (now_us - fired_at_ >= timeout_) {
        waiting_ = false;
        return kTimedOut;
      }
      return kNone;
    }
    if (!started_) {
      started_ = true;
      next_due_ = now_us;
    }
    if (static_cast<int32_t>(now_us - next_due_) < 0) return kNone;
    next_due_ += period_;
    // Fell more than a whole period behind (e.g. a long stall): re-anchor the
    // grid instead of firing a burst of catch-up pings.
    if (static_cast<int32_t>(now_us - next_due_) >= 0) next_due_ = now_us + period_;
    if (echo_high) return kSkippedBusy;
    waiting_ = true;
    fired_at_ = now_us;
    return kFire;
  }

  uint32_t width_us() const { return width_; }
  uint32_t fired_at_us() const { return fired_at_; }
  bool waiting() const { return waiting_; }

 private:
  uint32_t period_;
  uint32_t timeout_;
  uint32_t next_due_ = 0;
  uint32_t fired_at_ = 0;
  uint32_t width_ = 0;
  bool started_ = false;
  bool waiting_ = false;
};

}  // namespace liftbuddy
