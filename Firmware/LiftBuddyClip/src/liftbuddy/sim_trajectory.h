// Scripted bar trajectory for the simulated-sensor build
// (-DLIFTBUDDY_SIM_SENSORS) and the host tests. Plain C++.
//
// A squat set: the bar held still at the top for the lead-in (the gyro
// calibration happens here), then LIFTBUDDY_SIM_REPS reps, each
//   eccentric (down) 1.0 s, pause 0.2 s at the bottom,
//   concentric (up) 0.8 s, hold 0.8 s at the top,
// with cosine-shaped motion between sonar heights 145.0 cm (top) and
// 85.0 cm (bottom), then still at the top for ever. The bar tips a little
// during each rep (pitch) and rolls back 2° at the bottom (roll). The
// simulated MPU6050 has a gyro bias, so the firmware's calibration matters.
#pragma once
#include <math.h>
#include <stdint.h>
#include "attitude.h"
#include "config.h"
#include "sonar.h"

#ifndef LIFTBUDDY_SIM_REPS
#define LIFTBUDDY_SIM_REPS 5
#endif

namespace liftbuddy {
namespace sim {

constexpr uint16_t kReps = LIFTBUDDY_SIM_REPS;
constexpr uint32_t kLeadInMs = 4000;
constexpr uint32_t kDownMs = 1000;
constexpr uint32_t kPauseMs = 200;
constexpr uint32_t kUpMs = 800;
constexpr uint32_t kTopMs = 800;
constexpr uint32_t kRepMs = kDownMs + kPauseMs + kUpMs + kTopMs;
constexpr uint32_t kSetEndMs = kLeadInMs + kReps * kRepMs;
constexpr float kTopMm = 1450.0f;
constexpr float kBottomMm = 850.0f;
constexpr float kPi = 3.14159265f;

// Gyro bias of the simulated sensor, raw LSB (≈ +1.5, −0.8, +0.4 °/s).
constexpr int16_t kGyroBias[3] = {98, -52, 26};

// Depth into the current rep: 0 at the top, 1 at the bottom.
inline float depth(uint32_t t_ms) {
  if (t_ms < kLeadInMs || t_ms >= kSetEndMs) return 0.0f;
  uint32_t r = (t_ms - kLeadInMs) % kRepMs;
  if (r < kDownMs) return (1.0f - cosf(kPi * r / kDownMs)) * 0.5f;
  r -= kDownMs;
  if (r < kPauseMs) return 1.0f;
  r -= kPauseMs;
  if (r < kUpMs) return (1.0f + cosf(kPi * r / kUpMs)) * 0.5f;
  return 0.0f;
}

// Distance from the clip to the floor, mm.
inline float height_mm(uint32_t t_ms) { return kTopMm - (kTopMm - kBottomMm) * depth(t_ms); }

// Scripted attitude, degrees.
inline float pitch_deg(uint32_t t_ms) {
  if (t_ms < kLeadInMs || t_ms >= kSetEndMs) return 0.5f;
  float u = static_cast<float>((t_ms - kLeadInMs) % kRepMs) / kRepMs;
  return 0.5f + 1.5f * sinf(2.0f * kPi * u);
}
inline float roll_deg(uint32_t t_ms) { return -1.0f - 2.0f * depth(t_ms); }

// Small deterministic noise: a 16-bit xorshift, value in [-amp, amp].
inline int16_t noise(uint16_t* state, int16_t amp) {
  uint16_t x = *state;
  x ^= x << 7;
  x ^= x >> 9;
  x ^= x << 8;
  *state = x;
  return static_cast<int16_t>(static_cast<int32_t>(x % (2 * amp + 1)) - amp);
}

// Echo width the HC-SR04 would report at t_ms (±2 mm of noise).
inline uint32_t echo_us(uint32_t t_ms, uint16_t* rng) {
  float mm = height_mm(t_ms) + noise(rng, 2);
  return mm_to_echo_us(static_cast<uint16_t>(mm + 0.5f));
}

// Raw MPU6050 sample at t_ms: gravity plus the bar's vertical acceleration,
// seen through the scripted pitch and roll; gyro = angle rates + bias + noise.
inline ImuRaw imu(uint32_t t_ms, uint16_t* rng) {
  const uint32_t h = 10;  // ms, step for the numerical derivatives
  const uint32_t tm = t_ms >= h ? t_ms - h : 0;
  const float dt = (t_ms + h - tm) * 0.001f;
  // Vertical acceleration, m/s² (second difference of the height in metres).
  const float acc = (height_mm(t_ms + h) - 2.0f * height_mm(t_ms) + height_mm(tm)) * 0.001f /
                    (0.25f * dt * dt);
  const float p = pitch_deg(t_ms) / kRadToDeg;
  const float r = roll_deg(t_ms) / kRadToDeg;
  const float g = (1.0f + acc / 9.81f) * kAccelLsbPerG;
  // World "up" in the sensor frame for pitch about Y then roll about X.
  const float ux = -sinf(p);
  const float uy = cosf(p) * sinf(r);
  const float uz = cosf(p) * cosf(r);
  const float pitch_rate = (pitch_deg(t_ms + h) - pitch_deg(tm)) / dt;
  const float roll_rate = (roll_deg(t_ms + h) - roll_deg(tm)) / dt;
  ImuRaw s;
  s.ax = static_cast<int16_t>(g * ux + noise(rng, 20));
  s.ay = static_cast<int16_t>(g * uy + noise(rng, 20));
  s.az = static_cast<int16_t>(g * uz + noise(rng, 20));
  s.gx = static_cast<int16_t>(roll_rate * kGyroLsbPerDps + kGyroBias[0] + noise(rng, 8));
  s.gy = static_cast<int16_t>(pitch_rate * kGyroLsbPerDps + kGyroBias[1] + noise(rng, 8));
  s.gz = static_cast<int16_t>(kGyroBias[2] + noise(rng, 8));
  return s;
}

}  // namespace sim
}  // namespace liftbuddy
