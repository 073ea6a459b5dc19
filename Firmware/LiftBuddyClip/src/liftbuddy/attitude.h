// Bar attitude from the MPU6050: accelerometer angles, start-up gyro-bias
// calibration and a complementary filter. Plain C++ (host-testable).
//
// Axes (see README, "Mounting"): the MPU6050's X axis along the bar, Z up when
// the bar is level and the clip upright.
//   pitch = rotation about Y: the bar tipping, one end lower than the other;
//           from the accelerometer atan2(-ax, sqrt(ay² + az²)), gyro rate gy.
//   roll  = rotation about X (the bar's own axis): atan2(ay, az), gyro rate gx.
// Both in degrees, right-handed, so the gyro rate and the accelerometer angle
// have the same sign.
#pragma once
#include <math.h>
#include <stdint.h>

namespace liftbuddy {

struct ImuRaw {
  int16_t ax, ay, az;  // accelerometer, raw LSB
  int16_t gx, gy, gz;  // gyroscope, raw LSB
};

constexpr float kRadToDeg = 57.2957795f;

inline float accel_pitch_deg(float ax, float ay, float az) {
  return atan2f(-ax, sqrtf(ay * ay + az * az)) * kRadToDeg;
}
inline float accel_roll_deg(float ay, float az) { return atan2f(ay, az) * kRadToDeg; }

// Wraps an angle in degrees to (-180, 180].
inline float wrap180(float deg) {
  while (deg > 180.0f) deg -= 360.0f;
  while (deg <= -180.0f) deg += 360.0f;
  return deg;
}

// angle ← α·(angle + rate·dt) + (1−α)·accel_angle, written in a wrap-safe form
// (the correction is the wrapped difference), seeded by the first accel angle.
class ComplementaryFilter {
 public:
  explicit ComplementaryFilter(float alpha) : alpha_(alpha) {}

  void update(float accel_pitch, float accel_roll, float pitch_rate_dps, float roll_rate_dps,
              float dt_s) {
    if (!seeded_) {
      pitch_ = accel_pitch;
      roll_ = accel_roll;
      seeded_ = true;
      return;
    }
    pitch_ = step(pitch_, accel_pitch, pitch_rate_dps, dt_s);
    roll_ = step(roll_, accel_roll, roll_rate_dps, dt_s);
  }

  float pitch() const { return pitch_; }
  float roll() const { return roll_; }
  bool seeded() const { return seeded_; }

 private:
  float step(float angle, float accel_angle, float rate, float dt) const {
    float predicted = angle + rate * dt;
    return wrap180(predicted + (1.0f - alpha_) * wrap180(accel_angle - predicted));
  }

  float alpha_;
  float pitch_ = 0.0f;
  float roll_ = 0.0f;
  bool seeded_ = false;
};

// Gyro bias = mean of a window of samples taken while the bar is still.
// A window in which any gyro axis spreads more than max_spread_lsb is thrown
// away and a new one started; after max_attempts windows the last is used
// anyway (used_moving_window() tells).
class GyroCalibrator {
 public:
  GyroCalibrator(uint16_t samples, int16_t max_spread_lsb, uint8_t max_attempts)
      : samples_(samples), max_spread_(max_spread_lsb), max_attempts_(max_attempts) {
    reset_window();
  }

  // Feed one raw sample; returns true once the bias is known.
  bool add(const ImuRaw& s) {
    if (done_) return true;
    const int16_t g[3] = {s.gx, s.gy, s.gz};
    for (uint8_t i = 0; i < 3; ++i) {
      sum_[i] += g[i];
      if (g[i] < min_[i]) min_[i] = g[i];
      if (g[i] > max_[i]) max_[i] = g[i];
    }
    if (++count_ < samples_) return false;
    bool still = true;
    for (uint8_t i = 0; i < 3; ++i) {
      if (static_cast<int32_t>(max_[i]) - min_[i] > max_spread_) still = false;
    }
    ++attempts_;
    if (still || attempts_ >= max_attempts_) {
      for (uint8_t i = 0; i < 3; ++i) bias_[i] = static_cast<float>(sum_[i]) / count_;
      moving_ = !still;
      done_ = true;
      return true;
    }
    reset_window();
    return false;
  }

  bool done() const { return done_; }
  bool used_moving_window() const { return moving_; }
  uint8_t attempts() const { return attempts_; }
  // Bias per axis in raw LSB (x, y, z).
  float bias(uint8_t axis) const { return bias_[axis]; }

 private:
  void reset_window() {
    count_ = 0;
    for (uint8_t i = 0; i < 3; ++i) {
      sum_[i] = 0;
      min_[i] = 32767;
      max_[i] = -32768;
    }
  }

  uint16_t samples_;
  int16_t max_spread_;
  uint8_t max_attempts_;
  uint16_t count_ = 0;
  uint8_t attempts_ = 0;
  int32_t sum_[3];
  int16_t min_[3];
  int16_t max_[3];
  float bias_[3] = {0, 0, 0};
  bool done_ = false;
  bool moving_ = false;
};

// The whole IMU path: calibrate, then filter. Returns false while calibrating.
class AttitudeEstimator {
 public:
  AttitudeEstimator(float alpha, float accel_lsb_per_g, float gyro_lsb_per_dps,
                    uint16_t cal_samples, int16_t cal_spread, uint8_t cal_attempts)
      : filter_(alpha),
        cal_(cal_samples, cal_spread, cal_attempts),
        gyro_scale_(1.0f / gyro_lsb_per_dps) {
    (void)accel_lsb_per_g;  // angles are ratios: the accel scale cancels out
  }

  bool update(const ImuRaw& s, float dt_s) {
    if (!cal_.done()) {
      cal_.add(s);
      return false;
    }
    const float ap = accel_pitch_deg(s.ax, s.ay, s.az);
    const float ar = accel_roll_deg(s.ay, s.az);
    const float roll_rate = (s.gx - cal_.bias(0)) * gyro_scale_;
    const float pitch_rate = (s.gy - cal_.bias(1)) * gyro_scale_;
    filter_.update(ap, ar, pitch_rate, roll_rate, dt_s);
    return true;
  }

  float pitch() const { return filter_.pitch(); }
  float roll() const { return filter_.roll(); }
  const GyroCalibrator& calibrator() const { return cal_; }

 private:
  ComplementaryFilter filter_;
  GyroCalibrator cal_;
  float gyro_scale_;
};

}  // namespace liftbuddy
